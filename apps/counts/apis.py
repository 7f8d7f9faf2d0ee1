"""Counts API: record a count or form, receive form parts, reconcile a gaming day. Thin over the services."""
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.response import Response
from rest_framework.views import APIView

from apps.casinos.models import User
from apps.core.exceptions import DomainError
from apps.core.idempotency import IdempotentPostMixin
from apps.core.permissions import RulesPermission
from apps.core.validation import COUNT_MAX, column_decimal, column_integer, record_id
from apps.tables.models import PokerTable

from . import services
from .models import (
    BadBeatCount,
    CorrectionKind,
    CountMethod,
    CountReason,
    FormPart,
    LateCorrection,
    Reconciliation,
    WitnessKind,
)


class CountsApi(IdempotentPostMixin, APIView):
    """POST: a count of a table's bad beat box or container, or a Bad Beat Payout Contribution Form (14.19(d)-(f)),
    signed by who counted and a witness of the casino's staff."""

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
    room or the duplicate from the locked accounting box (14.19(g), (h)); receiving a part twice changes nothing."""

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
    """POST: accounting reconciles a gaming day's forms (14.19(h))."""

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
    """POST: accounting corrects a closed gaming day's money, recorded in today's open gaming day (14.19(h))."""

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
