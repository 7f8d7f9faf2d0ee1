"""The multi-casino bad beat system (N.J.A.C. 13:69F-14.20): the system agreement as data, the participating
casinos, the signed links between deployments, and the outbox and inbox of messages that keep them in step.

Each deployment holds one BadBeatSystem row for each system it belongs to; `Site.is_self` marks the row of this
deployment's own casino, `Site.is_host` the host's. Messages and acknowledgements are kept: they are the
system's audit record (14.20(e)).
"""
import hashlib
from decimal import Decimal

import pghistory
import pgtrigger
from django.conf import settings
from django.db import models

from apps.badbeat.models import Jackpot, QualifyingHand
from apps.core.fields import MoneyField

#: The terms of which pots can be a bad beat (14.19(b)3) — straddled pots, bomb pots, hands run more than once — with
#: the Jackpot columns' defaults. They joined the system's rule set after it was first defined: a rule set without
#: one (stored before, or sent by a casino whose software does not know it) holds the default, and its hash is the
#: same with the term at its default or without it (services.setup.rules_hash).
ELIGIBILITY_DEFAULTS: dict[str, bool] = {"straddled_pots_qualify": True, "bomb_pots_qualify": True,
                                         "multiple_runs_qualify": False}


def with_eligibility_defaults(rules: dict) -> dict:
    """A system's rule set with every term of which pots qualify: a term it does not hold reads as its default."""
    return {**rules, **{k: v for k, v in ELIGIBILITY_DEFAULTS.items() if k not in rules}}


class TwoClaimsRule(models.TextChoices):
    """Two qualifying claims for the same payout at different casinos (14.20(c)1, 14.20(e)4-two-claims)."""

    FIRST_RECEIVED = "first_received", "The first claim received by the host is paid; the other is answered"
    SPLIT = "split", "Claims received before the payout is confirmed share the payout equally"


class SystemStatus(models.TextChoices):
    ACTIVE = "active", "Active"
    SUSPENDED = "suspended", "Suspended"


# The audit trail keeps every change of the agreement; the pool and the reset reserve move by append-only records
# of their own (PoolEntry, PoolMovement), so their mirror here is not copied at every contribution or heartbeat.
@pghistory.track(pghistory.InsertEvent(), pghistory.UpdateEvent(condition=pghistory.AnyChange(
    exclude=["pool", "reset_reserve", "next_arrival", "updated_at"])))
class BadBeatSystem(models.Model):
    """A bad beat system agreement (14.20(a)-(c)): one rule set for every participating casino, checked by its
    hash; the host casino keeps the official pool and the records."""

    code = models.SlugField(max_length=40, unique=True)
    name = models.CharField(max_length=120)
    host_name = models.CharField(max_length=200)
    host_address = models.CharField(max_length=300)
    rules = models.JSONField(help_text="The one rule set of the system (qualifying hand, contribution, minimum "
                                       "pot, maximum contribution, reset percentage, two-claims rule, ...).")
    rules_hash = models.CharField(max_length=64, editable=False)
    two_claims_rule = models.CharField(max_length=16, choices=TwoClaimsRule.choices,
                                       default=TwoClaimsRule.FIRST_RECEIVED)
    contributions_while_suspended = models.BooleanField(default=False)
    funds_and_fees = models.TextField(blank=True, help_text="How funds and fees are kept and paid (14.20(c)2).")
    records_kept_by = models.CharField(max_length=200, blank=True, help_text="14.20(c)3.")
    pool = MoneyField(default=Decimal("0.00"),
                      help_text="At the host: the official multi-casino amount. At a site: as last reported.")
    reset_reserve = MoneyField(default=Decimal("0.00"),
                               help_text="At the host: the reset amount set aside for the next payout "
                                         "(14.19(p)).")
    rules_effective_at = models.DateTimeField(null=True, blank=True,
                                              help_text="When the qualifying requirements now posted took effect.")
    next_arrival = models.PositiveBigIntegerField(default=1, help_text="At the host: the order of the next claim "
                                                                       "received (never the sites' clocks).")
    heartbeat_seconds = models.PositiveSmallIntegerField(default=2)
    silence_seconds = models.PositiveSmallIntegerField(default=10, help_text="Silence that suspends (14.20(e)4.i).")
    jackpot = models.ForeignKey(Jackpot, on_delete=models.PROTECT, null=True, blank=True, related_name="+",
                                help_text="This deployment's local payout whose contributions belong to the system.")
    updated_at = models.DateTimeField(auto_now=True)

    def __str__(self) -> str:
        return self.name

    @property
    def posted_rules(self) -> dict:
        """The system's rule set as every casino posts it, with each term of which pots qualify (a term it does not
        hold reads as its default: ELIGIBILITY_DEFAULTS)."""
        return with_eligibility_defaults(self.rules)

    @property
    def qualifying_hand_label(self) -> str:
        """The rule set's qualifying hand as patrons read it (14.19(b)3-posted, 14.20(d)1-information), e.g. "Four of a
        kind or better"; the stored value itself when it is not one of QualifyingHand's."""
        value = self.rules.get("qualifying_hand", "")
        return QualifyingHand(value).label if value in QualifyingHand.values else str(value)


