"""The floor's forms of the seats board whose fields are printed by the project's form renderer (errors beside
their fields): a player added to a list (at the desk or the kiosk) and a list started."""
from typing import cast

from django import forms

from apps.tables.models import PokerTable

from .models import Waitlist, WaitlistSource


class AddPlayerForm(forms.Form):
    """A player put on a list: name or initials, a phone number only if given (services.add_to_list checks them)."""

    waitlist = forms.ModelChoiceField(queryset=Waitlist.objects.none(), label="List", empty_label=None)
    name = forms.CharField(max_length=40, label="Name or initials")
    phone = forms.CharField(max_length=20, required=False, label="Phone (only if given)")
    source = forms.ChoiceField(choices=WaitlistSource.choices, initial=WaitlistSource.IN_PERSON, label="Signed up")

    def __init__(self, *args, casino, kiosk: bool = False, **kwargs):
        super().__init__(*args, **kwargs)
        cast(forms.ModelChoiceField, self.fields["waitlist"]).queryset = (
            Waitlist.objects.filter(casino=casino).order_by("key"))
        if kiosk:
            del self.fields["source"]


class StartListForm(forms.Form):
    """A list for the game and limits a table posts (open or not), with a must-move table if the room runs one."""

    table = forms.ModelChoiceField(queryset=PokerTable.objects.none(), label="Game of table", empty_label=None)
    must_move_table = forms.ModelChoiceField(queryset=PokerTable.objects.none(), required=False,
                                             label="Must-move table (optional)")

    def __init__(self, *args, casino, **kwargs):
        super().__init__(*args, **kwargs)
        tables = PokerTable.objects.filter(casino=casino).order_by("number")
        self.fields["table"].queryset = tables
        self.fields["must_move_table"].queryset = tables
        self.fields["table"].label_from_instance = lambda t: f"Table {t.number}: {t.game_label} {t.limits_label}"
        self.fields["must_move_table"].label_from_instance = lambda t: f"Table {t.number}"
