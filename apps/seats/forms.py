"""The floor's forms of the seats board: a player added to a list (at the desk or the kiosk) and a list started,
whose fields are printed by the project's form renderer (errors beside their fields); and, one per player on a list,
why the player is passed over and why removed (their fields printed in the row)."""
from datetime import datetime
from typing import cast

from django import forms

from apps.tables.models import PokerTable

from .models import RemoveReason, Waitlist, WaitlistEntry, WaitlistSource, pass_reasons_for


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


class PassOverForm(forms.Form):
    """Why a called player is passed over: only the reasons that fit the player's state at `now`
    (models.PASS_REASONS, which services.pass_over enforces too); no reason chosen in advance."""

    reason = forms.ChoiceField(label="Why passed over", error_messages={
        "required": "Choose why the player is passed over.",
        "invalid_choice": "That reason does not fit this player now: choose one of the list."})

    def __init__(self, *args, entry: WaitlistEntry, now: datetime, **kwargs):
        kwargs.setdefault("auto_id", f"id_pass_{entry.pk}_%s")
        super().__init__(*args, **kwargs)
        field = cast(forms.ChoiceField, self.fields["reason"])
        field.choices = [("", "Why?"), *pass_reasons_for(entry, now)]
        field.widget.attrs["aria-label"] = f"Why {entry.initials or 'the player'} is passed over"


class RemoveForm(forms.Form):
    """Why a player is taken off a list (RemoveReason; Other needs a note, no names). services.remove_from_list
    checks the same."""

    reason = forms.ChoiceField(label="Why", choices=[("", "Why?"), *RemoveReason.choices], error_messages={
        "required": "Choose why the player is removed.", "invalid_choice": "Choose why the player is removed."})
    note = forms.CharField(label="Note (no names)", max_length=200, required=False)

    def __init__(self, *args, entry: WaitlistEntry, **kwargs):
        kwargs.setdefault("auto_id", f"id_remove_{entry.pk}_%s")
        super().__init__(*args, **kwargs)

    def clean(self):
        data = super().clean() or {}
        if data.get("reason") == RemoveReason.OTHER and not (data.get("note") or "").strip():
            self.add_error("note", "Say why in a few words (no names).")
        return data