# Every change of a casino's configuration, of its role, authority and responsibilities under the agreement
# (14.20(c)) and every suspension or resumption is in the audit trail (14.20(e)), with the reason; not the time each
# heartbeat was heard, every 2 s.
@pghistory.track(pghistory.InsertEvent(), pghistory.UpdateEvent(condition=pghistory.AnyChange(
    "code", "name", "address", "is_host", "is_self", "inbox_url", "status", "role", "authority",
    "responsibilities")))
class Site(models.Model):
    """A participating casino of a system, as seen from this deployment (14.20(d)1-participants)."""

    system = models.ForeignKey(BadBeatSystem, on_delete=models.PROTECT, related_name="sites")
    code = models.SlugField(max_length=40)
    name = models.CharField(max_length=200)
    address = models.CharField(max_length=300, blank=True)
    is_host = models.BooleanField(default=False)
    is_self = models.BooleanField(default=False, help_text="This deployment's own casino.")
    inbox_url = models.URLField(blank=True, help_text="Its deployment's inbox (HTTPS).")
    role = models.CharField(max_length=200, blank=True,
                            help_text="Its role in the conduct of the multi-casino bad beat payout, as the system "
                                      "agreement describes it (14.20(c)), e.g. \"Host: keeps the pool and the "
                                      "system's records\".")
    authority = models.TextField(max_length=2000, blank=True,
                                 help_text="Its authority in the conduct of the payout, as the system agreement "
                                           "describes it (14.20(c)).")
    responsibilities = models.TextField(max_length=2000, blank=True,
                                        help_text="Its responsibilities in the conduct of the payout, as the system "
                                                  "agreement describes them (14.20(c)).")
    status = models.CharField(max_length=10, choices=SystemStatus.choices, default=SystemStatus.ACTIVE)
    status_reason = models.CharField(max_length=300, blank=True)
    status_changed_at = models.DateTimeField(null=True, blank=True)
    last_heard_at = models.DateTimeField(null=True, blank=True)
    reported_rules_hash = models.CharField(max_length=64, blank=True)
    reported_total = MoneyField(null=True, blank=True,
                                help_text="The site's running total of contributions, as it reported it.")

    class Meta:
        ordering = ["system", "-is_host", "code"]
        constraints = [models.UniqueConstraint(fields=["system", "code"], name="one_site_code_per_system")]

    def __str__(self) -> str:
        return f"{self.name} ({self.code})"


def keys_fingerprint(*, outbound: list[str], inbound: list[str]) -> str:
    """Each secret's SHA-256, first 12 hex digits, by direction ("out=<12 hex>,...; in=<12 hex>,..."): what the
    audit trail keeps of a link's keys, so that a rotation is on record without the secrets themselves (the logical
    security of the system's keys, 14.20(e)1)."""
    def prints(secrets: list[str]) -> str:
        return ",".join(hashlib.sha256(str(secret).encode()).hexdigest()[:12] for secret in secrets)
    return f"out={prints(outbound)}; in={prints(inbound)}"


# The audit trail keeps every change of a link's keys (14.20(e)1-3) by their fingerprints, never the secrets, and
# not the movement of its sequence numbers.
@pghistory.track(pghistory.InsertEvent(), pghistory.UpdateEvent(condition=pghistory.AnyChange("keys_fingerprint")),
                 fields=["peer", "keys_fingerprint"], model_name="LinkEvent",
                 obj_field=pghistory.ObjForeignKey(related_name="key_events"))
