"""Rake API: the rake records of the user's casino."""
from django.shortcuts import get_object_or_404
from drf_spectacular.utils import extend_schema
from rest_framework import mixins, serializers, viewsets
from rest_framework.response import Response
from rest_framework.views import APIView

from apps.core.idempotency import IdempotentPostMixin
from apps.core.pagination import NewestFirstPagination
from apps.core.permissions import RulesPermission
from apps.core.validation import aware_datetime
from apps.tables.models import PokerTable

from .models import RakeRecord, RakeStructure, TimeCharge
from .services import collect_time_charge, post_rake_structure, verify_time_charge


class RakeRecordOutput(serializers.ModelSerializer):
    class Meta:
        model = RakeRecord
        fields = ["id", "round_of_play", "table", "gaming_day", "amount", "basis", "percentage", "maximum", "computed",
                  "explanation", "created_at"]


class RakeRecordViewSet(mixins.ListModelMixin, mixins.RetrieveModelMixin, viewsets.GenericViewSet):
    """The rake records of the user's casino (14.14), newest first in keyset pages: the room's revenue, read as on the revenue pages
    (not by dealers: 403; a dealer reads the rake of a round dealt on the round itself)."""

    serializer_class = RakeRecordOutput
    pagination_class = NewestFirstPagination  # keyset pages by id, newest first (rake_record_table_newest, the pk)
    permission_classes = [RulesPermission]
    required_perm = "rake.view_rakerecord"
    filterset_fields = ["table", "gaming_day", "round_of_play"]

    def get_queryset(self):
        return RakeRecord.objects.filter(table__casino_id=self.request.user.casino_id).order_by("-id")


class RakeLevelSerializer(serializers.Serializer):
    pot = serializers.DecimalField(max_digits=14, decimal_places=2, min_value=0)
    take = serializers.DecimalField(max_digits=14, decimal_places=2, min_value=0)


class RakeStructureSerializer(serializers.ModelSerializer):
    levels = RakeLevelSerializer(many=True, required=False)
    label = serializers.CharField(read_only=True)

    class Meta:
        model = RakeStructure
        fields = ["method", "percentage", "maximum", "minimum_pot", "increment", "levels", "label"]


class RakeStructureApi(APIView):
    """The rake posted at a table (N.J.A.C. 13:69F-14.14(b), (c)): everyone reads it, supervisors change it."""

    permission_classes = [RulesPermission]
    required_perm = "rake.view_rakestructure"
    perms_by_method = {"PUT": "rake.change_rakestructure"}

    def _table(self, request, table_id: int) -> PokerTable:
        table = get_object_or_404(PokerTable, pk=table_id, casino_id=request.user.casino_id)
        self.check_object_permissions(request, table)
        return table

    @extend_schema(responses={200: RakeStructureSerializer})
    def get(self, request, table_id: int):
        table = self._table(request, table_id)
        return Response(RakeStructureSerializer(get_object_or_404(RakeStructure, table=table)).data)

    @extend_schema(request=RakeStructureSerializer, responses={200: RakeStructureSerializer})
    def put(self, request, table_id: int):
        table = self._table(request, table_id)
        data = RakeStructureSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        values = dict(data.validated_data)
        values["levels"] = [{"pot": str(lv["pot"]), "take": str(lv["take"])} for lv in values.get("levels", [])]
        structure = post_rake_structure(table=table, **values)
        return Response(RakeStructureSerializer(structure).data)


class TimeChargeOutput(serializers.ModelSerializer):
    verified_by = serializers.SerializerMethodField()

    class Meta:
        model = TimeCharge
        fields = ["id", "table", "period_start", "interval_minutes", "players_seated", "amount", "gaming_day",
                  "collected_by", "collected_at", "explanation", "verified_by"]

    def get_verified_by(self, charge: TimeCharge) -> int | None:
        verification = getattr(charge, "verification", None)
        return verification.verified_by_id if verification else None


class TimeChargeInput(serializers.Serializer):
    period_start = aware_datetime(help_text="The start of the period collected, with its offset from UTC.")
    players_seated = serializers.IntegerField(min_value=0, max_value=11)


class TimeChargeApi(IdempotentPostMixin, APIView):
    """Time charges of a table (N.J.A.C. 13:69F-14.14(b)3): the dealer records a collection (POST, answered with the
    charge recorded), a floorperson verifies it at /api/time-charges/{id}/verify/. The list (GET) is rake, the room's
    revenue: read as rake records are (not by dealers: 403)."""

    permission_classes = [RulesPermission]
    required_perm = "rake.view_rakerecord"
    perms_by_method = {"POST": "rake.collect_time_charge"}

    @extend_schema(responses={200: TimeChargeOutput(many=True)})
    def get(self, request, table_id: int):
        table = get_object_or_404(PokerTable, pk=table_id, casino_id=request.user.casino_id)
        charges = TimeCharge.objects.filter(table=table).select_related("verification")[:200]
        return Response(TimeChargeOutput(charges, many=True).data)

    @extend_schema(request=TimeChargeInput, responses={201: TimeChargeOutput})
    def post(self, request, table_id: int):
        table = get_object_or_404(PokerTable, pk=table_id, casino_id=request.user.casino_id)
        self.check_object_permissions(request, table)
        data = TimeChargeInput(data=request.data)
        data.is_valid(raise_exception=True)
        charge = collect_time_charge(table=table, collected_by=request.user, **data.validated_data)
        return Response(TimeChargeOutput(charge).data, status=201)


class TimeChargeVerifyApi(IdempotentPostMixin, APIView):
    permission_classes = [RulesPermission]
    required_perm = "rake.verify_time_charge"

    @extend_schema(request=None, responses={200: TimeChargeOutput})
    def post(self, request, pk: int):
        charge = get_object_or_404(TimeCharge, pk=pk, table__casino_id=request.user.casino_id)
        self.check_object_permissions(request, charge)
        verify_time_charge(time_charge=charge, verified_by=request.user)
        charge.refresh_from_db()
        return Response(TimeChargeOutput(charge).data)
