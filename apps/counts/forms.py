"""Forms of the count and reconciliation pages."""
from decimal import Decimal

from django import forms
from django.utils import timezone

from apps.casinos.models import User
from apps.core.fields import MONEY_DECIMAL_PLACES, MONEY_MAX_DIGITS
from apps.core.money import ZERO, dollars
from apps.core.roles import Role
from apps.core.signatures import signature_error
from apps.tables.models import PokerTable

from .models import BadBeatCount, CountMethod, CountReason, FormPart, WitnessKind
from .selectors import counts_to_combine
from .services import DENOMINATIONS


class CountForm(forms.Form):
    table = forms.ModelChoiceField(queryset=PokerTable.objects.none())
    method = forms.ChoiceField(choices=CountMethod.choices, initial=CountMethod.TABLE_INVENTORY)
    reason = forms.ChoiceField(choices=CountReason.choices)
    counted_by = forms.ModelChoiceField(queryset=User.objects.none(), label="Counted by (dealer or cashier)")
    witness = forms.ModelChoiceField(queryset=User.objects.none())
    witness_kind = forms.ChoiceField(choices=WitnessKind.choices)
    surveillance_recorded = forms.BooleanField(required=False, label="Recorded by surveillance")
    transported_by = forms.ModelChoiceField(queryset=User.objects.none(), required=False,
                                            label="Transported by (security)")
    counter_password = forms.CharField(widget=forms.PasswordInput, label="Counter's signature (their password)")
    witness_password = forms.CharField(widget=forms.PasswordInput, label="Witness's signature (their password)")
    amount = forms.DecimalField(required=False, max_digits=MONEY_MAX_DIGITS, decimal_places=MONEY_DECIMAL_PLACES,
                                min_value=0,
                                help_text="Box counts: the total counted. Forms: leave empty and give the chips.")
    #: The variance the page showed and asks to confirm (see ask_to_confirm); empty until a count has one.
    confirmed_variance = forms.DecimalField(required=False, widget=forms.HiddenInput, max_digits=MONEY_MAX_DIGITS,
                                            decimal_places=MONEY_DECIMAL_PLACES)

    def __init__(self, *args, casino, request, **kwargs):
        super().__init__(*args, **kwargs)
        self.request = request
        self.fields["table"].queryset = PokerTable.objects.filter(casino=casino, bad_beat_participation=True)
        staff = User.objects.filter(casino=casino, is_active=True).order_by("username")
        for name in ("counted_by", "witness", "transported_by"):
            self.fields[name].queryset = staff
        for d in DENOMINATIONS:
            self.fields[f"chips_{d:.2f}"] = forms.IntegerField(required=False, min_value=0,
                                                               label=f"{dollars(d)} chips")
        if self.data.get("confirmed_variance"):
            self._add_confirmation()

    def _add_confirmation(self) -> None:
        self.fields["confirm_variance"] = forms.BooleanField(
            required=False, label="We counted again: record the count with this variance")

    def ask_to_confirm(self, variance: Decimal) -> None:
        """Show the form again (after a validated post that recorded nothing) asking the counter and the witness to
        confirm `variance` (Decimal dollars): the box unticked, `variance` kept in the form, the signatures to give
        again (14.19(d)-place, 14.19(e)-cashier-counts, 14.19(f))."""
        data = {name: value for name, value in self.data.items() if name != "confirm_variance"}  # one value a field
        data["confirmed_variance"] = f"{variance:.2f}"
        self.data = data
        self._add_confirmation()

    def variance_confirmed(self) -> Decimal:
        """The variance the counter and the witness confirmed (Decimal dollars): the one the page showed when they
        ticked the box, else ZERO (a count that matches the contributions recorded needs no confirmation)."""
        if self.cleaned_data.get("confirm_variance") and self.cleaned_data.get("confirmed_variance") is not None:
            return Decimal(self.cleaned_data["confirmed_variance"])
        return ZERO

    def clean(self):
        """Each of the two signs the count with their own password (14.19(d)1-signed, 14.19(f)3-contents); a wrong one
        counts toward the signer's lockout (apps.core.signatures)."""
        data = super().clean()
        for person, password in (("counted_by", "counter_password"), ("witness", "witness_password")):
            user = data.get(person)
            if user is not None and data.get(password):
                error = signature_error(self.request, signer=user, password=data[password], what="the count")
                if error:
                    self.add_error(password, error)
        return data

    def chips(self) -> dict[str, int]:
        return {f"{d:.2f}": self.cleaned_data[f"chips_{d:.2f}"] for d in DENOMINATIONS
                if self.cleaned_data.get(f"chips_{d:.2f}")}