class Link(models.Model):
    """This deployment's link with one other site: the secrets of each direction (the first signs; all are
    accepted, for rotation without downtime) and the sequence numbers of each direction (14.20(e)2-complete,
    14.20(e)3)."""

    peer = models.OneToOneField(Site, on_delete=models.PROTECT, related_name="link")
    outbound_secrets = models.JSONField(default=list, help_text="whsec_... secrets; the first signs.")
    inbound_secrets = models.JSONField(default=list, help_text="Every secret accepted from the peer.")
    keys_fingerprint = models.CharField(max_length=600, editable=False, default="",
                                        help_text="The secrets' fingerprints, kept by the audit trail.")
    next_out_sequence = models.PositiveBigIntegerField(default=1)
    next_in_sequence = models.PositiveBigIntegerField(default=1, help_text="The next sequence number to apply.")
    backlog_until = models.PositiveBigIntegerField(
        null=True, blank=True, help_text="While suspended, once the peer is heard again: the last message written "
                                         "before that; the link resumes when every one up to it is acknowledged.")

    def __str__(self) -> str:
        return f"Link with {self.peer}"

    def save(self, *args, **kwargs):
        self.keys_fingerprint = keys_fingerprint(outbound=self.outbound_secrets, inbound=self.inbound_secrets)
        update_fields = kwargs.get("update_fields")
        if update_fields is not None and {"outbound_secrets", "inbound_secrets"} & set(update_fields):
            kwargs["update_fields"] = {*update_fields, "keys_fingerprint"}
        super().save(*args, **kwargs)


class MessageKind(models.TextChoices):
    CONTRIBUTION = "contribution", "Contribution"
    HEARTBEAT = "heartbeat", "Heartbeat"
    RESEND = "resend", "Resend request"
    CLAIM = "claim", "Claim verified at a site"
    NOTICE = "notice", "Notice from the host"
    PAYOUT = "payout", "Payout delivered at a site"
    RULES = "rules", "Rule change from the host"
    APPROVAL = "approval", "Rule change approved at a site"
    BATCH = "batch", "Consecutive messages sent together"


class OutboxMessage(models.Model):
    """A message to a peer, written in the same transaction as the change it reports and sent on commit; the
    sweeper sends again whatever was not acknowledged, with backoff (14.20(e)2-complete)."""

    link = models.ForeignKey(Link, on_delete=models.PROTECT, related_name="outbox")
    sequence = models.PositiveBigIntegerField()
    message_id = models.CharField(max_length=64, unique=True)
    kind = models.CharField(max_length=16, choices=MessageKind.choices)
    body = models.JSONField()
    created_at = models.DateTimeField(auto_now_add=True)
    attempts = models.PositiveIntegerField(default=0)
    next_attempt_at = models.DateTimeField(null=True, blank=True)
    last_error = models.CharField(max_length=300, blank=True)
    acked_at = models.DateTimeField(null=True, blank=True)
    ack_body_hash = models.CharField(max_length=64, blank=True,
                                     help_text="The receiver's SHA-256 of the body it received (14.20(e)3).")

    class Meta:
        ordering = ["link", "sequence"]
        constraints = [models.UniqueConstraint(fields=["link", "sequence"], name="one_message_per_sequence")]
        indexes = [models.Index(fields=["link", "sequence"], condition=models.Q(acked_at__isnull=True),
                                name="outbox_unacknowledged")]

    def __str__(self) -> str:
        return f"{self.kind} #{self.sequence} to {self.link.peer.code}"


class InboxMessage(models.Model):
    """A message received from a peer: stored once (unique sender and id), applied once, in sequence order."""

    link = models.ForeignKey(Link, on_delete=models.PROTECT, related_name="inbox")
    message_id = models.CharField(max_length=64)
    sequence = models.PositiveBigIntegerField()
    kind = models.CharField(max_length=16, choices=MessageKind.choices)
    body = models.JSONField()
    body_hash = models.CharField(max_length=64)
    received_at = models.DateTimeField(auto_now_add=True)
    applied_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["link", "sequence"]
        constraints = [
            models.UniqueConstraint(fields=["link", "message_id"], name="inbox_once_per_id"),
            models.UniqueConstraint(fields=["link", "sequence"], name="inbox_once_per_sequence"),
        ]

    def __str__(self) -> str:
        return f"{self.kind} #{self.sequence} from {self.link.peer.code}"


class RejectedMessage(models.Model):
    """A message refused at the inbox, and why; it changed nothing (14.20(e)3)."""

    sender = models.CharField(max_length=40, blank=True)
    message_id = models.CharField(max_length=64, blank=True)
    reason = models.CharField(max_length=300)
    body_hash = models.CharField(max_length=64)
    received_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-received_at"]

    def __str__(self) -> str:
        return f"Rejected {self.message_id or '?'} from {self.sender or '?'}: {self.reason}"


