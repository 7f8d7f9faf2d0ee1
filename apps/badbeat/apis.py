"""Bad beat API: jackpots and their posted rules, claims (open, verify, reject, pay), display adjustments and
rule-change notices. Thin: the services decide; a DomainError becomes a 400 naming the field."""
from django.http import Http404
from django.shortcuts import get_object_or_404
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.response import Response
from rest_framework.views import APIView

from apps.casinos.models import User
from apps.core.permissions import RulesPermission
from apps.rounds.models import RoundOfPlay

from . import services
from .models import RULE_FIELDS, Claim, ClaimShare, DisplayReason, Jackpot, PayoutLocation, PayoutMethod
from .selectors import claims_for_casino, contributions_total, jackpot_of, live_jackpots, payable_amount


class JackpotOutput(serializers.ModelSerializer):
    contributions_total = serializers.SerializerMethodField()
    payable_amount = serializers.SerializerMethodField()
    qualifying = serializers.CharField(source="qualifying_label")
    shares = serializers.CharField(source="shares_label")

    class Meta:
        model = Jackpot
        fields = ["id", "name", "kind", "primary", "funding", "status", "balance", "payable_amount",
                  "displayed_amount", "reset_reserve", "contributions_total", "is_collecting", "qualifying", "shares",
                  *RULE_FIELDS, "rules_effective_at", "updated_at"]

    def get_contributions_total(self, jackpot: Jackpot) -> str:
        return f"{contributions_total(jackpot=jackpot):.2f}"

    def get_payable_amount(self, jackpot: Jackpot) -> str:
        return f"{payable_amount(jackpot=jackpot):.2f}"


class JackpotApi(APIView):
    """The casino's primary jackpot."""

    permission_classes = [RulesPermission]
    required_perm = "badbeat.view_jackpot"

    @extend_schema(responses={200: JackpotOutput})
    def get(self, request):
        jackpot = jackpot_of(casino=request.user.casino) if request.user.casino_id else None
        if jackpot is None:
            raise Http404("No bad-beat jackpot is offered.")
        self.check_object_permissions(request, jackpot)
        return Response(JackpotOutput(jackpot).data)


class JackpotListApi(APIView):
    """Every bad beat payout the casino offers, with its posted rules (14.19(b))."""

    permission_classes = [RulesPermission]
    required_perm = "badbeat.view_jackpot"

    @extend_schema(responses={200: JackpotOutput(many=True)})
    def get(self, request):
        return Response(JackpotOutput(live_jackpots(casino=request.user.casino).select_related("primary"),
                                      many=True).data)


class ShareOutput(serializers.ModelSerializer):
    class Meta:
        model = ClaimShare
        fields = ["seat", "player", "role", "amount"]


class ClaimOutput(serializers.ModelSerializer):
    shares = ShareOutput(many=True, read_only=True)
    table = serializers.IntegerField(source="round_of_play.table.number")

    class Meta:
        model = Claim
        fields = ["id", "jackpot", "round_of_play", "table", "seat", "losing_hand", "losing_cards", "winning_hand",
                  "winning_cards", "status", "opened_at", "opened_by", "decided_by", "decided_at", "decision_note",
                  "payout_amount", "evaluation", "shares"]


class OpenClaimInput(serializers.Serializer):
    jackpot = serializers.IntegerField()
    round_of_play = serializers.IntegerField()


class ClaimsApi(APIView):
    """GET the casino's claims; POST opens one on a recorded round (supervisor, 14.19(i))."""

    permission_classes = [RulesPermission]
    required_perm = "badbeat.view_claim"
    perms_by_method = {"POST": "badbeat.verify_claim"}

    @extend_schema(responses={200: ClaimOutput(many=True)})
    def get(self, request):
        return Response(ClaimOutput(claims_for_casino(casino=request.user.casino).prefetch_related("shares")[:500],
                                    many=True).data)

    @extend_schema(request=OpenClaimInput, responses={201: ClaimOutput})
    def post(self, request):
        data = OpenClaimInput(data=request.data)
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
        return Response(ClaimOutput(claim).data, status=status.HTTP_201_CREATED)


class ClaimActionInput(serializers.Serializer):
    note = serializers.CharField(required=False, allow_blank=True, max_length=300)
    method = serializers.ChoiceField(choices=PayoutMethod.choices, required=False)
    location = serializers.ChoiceField(choices=PayoutLocation.choices, required=False)
    delivered_by = serializers.IntegerField(required=False)


