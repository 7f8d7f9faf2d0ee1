"""The qualifier designer's API: POST /api/qualifiers/odds/ compares up to four candidate qualifying rules on one
jackpot (apps.qualifiers.designer). A POST because it computes (the engine deals), not
because it writes: nothing is written. Thin: the designer checks the rules and names the field at fault."""
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.response import Response
from rest_framework.views import APIView

from apps.badbeat.models import Jackpot
from apps.core.permissions import RulesPermission
from apps.core.validation import money_decimal, record_id, text

from .designer import (
    DEFAULT_DEALS,
    DEFAULT_SEED,
    GAMES,
    MAX_CANDIDATES,
    MAX_SEED,
    REQUEST_MAX_DEALS,
    SPANS,
    Candidate,
    compare,
)


class QualifierCandidateInput(serializers.Serializer):
    game = serializers.ChoiceField(choices=list(GAMES.items()))
    losing = text(max_length=80, help_text="The weakest qualifying losing hand, e.g. \"four of a kind\", \"four "
                                           "eights\", \"aces full\", \"nine-high straight flush\" (\"or better\" "
                                           "is understood).")
    both_hole_cards = serializers.BooleanField(default=False, help_text="Hold 'em: both hole cards must play.")
    minimum_players_dealt = serializers.IntegerField(min_value=0, max_value=100, default=2,
                                                     help_text="Players dealt in for a round to qualify (2-10).")
    beaten_by = text(max_length=80, required=False, allow_blank=True, default="",
                     help_text="The least winning hand (empty: any better hand).")


class QualifierFiguresOutput(serializers.Serializer):
    game = serializers.CharField()
    losing = serializers.CharField()
    both_hole_cards = serializers.BooleanField()
    minimum_players_dealt = serializers.IntegerField()
    beaten_by = serializers.CharField()
    description = serializers.CharField()
    deals = serializers.IntegerField()
    hits = serializers.IntegerField()
    seed = serializers.IntegerField()
    players = serializers.IntegerField(help_text="The table size the engine dealt.")
    probability_at_players = serializers.FloatField(help_text="hits / deals at that table size.")
    ci95_at_players = serializers.ListField(child=serializers.FloatField(), min_length=2, max_length=2)
    share_meeting_minimum = serializers.FloatField(help_text="Share of the room's rounds dealt to the minimum.")
    probability = serializers.FloatField(help_text="Per round of play: share × probability at the table size.")
    ci95 = serializers.ListField(child=serializers.FloatField(), min_length=2, max_length=2,
                                 help_text="95 % confidence interval of `probability` (Wilson, scaled).")
    rounds_per_day = serializers.FloatField()
    rounds_between_hits = serializers.FloatField(allow_null=True)
    days_between_hits = serializers.FloatField(allow_null=True)
    chance_within_days = serializers.DictField(child=serializers.FloatField(allow_null=True),
                                               help_text=f"Days ({', '.join(map(str, SPANS))}) -> chance of a hit.")
    expected_jackpot_at_next_hit = serializers.DecimalField(max_digits=20, decimal_places=2, allow_null=True)
    reset_seed = serializers.DecimalField(max_digits=20, decimal_places=2, allow_null=True)
    expected_jackpot_at_later_hit = serializers.DecimalField(max_digits=20, decimal_places=2, allow_null=True)


class QualifierJackpotOutput(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    payable_now = money_decimal()
    contribution_rule = serializers.CharField()
    minimum_pot = money_decimal()
    contribution_per_round = serializers.DecimalField(max_digits=14, decimal_places=4)
    contributions_per_day = serializers.DecimalField(max_digits=20, decimal_places=2)
    reset_percentage = serializers.DecimalField(max_digits=5, decimal_places=2)


class QualifierHistoryOutput(serializers.Serializer):
    first_day = serializers.DateField()
    last_day = serializers.DateField()
    rounds = serializers.IntegerField()
    days_played = serializers.IntegerField()
    rounds_per_day = serializers.FloatField()
    rounds_per_table_day = serializers.FloatField()
    sampled_rounds = serializers.IntegerField()
    players_dealt = serializers.DictField(child=serializers.IntegerField())


class QualifierOddsApi(APIView):
    """Compare candidate bad beat qualifying rules: each candidate's probability per round of play with
    its 95 % confidence interval, deals and hits, the rounds and gaming days between hits and the chance of a hit
    within 30, 90 and 365 days from the room's history, and the jackpot at the hit under the chosen jackpot's
    posted contribution and reset. Writes nothing. Bad input: 400 naming the field, e.g.
    `candidates[1].losing`, `deals`, `players`."""

    class Input(serializers.Serializer):
        candidates = QualifierCandidateInput(many=True, min_length=1, max_length=MAX_CANDIDATES,  # type: ignore[call-arg]  # many=True: the ListSerializer's bounds (not in DRF's stubs)
                                             help_text=f"1 to {MAX_CANDIDATES} candidate qualifying rules.")
        jackpot = record_id(required=False, allow_null=True, default=None,
                            help_text="A jackpot of the casino funded by its own contributions: its posted "
                                      "contribution and reset percentage give the jackpot at the hit. Empty: odds and "
                                      "rates only.")
        deals = serializers.IntegerField(default=DEFAULT_DEALS, min_value=0, max_value=10**12,
                                         help_text=f"Deals for each candidate, 1,000 to {REQUEST_MAX_DEALS:,}.")
        seed = serializers.IntegerField(default=DEFAULT_SEED, min_value=0, max_value=MAX_SEED,
                                        help_text="The same seed deals the same cards.")
        players = serializers.IntegerField(required=False, allow_null=True, default=None, min_value=0, max_value=100,
                                           help_text="Players dealt in for the odds; empty: the room's most common "
                                                     "number among rounds meeting each candidate's minimum.")

    class Output(serializers.Serializer):
        deals = serializers.IntegerField()
        seed = serializers.IntegerField()
        jackpot = QualifierJackpotOutput(allow_null=True)
        history = serializers.DictField(child=QualifierHistoryOutput(), help_text="By game: the room's last 90 days.")
        candidates = QualifierFiguresOutput(many=True)

    permission_classes = [RulesPermission]
    required_perm = "qualifiers.design_qualifiers"

    @extend_schema(request=Input, responses={200: Output})
    def post(self, request):
        data = self.Input(data=request.data)
        data.is_valid(raise_exception=True)
        values = data.validated_data
        casino = request.user.casino
        jackpot = None
        if values["jackpot"] is not None:
            jackpot = Jackpot.objects.filter(pk=values["jackpot"], casino=casino).first()
            if jackpot is None:
                raise serializers.ValidationError({"jackpot": ["No such bad beat payout at this casino."]})
        comparison = compare(casino=casino, jackpot=jackpot, deals=values["deals"], seed=values["seed"],
                             players=values["players"],
                             candidates=[Candidate(**candidate) for candidate in values["candidates"]])
        return Response(comparison.as_json())
