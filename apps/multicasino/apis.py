"""The inbox between deployments (14.20(e)2-complete, 14.20(e)3). Machine to machine: no session and no role, the
Standard Webhooks signature of a configured peer is the authentication; everything else is refused and logged."""
from drf_spectacular.utils import extend_schema
from rest_framework import status
from rest_framework.permissions import AllowAny
from rest_framework.response import Response
from rest_framework.views import APIView

from apps.core.middleware import request_id
from apps.core.policy import public
from apps.core.unavailable import BUSY_RETRY_AFTER

from .services.inbox import InboxOutcome, InboxResult, receive

#: The HTTP status of each outcome of the inbox; the JSON body is the result's own.
HTTP_STATUS = {
    InboxOutcome.ACCEPTED: status.HTTP_200_OK,
    InboxOutcome.GAP: status.HTTP_202_ACCEPTED,
    InboxOutcome.DUPLICATE: status.HTTP_409_CONFLICT,
    InboxOutcome.UNAUTHENTICATED: status.HTTP_401_UNAUTHORIZED,
    InboxOutcome.MALFORMED: status.HTTP_400_BAD_REQUEST,
    InboxOutcome.UNAVAILABLE: status.HTTP_503_SERVICE_UNAVAILABLE,
}


def http_answer(result: InboxResult) -> tuple[int, dict]:
    """(HTTP status, JSON body) of the inbox's result, as the sender receives it."""
    return HTTP_STATUS[result.outcome], result.body


@public("Machine to machine: a configured peer's Standard Webhooks signature is the authentication (14.20(e)2).")
class InboxApi(APIView):
    authentication_classes: list = []
    permission_classes = [AllowAny]  # authenticated by the message signature, in the service
    # Not throttled per address like the rest of the API: a peer's heartbeats and its backlog after an outage must
    # get through (a refused heartbeat would suspend the link, 14.20(e)4); the signature check refuses forgeries.
    throttle_classes: list = []

    @extend_schema(request=None, responses={200: None, 202: None, 400: None, 401: None, 409: None, 503: None})
    def post(self, request):
        code, answer = http_answer(receive(headers=dict(request.headers), raw=request.body))
        if code >= 500:  # the API's 5xx shape (apps.core.middleware), the sender's `error` kept
            answer = {"detail": answer.get("error", ""), **answer, "request_id": request_id(request)}
            return Response(answer, status=code, headers={"Retry-After": str(BUSY_RETRY_AFTER)})
        return Response(answer, status=code)
