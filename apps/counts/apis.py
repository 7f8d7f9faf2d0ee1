"""Counts API: record a count or form, combine counts in a container and verify its aggregate count at the cage,
receive form parts, reconcile a gaming day. Thin over the services."""
from django.shortcuts import get_object_or_404
from drf_spectacular.utils import extend_schema
from rest_framework import generics, serializers, status
from rest_framework.response import Response
from rest_framework.views import APIView

from apps.casinos.models import User
from apps.core.exceptions import DomainError
from apps.core.idempotency import IdempotentPostMixin
from apps.core.money import ZERO
from apps.core.pagination import NewestFirstPagination
from apps.core.permissions import RulesPermission
from apps.core.validation import COUNT_MAX, aware_datetime, column_decimal, column_integer, record_id
from apps.tables.models import PokerTable

from . import services
from .models import (
    AggregateCountVerification,
    BadBeatCount,
    CombinedContainer,
    CombinedCount,
    CorrectionKind,
    CountMethod,
    CountReason,
    FormPart,
    LateCorrection,
    Reconciliation,
    WitnessKind,
)
from .selectors import container_of, containers_for_casino


class CountsApi(IdempotentPostMixin, APIView):
    """POST: a count of a table's bad beat box or container, or a Bad Beat Payout Contribution Form (14.19(d)-place,
    14.19(e)-cashier-counts, 14.19(f)), signed by who counted and a witness of the casino's staff."""

    class Input(serializers.Serializer):
        table = column_integer(PokerTable, "number", min_value=1, help_text="Table number.")
        method = serializers.ChoiceField(choices=CountMethod.choices)
        reason = serializers.ChoiceField(choices=CountReason.choices, default=CountReason.DAILY)
        counted_by = record_id()
        witness = record_id()
        witness_kind = serializers.ChoiceField(choices=WitnessKind.choices)
        surveillance_recorded = serializers.BooleanField(default=False)
        amount = column_decimal(BadBeatCount, "amount", min_value=0, required=False)
        chips = serializers.DictField(
            child=serializers.IntegerField(min_value=0, max_value=COUNT_MAX), required=False,
            help_text="Chip denomination in dollars (e.g. \"0.25\", \"5\") -> number of chips.")

        def validate_chips(self, chips: dict) -> dict:
            try:
                services.chips_value(chips)
            except DomainError as exc:
                raise serializers.ValidationError(exc.message) from exc
            return chips

    class Output(serializers.ModelSerializer):
        table = serializers.IntegerField(source="table.number")

        class Meta:
            model = BadBeatCount
            fields = ["id", "serial_number", "table", "gaming_day", "counted_at", "method", "reason", "chips",
                      "amount", "expected", "variance", "counted_by", "witness", "witness_kind",
                      "surveillance_recorded"]

    permission_classes = [RulesPermission]
    required_perm = "counts.record_count"

    @extend_schema(request=Input, responses={201: Output})
    def post(self, request):
        data = self.Input(data=request.data)
        data.is_valid(raise_exception=True)
        v = data.validated_data
        casino = request.user.casino
        table = PokerTable.objects.filter(casino=casino, number=v["table"]).first()
        people = {name: User.objects.filter(pk=v[name], casino=casino).first() for name in ("counted_by", "witness")}
        errors = {name: ["No such member of staff at this casino."] for name, user in people.items() if user is None}
        if table is None:
            errors["table"] = ["No such table at this casino."]
        if errors:
            raise serializers.ValidationError(errors)
        count = services.record_count(table=table, method=v["method"], reason=v["reason"], witness_kind=v["witness_kind"],
                                      surveillance_recorded=v["surveillance_recorded"], amount=v.get("amount"),
                                      chips=v.get("chips"), recorded_by=request.user, **people)
        return Response(self.Output(count).data, status=status.HTTP_201_CREATED)


