"""Bad beat API: jackpots and their posted rules, claims (open, verify, reject, pay), display adjustments and
rule-change notices. Thin: the services decide; a DomainError becomes a 400 naming the field."""
from django.http import Http404
from django.shortcuts import get_object_or_404
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import generics, serializers, status
from rest_framework.response import Response
from rest_framework.views import APIView

from apps.casinos.models import User
from apps.core.idempotency import IdempotentPostMixin
from apps.core.pagination import NewestFirstPagination
from apps.core.permissions import RulesPermission
from apps.core.validation import column_decimal
from apps.rounds.models import RoundOfPlay

from . import services
from .models import (
    RULE_FIELDS,
    Claim,
    ClaimShare,
    DisplayAdjustment,
    DisplayReason,
    Jackpot,
    PayoutLocation,
    PayoutMethod,
    RuleChange,
)
from .selectors import claims_for_casino, contributions_total, jackpot_of, live_jackpots, payable_amount

#: Accounting's record of a payout (14.19(k), (p)), null for a role without `badbeat.view_balance` (dealers).
BALANCE_FIELDS = ("balance", "payable_amount", "reset_reserve", "contributions_total")
BALANCE_HELP = "Accounting's record (14.19(k), (p)); null for a role that may not read it (dealers)."


class JackpotOutput(serializers.ModelSerializer):
    """A bad beat payout: its posted rules (14.19(b)-rules-posted) and displayed amount (14.19(b)-current-amount),
    which every role reads as patrons do, and accounting's record (BALANCE_FIELDS), null for a role without
    `badbeat.view_balance` (dealers), as on the pages. Reads the user from the context's `request`; without one, the
    record is null."""

    balance = column_decimal(Jackpot, "balance", read_only=True, allow_null=True, help_text=BALANCE_HELP)
    reset_reserve = column_decimal(Jackpot, "reset_reserve", read_only=True, allow_null=True, help_text=BALANCE_HELP)
    contributions_total = serializers.SerializerMethodField(help_text=BALANCE_HELP)
    payable_amount = serializers.SerializerMethodField(help_text=BALANCE_HELP)
    qualifying = serializers.CharField(source="qualifying_label")
    shares = serializers.CharField(source="shares_label")

    class Meta:
        model = Jackpot
        fields = ["id", "name", "kind", "primary", "funding", "status", "balance", "payable_amount",
                  "displayed_amount", "reset_reserve", "contributions_total", "is_collecting", "qualifying", "shares",
                  *RULE_FIELDS, "rules_effective_at", "updated_at"]

    def _reads_balance(self, jackpot: Jackpot) -> bool:
        request = self.context.get("request")
        return request is not None and request.user.has_perm("badbeat.view_balance", jackpot)

    def to_representation(self, jackpot: Jackpot) -> dict:
        data = super().to_representation(jackpot)
        return data if self._reads_balance(jackpot) else data | dict.fromkeys(BALANCE_FIELDS)

    def get_contributions_total(self, jackpot: Jackpot) -> str | None:
        return f"{contributions_total(jackpot=jackpot):.2f}" if self._reads_balance(jackpot) else None

    def get_payable_amount(self, jackpot: Jackpot) -> str | None:
        return f"{payable_amount(jackpot=jackpot):.2f}" if self._reads_balance(jackpot) else None


class JackpotApi(APIView):
    """The casino's primary jackpot; to a dealer without accounting's record (JackpotOutput)."""

    Output = JackpotOutput
    permission_classes = [RulesPermission]
    required_perm = "badbeat.view_jackpot"

    @extend_schema(responses={200: Output})
    def get(self, request):
        jackpot = jackpot_of(casino=request.user.casino) if request.user.casino_id else None
        if jackpot is None:
            raise Http404("No bad-beat jackpot is offered.")
        self.check_object_permissions(request, jackpot)
        return Response(self.Output(jackpot, context={"request": request}).data)


class JackpotsApi(generics.ListAPIView):
    """Every bad beat payout the casino offers, with its posted rules (14.19(b)-rules-posted); to a dealer without
    accounting's record (JackpotOutput). A short list, not paged."""

    Output = JackpotOutput
    serializer_class = Output
    pagination_class = None
    filter_backends: list = []
    permission_classes = [RulesPermission]
    required_perm = "badbeat.view_jackpot"

    def get_queryset(self):
        return live_jackpots(casino=self.request.user.casino).select_related("primary")


class ShareOutput(serializers.ModelSerializer):
    class Meta:
        model = ClaimShare
        fields = ["seat", "player", "role", "amount"]


class ClaimOutput(serializers.ModelSerializer):
    """A bad beat claim (14.19(i)) with its shares, as the list and every action on a claim answer it."""

    shares = ShareOutput(many=True, read_only=True)
    table = serializers.IntegerField(source="round_of_play.table.number")

    class Meta:
        model = Claim
        fields = ["id", "jackpot", "round_of_play", "table", "seat", "losing_hand", "losing_cards", "winning_hand",
                  "winning_cards", "status", "opened_at", "opened_by", "decided_by", "decided_at", "decision_note",
                  "payout_amount", "evaluation", "shares"]


