"""The inbox between deployments (14.20(e)2, 3). Machine to machine: no session and no role, the Standard
Webhooks signature of a configured peer is the authentication; everything else is refused and logged."""
from drf_spectacular.utils import extend_schema
from rest_framework.permissions import AllowAny
from rest_framework.response import Response
from rest_framework.views import APIView

from .services import receive


class InboxApi(APIView):
    authentication_classes: list = []
    permission_classes = [AllowAny]  # authenticated by the message signature, in the service

    @extend_schema(request=None, responses={200: None, 202: None, 400: None, 401: None, 409: None})
    def post(self, request):
        status, answer = receive(headers=dict(request.headers), raw=request.body)
        return Response(answer, status=status)