class FormReceiptApi(IdempotentPostMixin, APIView):
    """POST: accounting receives a part of a serial Bad Beat Payout Contribution Form: the original from the count
    room or the duplicate from the locked accounting box (14.19(g), 14.19(h)-reconcile); receiving a part twice
    changes nothing."""

    class Input(serializers.Serializer):
        serial_number = serializers.IntegerField()
        part = serializers.ChoiceField(choices=FormPart.choices)

    class Output(serializers.Serializer):
        serial_number = serializers.IntegerField(source="form.serial_number")
        part = serializers.ChoiceField(choices=FormPart.choices)

    permission_classes = [RulesPermission]
    required_perm = "counts.reconcile"

    @extend_schema(request=Input, responses={201: Output})
    def post(self, request):
        data = self.Input(data=request.data)
        data.is_valid(raise_exception=True)
        receipt = services.receive_form_part(casino=request.user.casino, received_by=request.user,
                                             **data.validated_data)
        return Response(self.Output(receipt).data, status=status.HTTP_201_CREATED)


class ReconciliationApi(IdempotentPostMixin, APIView):
    """POST: accounting reconciles a gaming day's forms (14.19(h)-reconcile)."""

    class Input(serializers.Serializer):
        gaming_day = serializers.DateField()

    class Output(serializers.ModelSerializer):
        class Meta:
            model = Reconciliation
            fields = ["gaming_day", "status", "forms", "originals", "duplicates", "missing_originals",
                      "missing_duplicates", "not_received", "count_variances", "revenue_adjustment", "reconciled_at"]

    permission_classes = [RulesPermission]
    required_perm = "counts.reconcile"

    @extend_schema(request=Input, responses={200: Output})
    def post(self, request):
        data = self.Input(data=request.data)
        data.is_valid(raise_exception=True)
        rec = services.reconcile_gaming_day(casino=request.user.casino, reconciled_by=request.user,
                                            gaming_day=data.validated_data["gaming_day"])
        return Response(self.Output(rec).data)


class LateCorrectionApi(IdempotentPostMixin, APIView):
    """POST: accounting corrects a closed gaming day's money, recorded in today's open gaming day
    (14.19(k)-official-record)."""

    class Input(serializers.Serializer):
        corrects_gaming_day = serializers.DateField(help_text="The closed gaming day to correct.")
        kind = serializers.ChoiceField(choices=CorrectionKind.choices)
        amount = column_decimal(LateCorrection, "amount", help_text="Signed, in dollars and cents.")
        reason = serializers.CharField(max_length=300)
        table = serializers.IntegerField(required=False, allow_null=True, default=None, help_text="Table number.")

    class Output(serializers.ModelSerializer):
        table = serializers.IntegerField(source="table.number", allow_null=True, default=None)

        class Meta:
            model = LateCorrection
            fields = ["id", "gaming_day", "corrects_gaming_day", "table", "kind", "amount", "reason", "made_by",
                      "created_at"]

    permission_classes = [RulesPermission]
    required_perm = "counts.reconcile"

    @extend_schema(request=Input, responses={201: Output})
    def post(self, request):
        data = self.Input(data=request.data)
        data.is_valid(raise_exception=True)
        values = dict(data.validated_data)
        table = None
        if values.pop("table") is not None:
            table = PokerTable.objects.filter(casino=request.user.casino, number=data.validated_data["table"]).first()
            if table is None:
                raise serializers.ValidationError({"table": ["No such table at this casino."]})
        correction = services.record_late_correction(casino=request.user.casino, made_by=request.user, table=table,
                                                     **values)
        return Response(self.Output(correction).data, status=status.HTTP_201_CREATED)


# --- containers of combined counts and the cage's verification (requirement 14.19(e)-aggregate) ---------------------

class CombinedCountOutput(serializers.ModelSerializer):
    """A count of a box at a closed table whose contents went into the container security carried to the cage."""

    id = serializers.IntegerField(source="count.id")
    table = serializers.IntegerField(source="count.table.number", help_text="Table number.")
    counted_at = serializers.DateTimeField(source="count.counted_at")
    amount = column_decimal(BadBeatCount, "amount", source="count.amount", read_only=True)

    class Meta:
        model = CombinedCount
        fields = ["id", "table", "counted_at", "amount"]


class AggregateCountVerificationOutput(serializers.ModelSerializer):
    """The cashier's verification of the container's aggregate count at the cage: the amount counted and the variance
    (amount less the aggregate), Decimal dollars."""

    class Meta:
        model = AggregateCountVerification
        fields = ["id", "amount", "variance", "verified_by", "verified_at", "gaming_day"]


