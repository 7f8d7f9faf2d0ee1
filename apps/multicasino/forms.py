"""Forms of the multi-casino pages; the services check the rules and report errors by field."""
from django import forms

from apps.badbeat.models import QualifyingHand

from .models import ELIGIBILITY_DEFAULTS, TwoClaimsRule


class SystemRulesForm(forms.Form):
    """A proposed rule set for every participating casino (14.20(c)1), prefilled with the rules in force."""

    qualifying_hand = forms.ChoiceField(choices=QualifyingHand.choices)
    qualifying_minimum_rank = forms.IntegerField(required=False, min_value=2, max_value=14,
                                                 help_text="2 (deuces) to 14 (aces); empty for any.")
    both_hole_cards_must_play = forms.BooleanField(required=False)
    minimum_players_dealt = forms.IntegerField(min_value=2, max_value=10)
    straddled_pots_qualify = forms.BooleanField(required=False, help_text="A straddled pot can be a bad beat.")
    bomb_pots_qualify = forms.BooleanField(required=False, help_text="A bomb pot can be a bad beat.")
    multiple_runs_qualify = forms.BooleanField(required=False, label="Hands run more than once qualify",
                                               help_text="A hand run two or three times can be a bad beat, on any "
                                                         "run's board.")
    contribution_amount = forms.DecimalField(required=False, max_digits=10, decimal_places=2, min_value=0,
                                             help_text="Dollars per pot, or empty for a percentage.")
    contribution_percentage = forms.DecimalField(required=False, max_digits=5, decimal_places=2, min_value=0)
    minimum_pot = forms.DecimalField(max_digits=10, decimal_places=2, min_value=0)
    maximum_contribution = forms.DecimalField(max_digits=10, decimal_places=2, min_value=0)
    reset_percentage = forms.DecimalField(max_digits=5, decimal_places=2, min_value=0, max_value=100)
    losing_share = forms.DecimalField(max_digits=5, decimal_places=2, min_value=0, max_value=100)
    winning_share = forms.DecimalField(max_digits=5, decimal_places=2, min_value=0, max_value=100)
    table_share = forms.DecimalField(max_digits=5, decimal_places=2, min_value=0, max_value=100)
    two_claims_rule = forms.ChoiceField(choices=TwoClaimsRule.choices)
    effective_at = forms.DateTimeField(help_text="After the notice is posted; every casino must approve first.",
                                       widget=forms.DateTimeInput(attrs={"type": "datetime-local"}))

    def rules(self) -> dict:
        """The rule set as the system stores it (money and percentages as strings, to the cent)."""
        data = self.cleaned_data
        out = {}
        for name in ("qualifying_hand", "qualifying_minimum_rank", "both_hole_cards_must_play",
                     "minimum_players_dealt", *ELIGIBILITY_DEFAULTS):
            out[name] = data[name]
        for name in ("contribution_amount", "contribution_percentage", "minimum_pot", "maximum_contribution",
                     "reset_percentage", "losing_share", "winning_share", "table_share"):
            out[name] = f"{data[name]:.2f}" if data[name] is not None else None
        return out