class PoolEntry(models.Model):
    """At the host: one site's contribution applied to the system pool, once (unique site and reference),
    kept separately identifiable by casino (14.20(e)3)."""

    system = models.ForeignKey(BadBeatSystem, on_delete=models.PROTECT, related_name="pool_entries")
    site = models.ForeignKey(Site, on_delete=models.PROTECT, related_name="pool_entries")
    reference = models.CharField(max_length=64, help_text="The site's contribution id.")
    gaming_day = models.DateField()
    amount = MoneyField()
    to_reset = MoneyField(default=Decimal("0.00"),
                          help_text="The part set aside for the reset amount (14.19(p)).")
    applied_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-applied_at"]
        constraints = [models.UniqueConstraint(fields=["site", "reference"], name="pool_entry_once")]
        triggers = [pgtrigger.Protect(name="append_only", operation=pgtrigger.Update | pgtrigger.Delete)]

    def __str__(self) -> str:
        return f"${self.amount} from {self.site.code}"


class SystemClaimStatus(models.TextChoices):
    SENT = "sent", "Sent to the host"
    PENDING = "pending", "Payout pending"
    REFUSED = "refused", "Answered: not paid"
    PAID = "paid", "Paid"


@pghistory.track()
class SystemClaim(models.Model):
    """A claim on the system's payout (14.20(e)4-document, 14.20(e)4-two-claims with 14.19(i)). The host orders claims
    by arrival and decides them; every casino keeps a copy, from the host's notices. The document of the payout: date,
    time, amount, the winning and losing hands, the casino, who verified and who authorised it."""

    system = models.ForeignKey(BadBeatSystem, on_delete=models.PROTECT, related_name="claims")
    site = models.ForeignKey(Site, on_delete=models.PROTECT, related_name="claims", help_text="Where it was made.")
    reference = models.CharField(max_length=64, help_text="The site's own claim id.")
    arrival = models.PositiveBigIntegerField(null=True, blank=True, help_text="The host's order of receipt.")
    status = models.CharField(max_length=10, choices=SystemClaimStatus.choices, default=SystemClaimStatus.SENT)
    amount = MoneyField(null=True, blank=True, help_text="Frozen by the host (its share).")
    table_number = models.PositiveIntegerField()
    round_reference = models.CharField(max_length=64)
    losing_hand = models.CharField(max_length=40)
    losing_cards = models.CharField(max_length=20)
    winning_hand = models.CharField(max_length=40)
    winning_cards = models.CharField(max_length=20)
    verified_by = models.CharField(max_length=150)
    verified_at = models.DateTimeField()
    received_at = models.DateTimeField(null=True, blank=True, help_text="When the host received it.")
    decided_at = models.DateTimeField(null=True, blank=True)
    answer = models.CharField(max_length=300, blank=True)
    paid_at = models.DateTimeField(null=True, blank=True)
    payout_method = models.CharField(max_length=20, blank=True)
    payout_location = models.CharField(max_length=10, blank=True)
    delivered_by = models.CharField(max_length=150, blank=True)
    authorised_by = models.CharField(max_length=150, blank=True)

    class Meta:
        ordering = ["system", "-verified_at"]
        constraints = [models.UniqueConstraint(fields=["site", "reference"], name="system_claim_once")]

    def __str__(self) -> str:
        return f"Claim {self.reference} at {self.site.code} ({self.status})"


class NoticeKind(models.TextChoices):
    PENDING = "pending", "Payout pending"
    REFUSED = "refused", "Claim answered"
    PAID = "paid", "Payout confirmed"


class Notice(models.Model):
    """A notice of the host to every casino at once (14.20(e)4-notify): a payout pending, a claim answered, a
    payout confirmed. Each deployment keeps the notices it issued or received; displays show them."""

    system = models.ForeignKey(BadBeatSystem, on_delete=models.PROTECT, related_name="notices")
    claim = models.ForeignKey(SystemClaim, on_delete=models.PROTECT, related_name="notices")
    kind = models.CharField(max_length=10, choices=NoticeKind.choices)
    reference = models.CharField(max_length=64, help_text="The host's notice id.")
    text = models.CharField(max_length=500)
    issued_at = models.DateTimeField(help_text="When the host issued it.")
    received_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-issued_at", "-pk"]
        constraints = [models.UniqueConstraint(fields=["system", "reference"], name="notice_once")]

    def __str__(self) -> str:
        return self.text