class ReceiptForm(forms.Form):
    part = forms.ChoiceField(choices=FormPart.choices)
    serial_numbers = forms.CharField(help_text="Serial numbers, separated by spaces or commas.")

    def serials(self) -> list[int]:
        raw = self.cleaned_data["serial_numbers"].replace(",", " ").split()
        if not all(s.isdigit() for s in raw):
            raise forms.ValidationError({"serial_numbers": "Serial numbers are whole numbers."})
        return [int(s) for s in raw]


class CombineForm(forms.Form):
    """The counts made at closed tables whose contents a poker shift supervisor combined in one locked container, and
    the representative of security who carries it to the cage (requirement 14.19(e)-aggregate). Offers the counts
    still to combine (selectors.counts_to_combine) and the casino's security staff; takes any closed-table count or
    staff member of the casino, so that the service's refusal (a count combined meanwhile, a day closed) is the one
    shown."""

    counts = forms.ModelMultipleChoiceField(
        queryset=BadBeatCount.objects.none(), widget=forms.CheckboxSelectMultiple,
        label="Counts made at closed tables whose contents are in the container")
    transported_by = forms.ModelChoiceField(queryset=User.objects.none(), label="Transported to the cage by (security)")

    def __init__(self, *args, casino, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["counts"].queryset = BadBeatCount.objects.filter(casino=casino, method=CountMethod.CLOSED_TABLE)
        self.offered = list(counts_to_combine(casino=casino))
        self.fields["counts"].choices = [(c.pk, self.count_label(c, casino.zone)) for c in self.offered]
        staff = User.objects.filter(casino=casino, is_active=True).order_by("username")
        self.fields["transported_by"].queryset = staff
        self.fields["transported_by"].choices = [("", "---------")] + [
            (u.pk, str(u)) for u in staff.filter(groups__name=Role.SECURITY.value)]

    @staticmethod
    def count_label(count: BadBeatCount, zone) -> str:
        """E.g. "Table 4, counted 21:40 by dealer1 before supervisor2: $12.00 (count 17)"."""
        when = timezone.localtime(count.counted_at, zone).strftime("%H:%M")
        return (f"Table {count.table.number}, counted {when} by {count.counted_by} before {count.witness}: "
                f"{dollars(count.amount)} (count {count.pk})")


class VerifyAggregateForm(forms.Form):
    """The amount a cashier counted at the cage of a container, verifying its aggregate count (requirement
    14.19(e)-aggregate); an amount that differs comes back asking to confirm the variance (ask_to_confirm)."""

    amount = forms.DecimalField(max_digits=MONEY_MAX_DIGITS, decimal_places=MONEY_DECIMAL_PLACES, min_value=0,
                                label="Amount counted at the cage")
    #: The variance the page showed and asks to confirm (see ask_to_confirm); empty until a count has one.
    confirmed_variance = forms.DecimalField(required=False, widget=forms.HiddenInput, max_digits=MONEY_MAX_DIGITS,
                                            decimal_places=MONEY_DECIMAL_PLACES)

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        if self.data.get("confirmed_variance"):
            self._add_confirmation()

    def _add_confirmation(self) -> None:
        self.fields["confirm_variance"] = forms.BooleanField(
            required=False, label="I counted again: record the count with this variance")

    def ask_to_confirm(self, variance: Decimal) -> None:
        """Show the form again (after a post that recorded nothing) asking the cashier to confirm `variance` (Decimal
        dollars, the amount counted less the aggregate): the box unticked, `variance` kept in the form."""
        data = {name: value for name, value in self.data.items() if name != "confirm_variance"}
        data["confirmed_variance"] = f"{variance:.2f}"
        self.data = data
        self._add_confirmation()

    def variance_confirmed(self) -> Decimal:
        """The variance the cashier confirmed (Decimal dollars): the one the page showed when the box was ticked, else
        ZERO (a count that agrees with the aggregate needs no confirmation)."""
        if self.cleaned_data.get("confirm_variance") and self.cleaned_data.get("confirmed_variance") is not None:
            return Decimal(self.cleaned_data["confirmed_variance"])
        return ZERO
