"""The room's own history, as the qualifier designer reads it: how many rounds of play a gaming day deals, how many
players each is dealt to, and the pots the bad beat contribution is taken from.

Everything is bounded: the rounds per gaming day and per table come from the running totals kept per table, gaming
day, hour and game (`rake.TableHourRake`, one row per settled round added in the transaction that records it; index
`rake_hour_total_by_day`), over the last `HISTORY_DAYS` gaming days; the players dealt in and the pots come from the
newest `SAMPLE_ROUNDS` rounds of that window (index `round_newest_first`), never from all of history.

Only rounds whose posted game takes part in the bad beat payout are read (14.19(c)-designated: the table's, or at a
mixed-game table the rotation game's `bad_beat_participation`): no other round contributes or can produce a bad beat.
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from datetime import date, timedelta
from decimal import Decimal

from django.db.models import Count, Exists, IntegerField, OuterRef, Q, Subquery, Sum

from apps.casinos.models import Casino
from apps.casinos.selectors import current_gaming_day
from apps.rake.models import TableHourRake
from apps.rounds.models import RoundOfPlay, RoundPlayer
from apps.tables.models import Game, RotationGame

#: The gaming days of history read, ending with today's.
HISTORY_DAYS = 90
#: The newest rounds of the window read for the players dealt in and the pots (bounded, index-backed).
SAMPLE_ROUNDS = 5_000
#: The room's games each candidate game is read from. Omaha high-low split deals the same cards as Omaha and its
#: bad beat is judged on the high hand (apps.badbeat.qualifying.HIGH_HAND_GAMES), so its rounds count for Omaha.
HISTORY_GAMES: dict[str, tuple[str, ...]] = {
    Game.HOLDEM: (Game.HOLDEM,),
    Game.OMAHA: (Game.OMAHA, Game.OMAHA_HILO8),
}


@dataclass(frozen=True)
class RoomHistory:
    """The room's play of one game over gaming days `start`..`end` (inclusive), bad-beat rounds only.

    rounds: rounds of play of the game; days_played: gaming days with at least one; table_days: (table, gaming day)
    pairs with at least one. players_dealt: players dealt in -> rounds, over the newest `sampled` rounds of the game.
    all_rounds / all_days_played: the same over every participating game (every one of them contributes).
    pots: (pot before deductions, pot after the rake) of the newest rounds of every participating game, Decimal
    dollars: what a contribution rule is applied to.
    """

    game: str
    start: date
    end: date
    rounds: int = 0
    days_played: int = 0
    table_days: int = 0
    all_rounds: int = 0
    all_days_played: int = 0
    players_dealt: dict[int, int] = field(default_factory=dict)
    pots: list[tuple[Decimal, Decimal]] = field(default_factory=list)

    @property
    def sampled(self) -> int:
        """Rounds of the game whose players dealt in were read."""
        return sum(self.players_dealt.values())

    @property
    def rounds_per_day(self) -> float:
        """Rounds of the game a gaming day deals, on the days the room dealt it (0.0 without history)."""
        return self.rounds / self.days_played if self.days_played else 0.0

    @property
    def rounds_per_table_day(self) -> float:
        """Rounds of the game a table deals on a gaming day it deals it (0.0 without history)."""
        return self.rounds / self.table_days if self.table_days else 0.0

    @property
    def all_rounds_per_day(self) -> float:
        """Rounds of every participating game a gaming day deals, on the days the room dealt any (0.0 without)."""
        return self.all_rounds / self.all_days_played if self.all_days_played else 0.0

    def share_dealt_at_least(self, minimum: int) -> float:
        """The share (0..1) of the sampled rounds dealt to at least `minimum` players; 1.0 without a
        sample (nothing is known: the rule's minimum is taken as met)."""
        if not self.sampled:
            return 1.0
        return sum(n for players, n in self.players_dealt.items() if players >= minimum) / self.sampled

    def typical_players(self, minimum: int) -> int | None:
        """The most common number of players dealt in among the sampled rounds that meet `minimum` (the larger on a
        tie), or None when no sampled round does."""
        counts = [(n, players) for players, n in self.players_dealt.items() if players >= minimum]
        return max(counts)[1] if counts else None


def _participating_totals():
    """TableHourRake rows of rounds whose posted game takes part in the bad beat payout (14.19(c)-designated)."""
    rotation = RotationGame.objects.filter(table=OuterRef("table"), game=OuterRef("game"), bad_beat_participation=True)
    return TableHourRake.objects.filter(Q(table__rotation_name="", table__bad_beat_participation=True)
                                        | Q(Exists(rotation)))


def _participating_rounds():
    return RoundOfPlay.objects.filter(Q(rotation_game__isnull=True, table__bad_beat_participation=True)
                                      | Q(rotation_game__bad_beat_participation=True), is_dead=False)


def history_window(*, casino: Casino, days: int = HISTORY_DAYS) -> tuple[date, date]:
    """(first, last) gaming day of the history read: the `days` gaming days ending with today's."""
    end = current_gaming_day(casino=casino)
    return end - timedelta(days=days - 1), end


def room_history(*, casino: Casino, game: str, days: int = HISTORY_DAYS, sample: int = SAMPLE_ROUNDS) -> RoomHistory:
    """The room's history of `game` ("holdem" or "omaha") over the last `days` gaming days (RoomHistory).

    Three bounded queries: one grouped query on the running totals by table, day and game (at most days × tables ×
    games rows), the players dealt in of the newest `sample` rounds of the game, and the pots of the newest `sample`
    rounds of every participating game. Raises KeyError for a game the designer does not offer.
    """
    games = HISTORY_GAMES[game]
    start, end = history_window(casino=casino, days=days)
    rows = list(_participating_totals().filter(table__casino=casino, gaming_day__gte=start, gaming_day__lte=end)
                .values("gaming_day", "table_id", "game").annotate(n=Sum("rounds")).order_by())
    mine = [row for row in rows if row["game"] in games and row["n"]]
    recent = _participating_rounds().filter(table__casino=casino, gaming_day__gte=start, gaming_day__lte=end)
    dealt = (RoundPlayer.objects.filter(round_of_play=OuterRef("pk")).order_by().values("round_of_play")
             .annotate(n=Count("pk")).values("n"))
    players = Counter(recent.filter(game__in=games).order_by("-started_at", "-id")
                      .annotate(dealt=Subquery(dealt, output_field=IntegerField()))
                      .values_list("dealt", flat=True)[:sample])
    pots = [(pot, pot - (rake or Decimal("0.00"))) for pot, rake in
            recent.order_by("-started_at", "-id").values_list("pot_total", "rake_record__amount")[:sample]]
    return RoomHistory(
        game=game, start=start, end=end, rounds=sum(row["n"] for row in mine),
        days_played=len({row["gaming_day"] for row in mine}), table_days=len({(row["gaming_day"], row["table_id"])
                                                                              for row in mine}),
        all_rounds=sum(row["n"] for row in rows),
        all_days_played=len({row["gaming_day"] for row in rows if row["n"]}),
        players_dealt={players: n for players, n in sorted(players.items()) if players}, pots=pots)
