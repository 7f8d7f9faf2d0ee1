"""The supervisor's form to plan the shift's dealer rotation: each error is shown beside its field."""
from datetime import datetime
from typing import cast

from django import forms
from django.core.exceptions import BadRequest

from apps.casinos.models import Casino, User
from apps.casinos.selectors import requested_moment
from apps.core.roles import Role
from apps.tables.models import PokerTable


class DealerChoice(forms.ModelMultipleChoiceField):
    def label_from_instance(self, obj: User) -> str:
        return obj.get_full_name() or obj.username


class TableChoice(forms.ModelMultipleChoiceField):
    def label_from_instance(self, obj: PokerTable) -> str:
        return f"Table {obj.number}"


class RotationPlanForm(forms.Form):
    """Start (the casino's local wall-clock time, YYYY-MM-DDTHH:MM), hours (1 to 12), the length of a down (15 to 60
    minutes), the dealers and the open tables of the casino. `cleaned_data["start"]` is aware, in the casino's zone;
    the service's own refusals (DomainError naming a field) are added to that field by the view."""

    start = forms.CharField(label="Start", widget=forms.DateTimeInput(attrs={"type": "datetime-local"}),
                            help_text="The casino's local time.")
    hours = forms.IntegerField(min_value=1, max_value=12, initial=8,
                               widget=forms.NumberInput(attrs={"class": "short"}))
    down_minutes = forms.IntegerField(label="Down (minutes)", min_value=15, max_value=60, initial=30,
                                      widget=forms.NumberInput(attrs={"class": "short"}))
    dealers = DealerChoice(queryset=User.objects.none(), widget=forms.CheckboxSelectMultiple,
                           error_messages={"required": "Choose the dealers of the shift."})
    tables = TableChoice(queryset=PokerTable.objects.none(), widget=forms.CheckboxSelectMultiple,
                         error_messages={"required": "Choose the tables to deal."})

    def __init__(self, *args, casino: Casino, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.casino = casino
        cast(forms.ModelChoiceField, self.fields["dealers"]).queryset = (
            User.objects.filter(casino=casino, groups__name=Role.DEALER.value).order_by("username"))
        cast(forms.ModelChoiceField, self.fields["tables"]).queryset = (
            PokerTable.objects.filter(casino=casino, is_open=True).order_by("number"))

    def clean_start(self) -> datetime:
        try:
            moment = requested_moment(casino=self.casino, text=self.cleaned_data["start"])
        except BadRequest as exc:
            raise forms.ValidationError(str(exc).removeprefix("start: ")) from exc
        if moment is None:
            raise forms.ValidationError("Give the start of the rotation.")
        return moment
