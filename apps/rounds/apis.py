"""Rounds API: reading a recorded round of play (the hand feed that records them, and lists them at GET /api/rounds/,
is apps.feed). RoundOutput is a round as every answer about one shows it."""
from django.shortcuts import get_object_or_404
from drf_spectacular.utils import extend_schema
from rest_framework.response import Response
from rest_framework.views import APIView

from apps.core.permissions import RulesPermission
from apps.core.serializers import ModelOutput

from .models import Pot, PotAward, RoundOfPlay, RoundPlayer
from .selectors import casino_rounds


class RoundPlayerOutput(ModelOutput):
    """A seat of a round of play: the player, what they put in and got back, their cards and hands."""

    class Meta:
        model = RoundPlayer
        fields = ["seat", "name", "starting_stack", "contributed", "returned", "straddle", "dead_money", "hole_cards",
                  "dealt_cards", "draws", "folded", "at_showdown", "high_hand", "high_cards", "low_hand", "low_cards",
                  "awarded"]


class PotAwardOutput(ModelOutput):
    """The chips pushed from a pot to a winning seat (Decimal dollars as strings)."""

    class Meta:
        model = PotAward
        fields = ["seat", "amount"]


class PotOutput(ModelOutput):
    """The main pot (index 0) or a side pot (N.J.A.C. 13:69F-14.7(c)4): what was bet into it, the rake and bad beat
    contribution deducted, and its awards; for a hand run more than once, each run's share and its awards (`runs`)."""

    awards = PotAwardOutput(many=True, read_only=True, source="awards_list")

    class Meta:
        model = Pot
        fields = ["index", "gross", "deducted", "amount", "eligible_seats", "awards", "runs"]


class RoundOutput(ModelOutput):
    """A round of play as recorded: its game, time, gaming day, board (a hand run more than once: `run_boards`, each
    run's, `board` the first's), straddles, bomb pot, sums, seats and pots."""

    players = RoundPlayerOutput(many=True, read_only=True, source="players_list")
    pots = PotOutput(many=True, read_only=True, source="pots_list")

    class Meta:
        model = RoundOfPlay
        fields = ["id", "table", "game", "betting_structure", "rotation_game", "started_at", "gaming_day", "board",
                  "run_boards", "straddles", "bomb_pot", "button", "total_bet", "uncalled_amount",
                  "refunded_amount", "pot_total", "betting_rounds", "went_to_showdown", "is_dead", "dead_reason", "source",
                  "source_name", "players", "pots"]


class RoundApi(APIView):
    """One round of play of the user's casino: players, cards, draws, pots and awards. (The list, GET /api/rounds/,
    is apps.feed.apis.RoundsApi, beside the POST that records a round.)"""

    permission_classes = [RulesPermission]
    required_perm = "rounds.view_roundofplay"
    Output = RoundOutput

    @extend_schema(responses={200: Output})
    def get(self, request, pk: int):
        round_of_play = get_object_or_404(casino_rounds(casino_id=request.user.casino_id), pk=pk)
        self.check_object_permissions(request, round_of_play)
        return Response(self.Output(round_of_play).data)
