"""The inbox's typed result and its API view (N.J.A.C. 13:69F-14.20(e)2, 3): each outcome is answered with its
HTTP status and the result's JSON body, as a sending deployment expects them."""
import pytest

from apps.multicasino.apis import HTTP_STATUS, http_answer
from apps.multicasino.services.inbox import InboxOutcome, InboxResult, receive
from apps.multicasino.signing import body_hash, sign
from tests.multicasino.test_inbox import SITE_TO_HOST, host, message  # noqa: F401 - the fixture

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(("outcome", "status"), [
    (InboxOutcome.ACCEPTED, 200), (InboxOutcome.GAP, 202), (InboxOutcome.DUPLICATE, 409),
    (InboxOutcome.UNAUTHENTICATED, 401), (InboxOutcome.MALFORMED, 400)])
def test_each_outcome_has_its_http_status_and_keeps_its_body(outcome, status):
    assert http_answer(InboxResult(outcome, {"ack": "x"})) == (status, {"ack": "x"})


def test_every_outcome_has_a_status():
    assert set(HTTP_STATUS) == set(InboxOutcome)


def test_the_service_answers_with_a_typed_result(host):  # noqa: F811
    headers, raw = message(1)
    result = receive(headers=headers, raw=raw)
    assert result == InboxResult(InboxOutcome.ACCEPTED, {"ack": body_hash(raw)}) and result.reason is None
    again = receive(headers=headers, raw=raw)
    assert again.outcome == InboxOutcome.DUPLICATE and again.reason == "Repeated id"


def test_14_20_e_2_the_inbox_view_answers_each_outcome_with_its_status_and_body(host, client):  # noqa: F811
    def post(headers, raw):
        response = client.post("/api/multicasino/inbox/", data=raw, content_type="application/json",
                               headers=headers)
        return response.status_code, response.json()

    first = message(1)
    assert post(*first) == (200, {"ack": body_hash(first[1])})
    assert post(*first) == (409, {"error": "Repeated id", "ack": body_hash(first[1])})
    third = message(3)
    assert post(*third) == (202, {"ack": body_hash(third[1]), "resend_from": 2})
    assert post(*message(2, mid="msg_other", ref="x"))[0] == 200  # the gap filled: 2 and 3 applied
    assert post(*message(3, mid="msg_again")) == (409, {"error": "Sequence 3 already received"})
    assert post(*message(4, sender="nobody")) == (401, {"error": "Unknown sender"})
    status, answer = post(*message(4, secrets=("whsec_" + "Zm9yZ2VkLXNlY3JldC0wMDAwMDAwMDAwMDA=",)))
    assert status == 401 and answer["error"].startswith("Signature")
    text = "not json"
    headers = {**sign(message_id="msg_bad", text=text, secrets=[SITE_TO_HOST]),
               "x-pokerroom-system": "nj-bad-beat", "x-pokerroom-site": "borgata"}
    status, answer = post(headers, text.encode())
    assert status == 400 and answer["error"].startswith("Malformed body")
