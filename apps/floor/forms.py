"""The table page's forms: opening and closing a table for play (apps.tables.services.open_table, close_table)."""
from django import forms

from apps.casinos.models import User
from apps.core.roles import Role
from apps.tables.models import BettingStructure, Game, PokerTable

#: The posting a single-game table may change as it opens (apps.tables.services.open_table checks them as a whole).
POSTING = ("game", "betting_structure", "small_blind", "big_blind", "minimum_wager", "maximum_wager")


class TableOpenForm(forms.Form):
    """Open a table as posted or with another game and limits (a single-game table; a mixed-game table opens with
    its posted rotation), with its seats and the dealer in the box (N.J.A.C. 13:69F-14.17-limits-posted,
    14.17-raises-posted). The game's fields start at what is posted; an empty one keeps it; `changes()` gives only
    what differs from it."""

    game = forms.ChoiceField(choices=[("", "As posted"), *Game.choices], required=False)
    betting_structure = forms.ChoiceField(choices=[("", "As posted"), *BettingStructure.choices], required=False)
    small_blind = forms.DecimalField(max_digits=14, decimal_places=2, min_value=0, required=False)
    big_blind = forms.DecimalField(max_digits=14, decimal_places=2, min_value=0, required=False)
    minimum_wager = forms.DecimalField(max_digits=14, decimal_places=2, min_value=0, required=False)
    maximum_wager = forms.DecimalField(max_digits=14, decimal_places=2, min_value=0, required=False)
    seats = forms.IntegerField(min_value=2, max_value=11, required=False,
                               help_text="Empty: the seats posted now.")
    dealer = forms.ModelChoiceField(queryset=User.objects.none(), required=False, label="Dealer in the box")

    def __init__(self, *args, table: PokerTable, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        dealers = User.objects.filter(casino_id=table.casino_id, groups__name=Role.DEALER.value, is_active=True)
        self.fields["dealer"].queryset = dealers.order_by("last_name", "first_name", "pk")  # type: ignore[attr-defined]
        self.table = table
        if table.is_mixed:
            for name in POSTING:
                del self.fields[name]
        else:
            for name in POSTING:
                self.fields[name].initial = getattr(table, name)

    def changes(self) -> dict:
        """The cleaned values that open_table takes: the posting's fields that differ from the table's, the seats
        when given and the dealer when chosen."""
        data = self.cleaned_data
        out = {name: data[name] for name in POSTING
               if data.get(name) not in (None, "") and data[name] != getattr(self.table, name)}
        if data.get("seats") is not None:
            out["seats"] = data["seats"]
        if data.get("dealer") is not None:
            out["dealer"] = data["dealer"]
        return out


class TableCloseForm(forms.Form):
    """Close a table: why, the drop box removed for the count, the decks collected, the players gone (what
    apps.tables.services.close_table asks)."""

    reason = forms.CharField(max_length=300)
    drop_box_removed = forms.BooleanField(label="Drop box removed for the count (14.19(d)1)")
    decks_collected = forms.BooleanField(required=False, label="Decks collected from the table (14.2(a))")
    players_unseated = forms.BooleanField(required=False, label="Players have left or moved (their seats are vacated)")