@pghistory.track()
class UndeliveredNotice(models.Model):
    """At the host: a notice that could not reach a suspended casino, recorded for delivery by other means
    (telephone, courier) with who delivered it and when (14.20(e)4-notify)."""

    notice = models.ForeignKey(Notice, on_delete=models.PROTECT, related_name="undelivered")
    site = models.ForeignKey(Site, on_delete=models.PROTECT, related_name="undelivered_notices")
    recorded_at = models.DateTimeField(auto_now_add=True)
    delivered_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True,
                                     related_name="+")
    delivered_at = models.DateTimeField(null=True, blank=True)
    means = models.CharField(max_length=200, blank=True, help_text="How it was delivered (telephone, courier...).")

    class Meta:
        ordering = ["delivered_at", "-recorded_at"]
        constraints = [models.UniqueConstraint(fields=["notice", "site"], name="undelivered_once_per_site")]

    def __str__(self) -> str:
        return f"{self.notice} to {self.site.code}"


class PoolMovementKind(models.TextChoices):
    PAYOUT = "payout", "Payout"
    RESET_SEED = "reset_seed", "Reset amount seeded"


class PoolMovement(models.Model):
    """At the host: money leaving or entering the pool other than a contribution — a payout (once per claim) or
    the reset amount seeding the next payout (14.19(p)-reset). Append-only."""

    system = models.ForeignKey(BadBeatSystem, on_delete=models.PROTECT, related_name="movements")
    claim = models.ForeignKey(SystemClaim, on_delete=models.PROTECT, related_name="movements")
    kind = models.CharField(max_length=12, choices=PoolMovementKind.choices)
    amount = MoneyField(help_text="Positive dollars; a payout leaves the pool.")
    recorded_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-recorded_at"]
        constraints = [models.UniqueConstraint(fields=["claim", "kind"], name="pool_movement_once_per_claim")]
        triggers = [pgtrigger.Protect(name="append_only", operation=pgtrigger.Update | pgtrigger.Delete)]

    def __str__(self) -> str:
        return f"{self.get_kind_display()} ${self.amount}"


class RuleChangeStatus(models.TextChoices):
    PROPOSED = "proposed", "Notice posted, awaiting approvals or its time"
    IN_EFFECT = "in_effect", "In effect"
    WITHDRAWN = "withdrawn", "Withdrawn"


@pghistory.track()
class SystemRuleChange(models.Model):
    """A change to the system's one rule set (14.20(c)1 with 14.19(q)-notice): proposed at the host with a notice
    posted before it takes effect; it takes effect at its time only once every participating casino's designated key
    employee has approved it. Every casino keeps a copy from the host's messages."""

    system = models.ForeignKey(BadBeatSystem, on_delete=models.PROTECT, related_name="rule_changes")
    reference = models.CharField(max_length=64, unique=True)
    rules = models.JSONField(help_text="The whole rule set once the change is in effect.")
    two_claims_rule = models.CharField(max_length=16, choices=TwoClaimsRule.choices)
    rules_hash = models.CharField(max_length=64, help_text="The hash every casino will hold.")
    summary = models.TextField(help_text="The notice, as posted to patrons.")
    makes_qualifying_harder = models.BooleanField(default=False)
    effective_at = models.DateTimeField()
    proposed_by = models.CharField(max_length=150)
    proposed_at = models.DateTimeField()
    status = models.CharField(max_length=10, choices=RuleChangeStatus.choices, default=RuleChangeStatus.PROPOSED)
    applied_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-proposed_at"]

    def __str__(self) -> str:
        return self.summary


class RuleApproval(models.Model):
    """A participating casino's designated key employee approved a rule change (14.20(c)1)."""

    change = models.ForeignKey(SystemRuleChange, on_delete=models.PROTECT, related_name="approvals")
    site = models.ForeignKey(Site, on_delete=models.PROTECT, related_name="rule_approvals")
    approved_by = models.CharField(max_length=150)
    approved_at = models.DateTimeField()

    class Meta:
        ordering = ["approved_at"]
        constraints = [models.UniqueConstraint(fields=["change", "site"], name="one_approval_per_casino")]
        triggers = [pgtrigger.Protect(name="append_only", operation=pgtrigger.Update | pgtrigger.Delete)]

    def __str__(self) -> str:
        return f"{self.site.code} approved by {self.approved_by}"