class ClaimsApi(IdempotentPostMixin, generics.ListAPIView):
    """GET the casino's claims, newest first in keyset pages; POST opens one on a recorded round (supervisor,
    14.19(i))."""

    class Input(serializers.Serializer):
        jackpot = serializers.IntegerField()
        round_of_play = serializers.IntegerField()

    Output = ClaimOutput
    serializer_class = Output
    pagination_class = NewestFirstPagination
    filter_backends: list = []
    permission_classes = [RulesPermission]
    required_perm = "badbeat.view_claim"
    perms_by_method = {"POST": "badbeat.verify_claim"}

    def get_queryset(self):
        return claims_for_casino(casino=self.request.user.casino).prefetch_related("shares")

    @extend_schema(request=Input, responses={201: Output})
    def post(self, request):
        data = self.Input(data=request.data)
        data.is_valid(raise_exception=True)
        casino = request.user.casino
        jackpot = Jackpot.objects.filter(pk=data.validated_data["jackpot"], casino=casino).first()
        round_of_play = RoundOfPlay.objects.filter(pk=data.validated_data["round_of_play"],
                                                   table__casino=casino).select_related("table").first()
        if jackpot is None:
            raise serializers.ValidationError({"jackpot": ["No such bad beat payout at this casino."]})
        if round_of_play is None:
            raise serializers.ValidationError({"round_of_play": ["No such round of play at this casino."]})
        claim = services.open_claim(jackpot=jackpot, round_of_play=round_of_play, opened_by=request.user)
        return Response(self.Output(claim).data, status=status.HTTP_201_CREATED)


def _claim(view: APIView, request, pk: int) -> Claim:
    """The claim `pk` of the user's casino (404 otherwise), the view's permission checked on its payout (403)."""
    claim = get_object_or_404(Claim.objects.select_related("jackpot"), pk=pk, jackpot__casino=request.user.casino)
    view.check_object_permissions(request, claim.jackpot)
    return claim


class ClaimVerifyApi(IdempotentPostMixin, APIView):
    """POST /api/claims/{id}/verify/: a poker shift supervisor verifies a pending claim (14.19(i)), which freezes
    its payout and shares. A claim decided already answers 400 naming `status`."""

    Output = ClaimOutput
    permission_classes = [RulesPermission]
    required_perm = "badbeat.verify_claim"

    @extend_schema(request=None, responses={200: Output})
    def post(self, request, pk: int):
        claim = services.verify_claim(claim=_claim(self, request, pk), supervisor=request.user)
        return Response(self.Output(claim).data)


class ClaimRejectApi(IdempotentPostMixin, APIView):
    """POST /api/claims/{id}/reject/: a poker shift supervisor rejects a pending claim (14.19(i)), with a note."""

    class Input(serializers.Serializer):
        note = serializers.CharField(required=False, allow_blank=True, max_length=300)

    Output = ClaimOutput
    permission_classes = [RulesPermission]
    required_perm = "badbeat.verify_claim"

    @extend_schema(request=Input, responses={200: Output})
    def post(self, request, pk: int):
        claim = _claim(self, request, pk)
        data = self.Input(data=request.data)
        data.is_valid(raise_exception=True)
        claim = services.reject_claim(claim=claim, supervisor=request.user, note=data.validated_data.get("note", ""))
        return Response(self.Output(claim).data)


class ClaimPayoutApi(IdempotentPostMixin, APIView):
    """POST /api/claims/{id}/payout/: security or accounting records the payout of a verified claim (14.19(i)2,
    (j)): how, where, and by which member of the casino's staff it was delivered."""

    class Input(serializers.Serializer):
        method = serializers.ChoiceField(choices=PayoutMethod.choices)
        location = serializers.ChoiceField(choices=PayoutLocation.choices)
        delivered_by = serializers.IntegerField()

    Output = ClaimOutput
    permission_classes = [RulesPermission]
    required_perm = "badbeat.record_payout"

    @extend_schema(request=Input, responses={200: Output})
    def post(self, request, pk: int):
        claim = _claim(self, request, pk)
        data = self.Input(data=request.data)
        data.is_valid(raise_exception=True)
        v = data.validated_data
        person = User.objects.filter(pk=v["delivered_by"], casino=request.user.casino).first()
        if person is None:
            raise serializers.ValidationError({"delivered_by": ["No such member of staff at this casino."]})
        services.record_payout(claim=claim, method=v["method"], location=v["location"], delivered_by=person,
                               recorded_by=request.user)
        claim.refresh_from_db()
        return Response(self.Output(claim).data)


