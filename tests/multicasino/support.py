"""The inbox as its API view answers a sender: (HTTP status, JSON body) of `receive`'s typed result, by the view's
own mapping (apps.multicasino.apis.http_answer)."""
from apps.multicasino.apis import http_answer
from apps.multicasino.services import inbox


def receive(**kwargs) -> tuple[int, dict]:
    """`apps.multicasino.services.inbox.receive(**kwargs)` as (HTTP status, JSON body)."""
    return http_answer(inbox.receive(**kwargs))
