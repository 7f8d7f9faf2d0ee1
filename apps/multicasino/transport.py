"""Sending a signed message to a peer's inbox over HTTPS (httpx). Tests and the fault harness swap it through
settings.MULTICASINO_TRANSPORT."""
import httpx


def http_post(url: str, text: str, headers: dict[str, str]) -> tuple[int, dict]:
    """POST `text` (JSON) to `url`; (status, JSON answer). Raises httpx.HTTPError when the peer is unreachable."""
    response = httpx.post(url, content=text.encode(), headers={**headers, "content-type": "application/json"},
                          timeout=5.0)
    try:
        answer = response.json()
    except ValueError:
        answer = {}
    return response.status_code, answer