class ClaimActionApi(APIView):
    """POST /api/claims/<id>/<verify|reject|payout>/."""

    permission_classes = [RulesPermission]
    required_perm = "badbeat.verify_claim"
    action: str = "verify"

    def get_permissions(self):
        self.required_perm = "badbeat.record_payout" if self.action == "payout" else "badbeat.verify_claim"
        return super().get_permissions()

    @extend_schema(request=ClaimActionInput, responses={200: ClaimOutput})
    def post(self, request, pk: int):
        claim = get_object_or_404(Claim.objects.select_related("jackpot"), pk=pk, jackpot__casino=request.user.casino)
        self.check_object_permissions(request, claim.jackpot)
        data = ClaimActionInput(data=request.data)
        data.is_valid(raise_exception=True)
        v = data.validated_data
        if self.action == "verify":
            claim = services.verify_claim(claim=claim, supervisor=request.user)
        elif self.action == "reject":
            claim = services.reject_claim(claim=claim, supervisor=request.user, note=v.get("note", ""))
        else:
            missing = [f for f in ("method", "location", "delivered_by") if f not in v]
            if missing:
                raise serializers.ValidationError({f: ["This field is required."] for f in missing})
            person = User.objects.filter(pk=v["delivered_by"], casino=request.user.casino).first()
            if person is None:
                raise serializers.ValidationError({"delivered_by": ["No such member of staff at this casino."]})
            services.record_payout(claim=claim, method=v["method"], location=v["location"], delivered_by=person,
                                   recorded_by=request.user)
            claim.refresh_from_db()
        return Response(ClaimOutput(claim).data)


class DisplayAdjustmentInput(serializers.Serializer):
    displayed_amount = serializers.DecimalField(max_digits=14, decimal_places=2)
    supervisor_present = serializers.IntegerField()
    reason = serializers.ChoiceField(choices=DisplayReason.choices, default=DisplayReason.DAILY)


class DisplayAdjustmentApi(APIView):
    """POST: accounting adjusts a display in a supervisor's presence (14.19(k)); refused if it differs from
    the record or goes down without a payout (14.19(o))."""

    permission_classes = [RulesPermission]
    required_perm = "badbeat.adjust_display"

    @extend_schema(request=DisplayAdjustmentInput, responses={201: JackpotOutput})
    def post(self, request, pk: int):
        jackpot = get_object_or_404(Jackpot, pk=pk, casino=request.user.casino)
        data = DisplayAdjustmentInput(data=request.data)
        data.is_valid(raise_exception=True)
        supervisor = User.objects.filter(pk=data.validated_data["supervisor_present"],
                                         casino=request.user.casino).first()
        if supervisor is None:
            raise serializers.ValidationError({"supervisor_present": ["No such member of staff at this casino."]})
        services.adjust_display(jackpot=jackpot, displayed_amount=data.validated_data["displayed_amount"],
                                adjusted_by=request.user, supervisor_present=supervisor,
                                reason=data.validated_data["reason"])
        jackpot.refresh_from_db()
        return Response(JackpotOutput(jackpot).data, status=status.HTTP_201_CREATED)


class RuleChangeInput(serializers.Serializer):
    changes = serializers.DictField()
    effective_at = serializers.DateTimeField()
    summary = serializers.CharField(required=False, allow_blank=True)


class RuleChangeApi(APIView):
    """POST a notice of change to a payout's posted rules (14.19(q))."""

    permission_classes = [RulesPermission]
    required_perm = "badbeat.change_rules"

    @extend_schema(request=RuleChangeInput, responses={201: None})
    def post(self, request, pk: int):
        jackpot = get_object_or_404(Jackpot, pk=pk, casino=request.user.casino)
        data = RuleChangeInput(data=request.data)
        data.is_valid(raise_exception=True)
        change = services.propose_rule_change(jackpot=jackpot, proposed_by=request.user, **data.validated_data)
        return Response({"id": change.pk, "summary": change.summary, "effective_at": change.effective_at,
                         "makes_qualifying_harder": change.makes_qualifying_harder, "status": change.status},
                        status=status.HTTP_201_CREATED)


class DiscontinueInput(serializers.Serializer):
    target = serializers.IntegerField(help_text="The bad beat payout that receives the funds.")
    reason = serializers.CharField(max_length=300)


class DiscontinueApi(APIView):
    """POST: discontinue a payout and transfer all its funds to another (14.19(l)); administrators only."""

    permission_classes = [RulesPermission]
    required_perm = "badbeat.discontinue_jackpot"

    @extend_schema(request=DiscontinueInput, responses={200: JackpotOutput})
    def post(self, request, pk: int):
        jackpot = get_object_or_404(Jackpot, pk=pk, casino=request.user.casino)
        data = DiscontinueInput(data=request.data)
        data.is_valid(raise_exception=True)
        target = Jackpot.objects.filter(pk=data.validated_data["target"], casino=request.user.casino).first()
        if target is None:
            raise serializers.ValidationError({"target": ["No such bad beat payout at this casino."]})
        services.discontinue_jackpot(jackpot=jackpot, target=target, reason=data.validated_data["reason"],
                                     made_by=request.user)
        return Response(JackpotOutput(Jackpot.objects.get(pk=target.pk)).data)
