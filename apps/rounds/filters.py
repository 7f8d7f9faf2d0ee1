"""The search of rounds of play (django-filter), shared by the floor's round search page (/rounds/) and the API's list
(GET /api/rounds/): by table, game, gaming day, time, player name, amount and hand category. The queryset it filters
is the caller's (the casino's rounds, newest first); each filter is served by an index on PostgreSQL
(tests/core/test_history_queries.py EXPLAINs them):

- table, gaming day, time: round_table_newest_first, the gaming_day index, round_newest_first (started_at);
- player name: a round with a player whose name starts with the text, case-insensitively (`UPPER(name) LIKE
  'ANA%'`): the btree index round_player_name_prefix on UPPER(name) text_pattern_ops (rounds migration 0009), which
  serves a prefix and an exact name alike without an extension (a trigram index would serve "contains" too, but
  needs pg_trgm, which the app's database role may not create); names are searched by their start at the floor;
- hand category: a round in which a player showed down that best high hand, e.g. "Four of a kind": the partial
  index round_player_high_hand (the rows with a hand only: the players at a showdown);
- amount: the pot (the sums bet, Decimal dollars) from `pot_min` to `pot_max`, read along the order's index.
"""
from __future__ import annotations

import django_filters
from django import forms
from django.db.models import Exists, OuterRef
from django.utils import timezone

from apps.core.fields import MONEY_DECIMAL_PLACES, MONEY_MAX_DIGITS
from apps.hands import BadugiCategory, DeuceToSevenCategory, FiveCardCategory, ThreeCardCategory
from apps.tables.models import Game, PokerTable

from .models import RoundOfPlay, RoundPlayer, RoundSource

#: The high hand categories a showdown records (RoundPlayer.high_hand), the five-card ones first, strongest first.
HAND_CATEGORIES = list(dict.fromkeys(
    category.label for kind in (FiveCardCategory, ThreeCardCategory, DeuceToSevenCategory, BadugiCategory)
    for category in sorted(kind, key=lambda c: -c.strength)))


def _tables(request):
    """The tables a search may name: the signed-in user's casino's, by number."""
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated or user.casino_id is None:
        return PokerTable.objects.none()
    return PokerTable.objects.filter(casino_id=user.casino_id).order_by("number")



class AnyYesNo(forms.NullBooleanSelect):
    """Django's yes/no/unknown select, its empty choice read as the search means it: "Any" (rounds either way)."""

    def __init__(self, attrs: dict[str, str] | None = None) -> None:
        super().__init__(attrs)
        self.choices = [("unknown", "Any"), ("true", "Yes"), ("false", "No")]

class RoundFilter(django_filters.FilterSet):
    """Filters of a list of rounds of play; each is optional, all given must hold. Times without an offset (the page's
    datetime-local inputs) are the casino's local time; amounts are dollars (at most 2 places)."""

    # django-filter takes a function of the request as the queryset (documented; types-django-filter says otherwise)
    table = django_filters.ModelChoiceFilter(queryset=_tables, label="Table",  # type: ignore[arg-type]
                                             empty_label="Any table")
    game = django_filters.ChoiceFilter(choices=Game.choices, label="Game", empty_label="Any game")
    gaming_day = django_filters.DateFilter(label="Gaming day", widget=forms.DateInput(attrs={"type": "date"}))
    started_after = django_filters.IsoDateTimeFilter(
        field_name="started_at", lookup_expr="gte", label="Started from",
        widget=forms.DateTimeInput(attrs={"type": "datetime-local"}),
        help_text="The round started at or after this moment (the casino's time).")
    started_before = django_filters.IsoDateTimeFilter(
        field_name="started_at", lookup_expr="lt", label="Started before",
        widget=forms.DateTimeInput(attrs={"type": "datetime-local"}))
    player = django_filters.CharFilter(
        method="filter_player", label="Player", max_length=80,
        help_text="A player's name, or its start; capitals or not.")
    pot_min = django_filters.NumberFilter(field_name="pot_total", lookup_expr="gte", label="Pot from ($)",
                                          min_value=0, max_digits=MONEY_MAX_DIGITS,
                                          decimal_places=MONEY_DECIMAL_PLACES)
    pot_max = django_filters.NumberFilter(field_name="pot_total", lookup_expr="lte", label="Pot up to ($)",
                                          min_value=0, max_digits=MONEY_MAX_DIGITS,
                                          decimal_places=MONEY_DECIMAL_PLACES)
    hand = django_filters.ChoiceFilter(
        choices=[(label, label) for label in HAND_CATEGORIES], method="filter_hand", label="Hand shown",
        empty_label="Any hand", help_text="A player showed down this best high hand.")
    went_to_showdown = django_filters.BooleanFilter(label="Went to showdown", widget=AnyYesNo)
    source = django_filters.ChoiceFilter(choices=RoundSource.choices, label="Source", empty_label="Any source")

    class Meta:
        model = RoundOfPlay
        fields = ["table", "game", "gaming_day", "started_after", "started_before", "player", "pot_min", "pot_max",
                  "hand", "went_to_showdown", "source"]

    def _zone(self):
        user = getattr(self.request, "user", None)
        casino = getattr(user, "casino", None) if user is not None and user.is_authenticated else None
        return casino.zone if casino is not None else timezone.get_current_timezone()

    @property
    def errors(self):
        """The form's errors, its times read in the casino's time zone."""
        with timezone.override(self._zone()):
            return super().errors

    def is_valid(self):
        with timezone.override(self._zone()):
            return super().is_valid()

    def filter_player(self, queryset, name, value):
        """Rounds in which a player's name starts with `value`, case-insensitively (index round_player_name_prefix)."""
        value = value.strip()
        if not value:
            return queryset
        return queryset.filter(Exists(RoundPlayer.objects.filter(round_of_play=OuterRef("pk"),
                                                                 name__istartswith=value)))

    def filter_hand(self, queryset, name, value):
        """Rounds in which a player showed down `value` as best high hand (index round_player_high_hand)."""
        return queryset.filter(Exists(RoundPlayer.objects.filter(round_of_play=OuterRef("pk"), high_hand=value)))
