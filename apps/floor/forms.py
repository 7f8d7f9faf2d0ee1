"""The table page's forms: opening and closing a table for play (apps.tables.services.open_table, close_table)."""
from django import forms

from apps.casinos.models import User
from apps.core.roles import Role
from apps.tables.models import PokerTable


class TableOpenForm(forms.Form):
    """Open a table as posted, with its seats and the dealer in the box (N.J.A.C. 13:69F-14.8, 14.17)."""

    seats = forms.IntegerField(min_value=2, max_value=11, required=False,
                               help_text="Empty: the seats posted now.")
    dealer = forms.ModelChoiceField(queryset=User.objects.none(), required=False, label="Dealer in the box")

    def __init__(self, *args, table: PokerTable, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        dealers = User.objects.filter(casino_id=table.casino_id, groups__name=Role.DEALER.value, is_active=True)
        self.fields["dealer"].queryset = dealers.order_by("last_name", "first_name", "pk")  # type: ignore[attr-defined]


class TableCloseForm(forms.Form):
    """Close a table: why, the drop box removed for the count (14.19(d)1), the decks collected (14.2(a))."""

    reason = forms.CharField(max_length=300)
    drop_box_removed = forms.BooleanField(label="Drop box removed for the count (14.19(d)1)")
    decks_collected = forms.BooleanField(required=False, label="Decks collected from the table (14.2(a))")