class DisplayAdjustmentApi(IdempotentPostMixin, APIView):
    """POST: accounting adjusts a display in a supervisor's presence (14.19(k)1); refused if it differs from
    the record or goes down without a payout (14.19(o))."""

    class Input(serializers.Serializer):
        displayed_amount = column_decimal(DisplayAdjustment, "displayed_amount")
        supervisor_present = serializers.IntegerField()
        reason = serializers.ChoiceField(choices=DisplayReason.choices, default=DisplayReason.DAILY)

    Output = JackpotOutput
    permission_classes = [RulesPermission]
    required_perm = "badbeat.adjust_display"

    @extend_schema(request=Input, responses={201: Output})
    def post(self, request, pk: int):
        jackpot = get_object_or_404(Jackpot, pk=pk, casino=request.user.casino)
        data = self.Input(data=request.data)
        data.is_valid(raise_exception=True)
        supervisor = User.objects.filter(pk=data.validated_data["supervisor_present"],
                                         casino=request.user.casino).first()
        if supervisor is None:
            raise serializers.ValidationError({"supervisor_present": ["No such member of staff at this casino."]})
        services.adjust_display(jackpot=jackpot, displayed_amount=data.validated_data["displayed_amount"],
                                adjusted_by=request.user, supervisor_present=supervisor,
                                reason=data.validated_data["reason"])
        jackpot.refresh_from_db()
        return Response(self.Output(jackpot, context={"request": request}).data, status=status.HTTP_201_CREATED)


class RuleChangeOutput(serializers.ModelSerializer):
    """A notice of change to a payout's posted rules (14.19(q)-notice), as its proposal and its withdrawal answer
    it."""

    class Meta:
        model = RuleChange
        fields = ["id", "jackpot", "summary", "changes", "effective_at", "makes_qualifying_harder", "status",
                  "notice_posted_at", "applied_at", "failure_reason", "failed_at", "withdrawn_by", "withdrawn_at"]


RULE_CHANGE_ERRORS = {
    400: OpenApiResponse(description="A broken rule: {field: [message]} naming the field at fault; nothing written."),
    403: OpenApiResponse(description="Not a poker shift supervisor or an administrator of the casino."),
    404: OpenApiResponse(description="No such payout or rule change at this casino."),
}


class RuleChangeApi(IdempotentPostMixin, APIView):
    """POST a notice of change to a payout's posted rules (14.19(q)-notice); validated in full before anything is
    written, so a notice accepted can take effect."""

    class Input(serializers.Serializer):
        changes = serializers.DictField()
        effective_at = serializers.DateTimeField()
        summary = serializers.CharField(required=False, allow_blank=True)

    Output = RuleChangeOutput
    permission_classes = [RulesPermission]
    required_perm = "badbeat.change_rules"

    @extend_schema(request=Input, responses={201: Output, **RULE_CHANGE_ERRORS})
    def post(self, request, pk: int):
        jackpot = get_object_or_404(Jackpot, pk=pk, casino=request.user.casino)
        self.check_object_permissions(request, jackpot)
        data = self.Input(data=request.data)
        data.is_valid(raise_exception=True)
        change = services.propose_rule_change(jackpot=jackpot, proposed_by=request.user, **data.validated_data)
        return Response(self.Output(change).data, status=status.HTTP_201_CREATED)


class RuleChangeWithdrawApi(IdempotentPostMixin, APIView):
    """POST /api/rule-changes/<id>/withdraw/: withdraw a notice of change not yet in effect (14.19(q)-notice); for
    those who may propose one. A change in effect, withdrawn or failed answers 400 naming `status`."""

    Output = RuleChangeOutput
    permission_classes = [RulesPermission]
    required_perm = "badbeat.change_rules"

    @extend_schema(request=None, responses={200: Output, **RULE_CHANGE_ERRORS})
    def post(self, request, pk: int):
        change = get_object_or_404(RuleChange.objects.select_related("jackpot"), pk=pk,
                                   jackpot__casino=request.user.casino)
        self.check_object_permissions(request, change.jackpot)
        change = services.withdraw_rule_change(change=change, withdrawn_by=request.user)
        return Response(self.Output(change).data)


class DiscontinueApi(IdempotentPostMixin, APIView):
    """POST: discontinue a payout and transfer all its funds to another (14.19(l)-discontinue); administrators only."""

    class Input(serializers.Serializer):
        target = serializers.IntegerField(help_text="The bad beat payout that receives the funds.")
        reason = serializers.CharField(max_length=300)

    Output = JackpotOutput
    permission_classes = [RulesPermission]
    required_perm = "badbeat.discontinue_jackpot"

    @extend_schema(request=Input, responses={200: Output})
    def post(self, request, pk: int):
        jackpot = get_object_or_404(Jackpot, pk=pk, casino=request.user.casino)
        data = self.Input(data=request.data)
        data.is_valid(raise_exception=True)
        target = Jackpot.objects.filter(pk=data.validated_data["target"], casino=request.user.casino).first()
        if target is None:
            raise serializers.ValidationError({"target": ["No such bad beat payout at this casino."]})
        services.discontinue_jackpot(jackpot=jackpot, target=target, reason=data.validated_data["reason"],
                                     made_by=request.user)
        return Response(self.Output(Jackpot.objects.get(pk=target.pk), context={"request": request}).data)
