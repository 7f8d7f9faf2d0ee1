"""Jackpot API: the user's casino jackpot, its posted rules and its balance."""
from django.http import Http404
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.response import Response
from rest_framework.views import APIView

from apps.core.permissions import RulesPermission

from .models import Jackpot
from .selectors import contributions_total, jackpot_of


class JackpotOutput(serializers.ModelSerializer):
    contributions_total = serializers.SerializerMethodField()

    class Meta:
        model = Jackpot
        fields = ["id", "name", "balance", "contributions_total", "is_collecting", "minimum_pot",
                  "contribution_amount", "contribution_percentage", "maximum_contribution", "qualifying_hand",
                  "updated_at"]

    def get_contributions_total(self, jackpot: Jackpot) -> str:
        return f"{contributions_total(jackpot=jackpot):.2f}"


class JackpotApi(APIView):
    permission_classes = [RulesPermission]
    required_perm = "badbeat.view_jackpot"

    @extend_schema(responses={200: JackpotOutput})
    def get(self, request):
        jackpot = jackpot_of(casino=request.user.casino) if request.user.casino_id else None
        if jackpot is None:
            raise Http404("No bad-beat jackpot is offered.")
        self.check_object_permissions(request, jackpot)
        return Response(JackpotOutput(jackpot).data)