class CombinedContainerOutput(serializers.ModelSerializer):
    """A locked container of the contents of boxes counted at closed tables: its aggregate (the
    sum of its counts, Decimal dollars), its counts, and the cashier's verification at the cage (null until
    verified)."""

    counts = CombinedCountOutput(source="entries", many=True, read_only=True)
    verification = AggregateCountVerificationOutput(read_only=True, allow_null=True)

    class Meta:
        model = CombinedContainer
        fields = ["id", "gaming_day", "sealed_at", "combined_by", "transported_by", "aggregate", "counts",
                  "verification", "created_at"]


class ContainersNewestFirst(NewestFirstPagination):
    """Containers by when they were sealed, newest first (index container_newest_first)."""

    ordering = ("-sealed_at", "-id")


class CountContainersApi(IdempotentPostMixin, generics.ListAPIView):
    """GET the casino's containers of combined counts, newest first in keyset pages; POST: a poker shift supervisor
    records the contents of boxes counted at closed tables combined in one locked container, carried to the cage by a
    representative of security (requirement 14.19(e)-aggregate; combine_counts). A count already in a container:
    409."""

    class Input(serializers.Serializer):
        counts = serializers.ListField(child=record_id(), min_length=1, max_length=services.MAX_COUNTS_PER_CONTAINER,
                                       help_text="Ids of the counts made at closed tables whose contents it holds.")
        transported_by = record_id(help_text="The representative of security who carries it to the cage.")
        sealed_at = aware_datetime(required=False, help_text="When it was sealed, with its offset from UTC; now if "
                                                             "left out.")

    Output = CombinedContainerOutput
    serializer_class = Output
    pagination_class = ContainersNewestFirst
    filter_backends: list = []
    permission_classes = [RulesPermission]
    required_perm = "counts.view_counts"
    perms_by_method = {"POST": "counts.combine_counts"}

    def get_queryset(self):
        return containers_for_casino(casino=self.request.user.casino)

    @extend_schema(request=Input, responses={201: Output})
    def post(self, request):
        data = self.Input(data=request.data)
        data.is_valid(raise_exception=True)
        v = data.validated_data
        casino = request.user.casino
        transporter = User.objects.filter(pk=v["transported_by"], casino=casino).first()
        if transporter is None:
            raise serializers.ValidationError({"transported_by": ["No such member of staff at this casino."]})
        container = services.combine_counts(casino=casino, count_ids=v["counts"], combined_by=request.user,
                                            transported_by=transporter, sealed_at=v.get("sealed_at"))
        return Response(self.Output(container_of(casino=casino, pk=container.pk)).data,
                        status=status.HTTP_201_CREATED)


class CountContainerVerifyApi(IdempotentPostMixin, APIView):
    """POST /api/counts/containers/{id}/verify/: accounting (the cage cashier) records the amount counted at the cage
    of a container and so verifies its aggregate count (requirement 14.19(e)-aggregate). An amount that differs from
    the aggregate is a 400 naming `variance_confirmed` unless `variance_confirmed` is that variance (amount less
    aggregate); a container verified already: 409."""

    class Input(serializers.Serializer):
        amount = column_decimal(AggregateCountVerification, "amount", min_value=0,
                                help_text="Counted at the cage, in dollars and cents.")
        variance_confirmed = column_decimal(
            AggregateCountVerification, "variance", required=False, default=None, allow_null=True,
            help_text="The variance (amount less the aggregate) confirmed after counting again; leave out when the "
                      "count agrees with the aggregate.")

    Output = CombinedContainerOutput
    permission_classes = [RulesPermission]
    required_perm = "counts.verify_aggregate_count"

    @extend_schema(request=Input, responses={201: Output})
    def post(self, request, pk: int):
        casino = request.user.casino
        container = get_object_or_404(CombinedContainer, pk=pk, casino=casino)
        self.check_object_permissions(request, container)
        data = self.Input(data=request.data)
        data.is_valid(raise_exception=True)
        confirmed = data.validated_data["variance_confirmed"]
        services.verify_aggregate_count(container=container, amount=data.validated_data["amount"],
                                        verified_by=request.user,
                                        variance_confirmed=ZERO if confirmed is None else confirmed)
        return Response(self.Output(container_of(casino=casino, pk=container.pk)).data,
                        status=status.HTTP_201_CREATED)
