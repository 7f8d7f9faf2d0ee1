"""Forms of the bad beat pages; the services check the rules and report errors by field."""
from django import forms

from apps.casinos.models import User
from apps.core.roles import Role

from .models import RULE_FIELDS, DisplayReason, Jackpot, PayoutLocation, PayoutMethod


def _staff(casino, *roles):
    return User.objects.filter(casino=casino, groups__name__in=[r.value for r in roles], is_active=True).distinct()


class OpenClaimForm(forms.Form):
    round_of_play = forms.IntegerField(label="Round of play number", min_value=1)
    jackpot = forms.ModelChoiceField(queryset=Jackpot.objects.none())

    def __init__(self, *args, casino, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["jackpot"].queryset = Jackpot.objects.filter(casino=casino).exclude(status="discontinued")


class RejectForm(forms.Form):
    note = forms.CharField(max_length=300, label="Reason")


class PayoutForm(forms.Form):
    method = forms.ChoiceField(choices=PayoutMethod.choices)
    location = forms.ChoiceField(choices=PayoutLocation.choices)
    delivered_by = forms.ModelChoiceField(queryset=User.objects.none(), label="Delivered by")

    def __init__(self, *args, casino, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["delivered_by"].queryset = _staff(casino, Role.SECURITY, Role.ACCOUNTING)


class DisplayAdjustmentForm(forms.Form):
    jackpot = forms.ModelChoiceField(queryset=Jackpot.objects.none())
    displayed_amount = forms.DecimalField(max_digits=14, decimal_places=2, min_value=0,
                                          label="Amount now shown on the display ($)")
    supervisor_present = forms.ModelChoiceField(queryset=User.objects.none(), label="Poker supervisor present")
    reason = forms.ChoiceField(choices=DisplayReason.choices)

    def __init__(self, *args, casino, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["jackpot"].queryset = Jackpot.objects.filter(casino=casino).exclude(status="discontinued")
        self.fields["supervisor_present"].queryset = _staff(casino, Role.POKER_SHIFT_SUPERVISOR)


class RuleChangeForm(forms.Form):
    jackpot = forms.ModelChoiceField(queryset=Jackpot.objects.none())
    field = forms.ChoiceField(choices=[(f, Jackpot._meta.get_field(f).verbose_name.capitalize()) for f in RULE_FIELDS],
                              label="Rule")
    value = forms.CharField(max_length=200, label="New value")
    effective_at = forms.DateTimeField(widget=forms.DateTimeInput(attrs={"type": "datetime-local"}),
                                       label="Takes effect at")
    summary = forms.CharField(required=False, widget=forms.Textarea(attrs={"rows": 2}), label="Notice to patrons")

    def __init__(self, *args, casino, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["jackpot"].queryset = Jackpot.objects.filter(casino=casino).exclude(status="discontinued")

    def changes(self) -> dict:
        """The change as the service takes it: booleans and whole numbers converted from the text."""
        name, value = self.cleaned_data["field"], self.cleaned_data["value"].strip()
        model_field = Jackpot._meta.get_field(name)
        if model_field.get_internal_type() == "BooleanField":
            return {name: value.lower() in ("1", "true", "yes", "on")}
        if model_field.get_internal_type() == "PositiveSmallIntegerField":
            if not value.isdigit():
                raise forms.ValidationError({"value": "Give a whole number."})
            return {name: int(value)}
        return {name: value or None}
