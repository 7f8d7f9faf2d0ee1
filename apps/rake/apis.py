"""Rake API: the rake records of the user's casino, the rake posted at a table, and time charges."""
from django.shortcuts import get_object_or_404
from drf_spectacular.utils import extend_schema
from rest_framework import generics, serializers
from rest_framework.response import Response
from rest_framework.views import APIView

from apps.core.idempotency import IdempotentPostMixin
from apps.core.pagination import NewestFirstPagination
from apps.core.permissions import RulesPermission
from apps.core.validation import aware_datetime, money_decimal
from apps.tables.models import PokerTable

from .models import RakeRecord, RakeStructure, TimeCharge
from .services import collect_time_charge, post_rake_structure, verify_time_charge


class RakeRecordOutput(serializers.ModelSerializer):
    """The rake taken from one round of play (14.14), as the list and the record's own URL show it."""

    class Meta:
        model = RakeRecord
        fields = ["id", "round_of_play", "table", "gaming_day", "amount", "basis", "percentage", "maximum", "computed",
                  "explanation", "created_at"]


class RakeRecordsApi(generics.ListAPIView):
    """The rake records of the user's casino (14.14), newest first in keyset pages, filtered by `table`,
    `gaming_day` and `round_of_play`: the room's revenue, read as on the revenue pages (not by dealers: 403; a dealer
    reads the rake of a round dealt on the round itself)."""

    Output = RakeRecordOutput
    serializer_class = Output
    pagination_class = NewestFirstPagination  # keyset pages by id, newest first (rake_record_table_newest, the pk)
    filterset_fields = ["table", "gaming_day", "round_of_play"]
    permission_classes = [RulesPermission]
    required_perm = "rake.view_rakerecord"

    def get_queryset(self):
        return RakeRecord.objects.filter(table__casino_id=self.request.user.casino_id).order_by("-id")


class RakeRecordApi(APIView):
    """One rake record of the user's casino (14.14), read as the list is (not by dealers: 403)."""

    Output = RakeRecordOutput
    permission_classes = [RulesPermission]
    required_perm = "rake.view_rakerecord"

    @extend_schema(responses={200: Output})
    def get(self, request, pk: int):
        record = get_object_or_404(RakeRecord, pk=pk, table__casino_id=request.user.casino_id)
        self.check_object_permissions(request, record)
        return Response(self.Output(record).data)


class RakeLevelInput(serializers.Serializer):
    pot = money_decimal(min_value=0)
    take = money_decimal(min_value=0)


class RakeLevelOutput(serializers.Serializer):
    pot = money_decimal()
    take = money_decimal()


class RakeStructureApi(APIView):
    """The rake posted at a table (N.J.A.C. 13:69F-14.14(b); its sign, services.post_rake_structure): everyone reads it
    (GET), supervisors change it (PUT, the whole structure: a field left out takes its default). `no_flop_no_drop` (true
    or false, false when left out): no rake from a hold 'em or Omaha round that ends before the flop, posted on the sign
    (`label`); refused (400) at a table that deals no such game."""

    class Input(serializers.ModelSerializer):
        levels = RakeLevelInput(many=True, required=False)

        class Meta:
            model = RakeStructure
            fields = ["method", "percentage", "maximum", "minimum_pot", "increment", "levels", "no_flop_no_drop"]

    class Output(serializers.ModelSerializer):
        levels = RakeLevelOutput(many=True, read_only=True)
        label = serializers.CharField(read_only=True)  # type: ignore[assignment]  # a field named label (not Field.label)

        class Meta:
            model = RakeStructure
            fields = ["method", "percentage", "maximum", "minimum_pot", "increment", "levels", "no_flop_no_drop",
                      "label"]

    permission_classes = [RulesPermission]
    required_perm = "rake.view_rakestructure"
    perms_by_method = {"PUT": "rake.change_rakestructure"}

    def _table(self, request, table_id: int) -> PokerTable:
        table = get_object_or_404(PokerTable, pk=table_id, casino_id=request.user.casino_id)
        self.check_object_permissions(request, table)
        return table

    @extend_schema(responses={200: Output})
    def get(self, request, table_id: int):
        table = self._table(request, table_id)
        return Response(self.Output(get_object_or_404(RakeStructure, table=table)).data)

    @extend_schema(request=Input, responses={200: Output})
    def put(self, request, table_id: int):
        table = self._table(request, table_id)
        data = self.Input(data=request.data)
        data.is_valid(raise_exception=True)
        values = dict(data.validated_data)
        values["levels"] = [{"pot": str(lv["pot"]), "take": str(lv["take"])} for lv in values.get("levels", [])]
        structure = post_rake_structure(table=table, **values)
        return Response(self.Output(structure).data)


class TimeChargeOutput(serializers.ModelSerializer):
    """A time charge collected at a table (services.collect_time_charge), as its list and its verification answer
    it."""

    verified_by = serializers.SerializerMethodField()

    class Meta:
        model = TimeCharge
        fields = ["id", "table", "period_start", "interval_minutes", "players_seated", "amount", "gaming_day",
                  "collected_by", "collected_at", "explanation", "verified_by"]

    def get_verified_by(self, charge: TimeCharge) -> int | None:
        verification = getattr(charge, "verification", None)
        return verification.verified_by_id if verification else None


class TimeChargeApi(IdempotentPostMixin, generics.ListAPIView):
    """Time charges of a table, a rake of N.J.A.C. 13:69F-14.14 (services.collect_time_charge): the dealer
    records a collection (POST, answered with the charge recorded), a floorperson verifies it at
    /api/time-charges/{id}/verify/ (TimeChargeVerifyApi). The list (GET, the newest 200) is rake, the room's revenue: read as
    rake records are (not by dealers: 403)."""

    class Input(serializers.Serializer):
        period_start = aware_datetime(help_text="The start of the period collected, with its offset from UTC.")
        players_seated = serializers.IntegerField(min_value=0, max_value=11)

    Output = TimeChargeOutput
    serializer_class = Output
    pagination_class = None  # a table's charges of the last 200 periods
    filter_backends: list = []
    permission_classes = [RulesPermission]
    required_perm = "rake.view_rakerecord"
    perms_by_method = {"POST": "rake.collect_time_charge"}

    def get_queryset(self):
        table = get_object_or_404(PokerTable, pk=self.kwargs["table_id"], casino_id=self.request.user.casino_id)
        return TimeCharge.objects.filter(table=table).select_related("verification")[:200]

    @extend_schema(request=Input, responses={201: Output})
    def post(self, request, table_id: int):
        table = get_object_or_404(PokerTable, pk=table_id, casino_id=request.user.casino_id)
        self.check_object_permissions(request, table)
        data = self.Input(data=request.data)
        data.is_valid(raise_exception=True)
        charge = collect_time_charge(table=table, collected_by=request.user, **data.validated_data)
        return Response(self.Output(charge).data, status=201)


class TimeChargeVerifyApi(IdempotentPostMixin, APIView):
    """A floorperson verifies a time charge collected at a table of the casino (14.14(b)3-verified)."""

    Output = TimeChargeOutput
    permission_classes = [RulesPermission]
    required_perm = "rake.verify_time_charge"

    @extend_schema(request=None, responses={200: Output})
    def post(self, request, pk: int):
        charge = get_object_or_404(TimeCharge, pk=pk, table__casino_id=request.user.casino_id)
        self.check_object_permissions(request, charge)
        verify_time_charge(time_charge=charge, verified_by=request.user)
        charge.refresh_from_db()
        return Response(self.Output(charge).data)
