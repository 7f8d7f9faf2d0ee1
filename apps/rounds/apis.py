"""Rounds API: reading recorded rounds of play (the hand feed that records them is apps.feed)."""
from rest_framework import generics

from apps.core.pagination import RoundsNewestFirst
from apps.core.permissions import RulesPermission
from apps.core.serializers import ModelOutput

from .filters import RoundFilter
from .models import Pot, PotAward, RoundOfPlay, RoundPlayer


class RoundPlayerOutput(ModelOutput):
    """A seat of a round of play: the player, what they put in and got back, their cards and hands."""

    class Meta:
        model = RoundPlayer
        fields = ["seat", "name", "starting_stack", "contributed", "returned", "hole_cards", "dealt_cards", "draws",
                  "folded", "at_showdown", "high_hand", "high_cards", "low_hand", "low_cards", "awarded"]


class PotAwardOutput(ModelOutput):
    """The chips pushed from a pot to a winning seat (Decimal dollars as strings)."""

    class Meta:
        model = PotAward
        fields = ["seat", "amount"]


class PotOutput(ModelOutput):
    """The main pot (index 0) or a side pot (N.J.A.C. 13:69F-14.7(c)4): what was bet into it, the rake and bad beat
    contribution deducted, and its awards."""

    awards = PotAwardOutput(many=True, read_only=True)

    class Meta:
        model = Pot
        fields = ["index", "gross", "deducted", "amount", "eligible_seats", "awards"]


class RoundOutput(ModelOutput):
    """A round of play as recorded: its game, time, gaming day, board, sums, seats and pots."""

    players = RoundPlayerOutput(many=True, read_only=True)
    pots = PotOutput(many=True, read_only=True)

    class Meta:
        model = RoundOfPlay
        fields = ["id", "table", "game", "betting_structure", "rotation_game", "started_at", "gaming_day", "board",
                  "total_bet", "uncalled_amount",
                  "refunded_amount", "pot_total", "betting_rounds", "went_to_showdown", "is_dead", "dead_reason", "source",
                  "source_name", "players", "pots"]


class RoundListApi(generics.ListAPIView):
    """Rounds of play of the user's casino, newest first, in keyset pages (`?cursor=` from the `next` link,
    `?limit=` up to 200), searched as the floor's round search page searches them (apps.rounds.filters.RoundFilter:
    table, game, gaming day, time, player name, pot, hand shown, showdown, source)."""

    serializer_class = RoundOutput
    pagination_class = RoundsNewestFirst
    permission_classes = [RulesPermission]
    required_perm = "rounds.view_roundofplay"
    filterset_class = RoundFilter

    def get_queryset(self):
        return (RoundOfPlay.objects.filter(table__casino_id=self.request.user.casino_id)
                .prefetch_related("players", "pots__awards").order_by("-started_at", "-id"))


class RoundDetailApi(generics.RetrieveAPIView):
    """One round of play: players, cards, draws, pots and awards."""

    serializer_class = RoundOutput
    permission_classes = [RulesPermission]
    required_perm = "rounds.view_roundofplay"

    def get_queryset(self):
        return (RoundOfPlay.objects.filter(table__casino_id=self.request.user.casino_id)
                .prefetch_related("players", "pots__awards"))
