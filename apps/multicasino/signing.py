"""Signing and verifying messages between deployments, by the Standard Webhooks scheme (webhook-id,
webhook-timestamp, webhook-signature; HMAC-SHA256), with the `standardwebhooks` package (14.20(e)2-complete, 14.20(e)3).

A sender signs with every outbound secret of the link (the first is the current one); a receiver accepts a
signature made with any of its inbound secrets. Rotating a secret without downtime: add the new secret to the
receiver's inbound list, then put it first in the sender's outbound list, then retire the old one.
"""
import hashlib
import json
from datetime import UTC, datetime

from standardwebhooks.webhooks import Webhook, WebhookVerificationError

__all__ = ["WebhookVerificationError", "body_hash", "canonical", "sign", "verify"]


def canonical(body: dict) -> str:
    """The JSON text of a message body as sent and signed (sorted keys, no spaces)."""
    return json.dumps(body, sort_keys=True, separators=(",", ":"), default=str)


def body_hash(raw: bytes | str) -> str:
    """SHA-256 (hex) of the body as received: the acknowledgement that it was completely and accurately
    received (14.20(e)2-complete)."""
    return hashlib.sha256(raw.encode() if isinstance(raw, str) else raw).hexdigest()


def sign(*, message_id: str, text: str, secrets: list[str], at: datetime | None = None) -> dict[str, str]:
    """The three Standard Webhooks headers for `text`, signed with each secret. Raises ValueError without one."""
    if not secrets:
        raise ValueError("The link has no outbound secret.")
    at = (at or datetime.now(UTC)).astimezone(UTC)
    signatures = " ".join(Webhook(secret).sign(message_id, at, text) for secret in secrets)
    return {"webhook-id": message_id, "webhook-timestamp": str(int(at.timestamp())),
            "webhook-signature": signatures}


def verify(*, text: str, headers: dict[str, str], secrets: list[str]) -> None:
    """Check a message's signature and its ±5 minute window against any accepted secret (N.J.A.C.
    13:69F-14.20(e)3). Raises WebhookVerificationError with the reason (missing or malformed headers, too old, too
    new, no matching signature)."""
    if not secrets:
        raise WebhookVerificationError("No secret is configured for this sender")
    last: WebhookVerificationError | None = None
    for secret in secrets:
        try:
            Webhook(secret).verify(text, headers, json_parse=False)
            return
        except WebhookVerificationError as exc:
            last = exc
            if "timestamp" in str(exc) or "headers" in str(exc).lower():
                raise
        except ValueError as exc:  # the package unpacks each "v1,<base64>" of the header unchecked
            raise WebhookVerificationError("Malformed webhook-signature header") from exc
    raise last or WebhookVerificationError("No matching signature found")
