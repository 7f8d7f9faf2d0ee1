"""Forms of the bad beat pages; the services check the rules and report errors by field."""
from django import forms

from apps.casinos.models import User
from apps.core.fields import MONEY_DECIMAL_PLACES, MONEY_MAX_DIGITS
from apps.core.roles import Role
from apps.core.signatures import signature_error

from .models import RULE_FIELDS, DisplayReason, Jackpot, PayoutLocation, PayoutMethod


def _staff(casino, *roles):
    return User.objects.filter(casino=casino, groups__name__in=[r.value for r in roles], is_active=True).distinct()


class OpenClaimForm(forms.Form):
    round_of_play = forms.IntegerField(label="Round of play number", min_value=1)
    jackpot = forms.ModelChoiceField(queryset=Jackpot.objects.none())

    def __init__(self, *args, casino, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["jackpot"].queryset = Jackpot.objects.filter(casino=casino).exclude(status="discontinued")


class ConfirmedForm(forms.Form):
    """A decision on a claim that moves (or refuses) money: it is written only once the person ticks `confirm`
    after reading the amounts and shares shown beside it; `checked` carries the fingerprint of those figures
    (apps.badbeat.previews), and the view refuses the confirmation when the figures written are not those shown."""

    confirm_label = "I have checked the amounts and the shares shown above."
    confirm_missing = "Tick this box once you have checked the amounts and the shares: nothing was written."

    confirm = forms.BooleanField(required=True)
    checked = forms.CharField(widget=forms.HiddenInput, required=False, max_length=64)

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["confirm"].label = self.confirm_label
        self.fields["confirm"].error_messages["required"] = self.confirm_missing


class VerifyForm(ConfirmedForm):
    """The supervisor verifies a bad beat (14.19(i)) once the amount it freezes and the shares are checked."""

    confirm_label = "I have checked the amount and the share of each player shown above."
    confirm_missing = ("Tick this box once you have checked the amount and the shares shown above: the claim was not "
                       "verified.")


class RejectForm(ConfirmedForm):
    """The supervisor rejects a claim (14.19(i)), saying why, once the engine's verdict is checked."""

    confirm_label = "I have checked the engine's verdict: reject this claim; nothing is paid."
    confirm_missing = "Tick this box to confirm the rejection: the claim was not rejected."

    note = forms.CharField(max_length=300, label="Reason for rejecting", widget=forms.Textarea(attrs={"rows": 2}),
                           error_messages={"required": "Say why the claim is rejected: it was not rejected."})
    field_order = ["note", "confirm", "checked"]


class PayoutForm(ConfirmedForm):
    """Security or accounting records the delivery of a verified payout (14.19(i)2, (j)) once the amount and the
    shares are checked."""

    confirm_label = "I have checked the amount and the share of each player being delivered."
    confirm_missing = "Tick this box once you have checked the amount and the shares: the payout was not recorded."

    method = forms.ChoiceField(choices=PayoutMethod.choices)
    location = forms.ChoiceField(choices=PayoutLocation.choices)
    delivered_by = forms.ModelChoiceField(queryset=User.objects.none(), label="Delivered by")
    field_order = ["method", "location", "delivered_by", "confirm", "checked"]

    def __init__(self, *args, casino, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["delivered_by"].queryset = _staff(casino, Role.SECURITY, Role.ACCOUNTING)

    def payout(self) -> dict:
        """What services.record_payout takes from the form."""
        return {name: self.cleaned_data[name] for name in ("method", "location", "delivered_by")}


class DisplayAdjustmentForm(forms.Form):
    """Accounting adjusts a display in a poker supervisor's presence (14.19(k)1): both sign in person, each with
    their own password, as a count is signed (apps.counts.forms.CountForm)."""

    jackpot = forms.ModelChoiceField(queryset=Jackpot.objects.none())
    displayed_amount = forms.DecimalField(max_digits=MONEY_MAX_DIGITS, decimal_places=MONEY_DECIMAL_PLACES,
                                          min_value=0, label="Amount now shown on the display ($)")
    reason = forms.ChoiceField(choices=DisplayReason.choices)
    accounting_password = forms.CharField(
        widget=forms.PasswordInput(attrs={"autocomplete": "current-password"}), strip=False,
        label="Your signature (your password)")
    supervisor_present = forms.ModelChoiceField(queryset=User.objects.none(), label="Poker supervisor present")
    supervisor_password = forms.CharField(
        widget=forms.PasswordInput(attrs={"autocomplete": "off"}), strip=False,
        label="Supervisor's signature (their password)")

    def __init__(self, *args, casino, user, request, **kwargs):
        super().__init__(*args, **kwargs)
        self.user, self.request = user, request
        self.fields["jackpot"].queryset = Jackpot.objects.filter(casino=casino).exclude(status="discontinued")
        self.fields["supervisor_present"].queryset = _staff(casino, Role.POKER_SHIFT_SUPERVISOR)

    def clean(self):
        """The accounting representative submitting and the poker supervisor present each sign with their own
        password (14.19(k)1); a wrong one is an error beside its field, counts toward the signer's lockout
        (apps.core.signatures), and nothing is written."""
        data = super().clean()
        for signer, password in ((self.user, "accounting_password"),
                                 (data.get("supervisor_present"), "supervisor_password")):
            if signer is not None and data.get(password):
                error = signature_error(self.request, signer=signer, password=data[password], what="the adjustment")
                if error:
                    self.add_error(password, error)
        return data

    def adjustment(self) -> dict:
        """What services.adjust_display takes from the form (the signatures checked, not passed on)."""
        return {name: self.cleaned_data[name] for name in ("jackpot", "displayed_amount", "supervisor_present",
                                                           "reason")}


class RuleChangeForm(forms.Form):
    jackpot = forms.ModelChoiceField(queryset=Jackpot.objects.none())
    # RULE_FIELDS are columns of Jackpot's own (get_field is typed for relations too, which have no verbose_name)
    field = forms.ChoiceField(choices=[(f, Jackpot._meta.get_field(f).verbose_name.capitalize())  # type: ignore[union-attr]
                                       for f in RULE_FIELDS],
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
