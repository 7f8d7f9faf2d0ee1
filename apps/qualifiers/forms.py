"""The designer's form: up to four candidate qualifying rules side by side, the jackpot whose growth they are
measured on, and the run's deals, seed and table size. The designer (apps.qualifiers.designer) checks the rules
and reports errors by field; this form only reads the inputs."""
from django import forms

from apps.badbeat.models import Jackpot

from .designer import (
    DEFAULT_DEALS,
    DEFAULT_SEED,
    GAMES,
    MAX_CANDIDATES,
    MAX_SEED,
    REQUEST_MAX_DEALS,
    Candidate,
)

#: A candidate's fields, in the order a column shows them: (name, label).
CANDIDATE_FIELDS = (("game", "Game"), ("losing", "Weakest losing hand"), ("both_hole_cards", "Both hole cards play"),
                    ("minimum_players_dealt", "Minimum players dealt in"), ("beaten_by", "Beaten by at least"))
LOSING_HELP = "E.g. “four of a kind”, “aces full”, “four eights”, “straight flush”."
BEATEN_BY_HELP = "Empty: any better hand. E.g. “four of a kind”."


def field_name(index: int, name: str) -> str:
    """The form field of candidate `index` (1-based), e.g. c2_losing."""
    return f"c{index}_{name}"


class DesignForm(forms.Form):
    """Candidates 1..MAX_CANDIDATES (a candidate with no losing hand is left out), the jackpot, the run."""

    jackpot = forms.ModelChoiceField(queryset=Jackpot.objects.none(), required=False, empty_label="None (odds only)",
                                     help_text="Its posted contribution and reset percentage give the jackpot at "
                                               "the hit (14.19(b)1, (p)).")
    deals = forms.IntegerField(initial=DEFAULT_DEALS, min_value=0, max_value=10**12, label="Deals per candidate",
                               help_text=f"The engine's full deals for each candidate; at most {REQUEST_MAX_DEALS:,} "
                                         "here (python manage.py qualifier_odds goes further).")
    seed = forms.IntegerField(initial=DEFAULT_SEED, min_value=0, max_value=MAX_SEED,
                              help_text="The same seed deals the same cards: the figures can be reproduced.")
    players = forms.IntegerField(required=False, min_value=0, max_value=100, label="Players dealt in (table size)",
                                 help_text="Empty: the room's most common number of players dealt in.")

    def __init__(self, *args, jackpots, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["jackpot"].queryset = jackpots
        for index in range(1, MAX_CANDIDATES + 1):
            prefix = f"Candidate {index}: "
            self.fields[field_name(index, "game")] = forms.ChoiceField(
                choices=list(GAMES.items()), initial="holdem", label=prefix + "game")
            self.fields[field_name(index, "losing")] = forms.CharField(
                required=False, max_length=80, label=prefix + "weakest losing hand", help_text=LOSING_HELP)
            self.fields[field_name(index, "both_hole_cards")] = forms.BooleanField(
                required=False, label=prefix + "both hole cards play")
            self.fields[field_name(index, "minimum_players_dealt")] = forms.IntegerField(
                required=False, initial=4, min_value=0, max_value=100, label=prefix + "minimum players dealt in")
            self.fields[field_name(index, "beaten_by")] = forms.CharField(
                required=False, max_length=80, label=prefix + "beaten by at least", help_text=BEATEN_BY_HELP)

    def clean(self):
        data = super().clean()
        for index in range(1, MAX_CANDIDATES + 1):
            minimum = field_name(index, "minimum_players_dealt")
            if data.get(field_name(index, "losing"), "").strip() and data.get(minimum) is None \
                    and minimum not in self.errors:
                self.add_error(minimum, "How many players must be dealt in for a bad beat to qualify (14.19(b)3)?")
        return data

    def columns(self) -> list[list]:
        """Each candidate's bound fields, in CANDIDATE_FIELDS' order."""
        return [[self[field_name(index, name)] for name, _ in CANDIDATE_FIELDS]
                for index in range(1, MAX_CANDIDATES + 1)]

    def candidates(self) -> list[tuple[int, Candidate]]:
        """(candidate number, Candidate) of each column with a losing hand written (cleaned data)."""
        data = self.cleaned_data
        return [(index, Candidate(game=data[field_name(index, "game")], losing=data[field_name(index, "losing")],
                                  both_hole_cards=data[field_name(index, "both_hole_cards")],
                                  minimum_players_dealt=data[field_name(index, "minimum_players_dealt")],
                                  beaten_by=data[field_name(index, "beaten_by")]))
                for index in range(1, MAX_CANDIDATES + 1) if data.get(field_name(index, "losing"), "").strip()]
