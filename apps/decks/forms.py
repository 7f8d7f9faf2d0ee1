from typing import cast

from django import forms

from apps.casinos.models import Casino
from apps.core.exceptions import DomainError
from apps.core.views import add_domain_error
from apps.tables.models import PokerTable

from .models import Deck, DeckEventKind, DeckStatus
from .services import FULL_DECK, record_deck_event


class DeckEventForm(forms.Form):
    """One deck's event, recorded from its row of the board or of the dealer's home. Each deck's form has its own
    ids (`auto_id`, e.g. "deck-12-%s"), so that its errors sit beside its own fields (aria-describedby).

    A count of any other number than 52 pulls the deck from play (14.6(e)4-wrong-count): the form first comes back
    asking to confirm (`confirmation`, the sentence; `confirm_count` then carries the number confirmed), and once
    recorded says so as a warning (`pulled`). At a table whose shuffler is approved to count the cards as it shuffles, a
    count may be the shuffler's (`by_shuffler`, 14.6(e)4-counting-shuffler); the templates offer the box only there."""

    kind = forms.ChoiceField(label="Event", choices=[(k.value, k.label) for k in DeckEventKind
                                                     if k not in (DeckEventKind.RECEIVED, DeckEventKind.ASSIGNED)],
                             widget=forms.Select(attrs={"aria-label": "Event"}))
    card_count = forms.IntegerField(label="Cards counted", required=False, min_value=0, max_value=60,
                                    widget=forms.NumberInput(attrs={"aria-label": "Cards counted",
                                                                    "placeholder": "cards", "class": "short"}))
    by_shuffler = forms.BooleanField(label="Counted by the table's shuffler", required=False)
    note = forms.CharField(required=False, max_length=300)
    confirm_count = forms.IntegerField(required=False, widget=forms.HiddenInput)  # a wrong count, confirmed

    confirmation = ""  # the question a wrong count asks before the deck is pulled
    pulled = False  # recorded: a wrong count pulled the deck

    def record(self, *, deck: Deck, by) -> str | None:
        """Record the event the form holds (services.record_deck_event, which says which role may record which event;
        a count may be the table's counting shuffler's, 14.6(e)4-counting-shuffler): the sentence telling it was
        recorded, or None with nothing written and either the form's errors (the service's refusal at the field it
        names) or, for a count of other than 52 cards not yet confirmed for that number, `confirmation` set: "51 cards
        counted, a deck has 52: the deck will be pulled from play — confirm" (14.6(e)4-wrong-count). Confirmed, the
        deck is pulled, `pulled` is set and the sentence says so."""
        if not self.is_valid():
            return None
        data = self.cleaned_data
        kind, count = data["kind"], data["card_count"]
        wrong = kind == DeckEventKind.COUNTED and count is not None and count != FULL_DECK
        counted = f"{count} card{'' if count == 1 else 's'} counted, a deck has {FULL_DECK}"
        if wrong and data["confirm_count"] != count:
            self.confirmation = f"{counted}: the deck will be pulled from play — confirm"
            return None
        table = deck.table
        try:
            record_deck_event(deck=deck, by=by, kind=kind, card_count=count, note=data["note"],
                              by_shuffler=data["by_shuffler"])
        except DomainError as exc:
            add_domain_error(self, exc)
            return None
        if wrong:
            self.pulled = True
            where = f" from table {table.number}" if table is not None else ""
            return (f"Deck {deck.serial}: {counted}. The deck was pulled from play{where} (14.6(e)4): put a "
                    "replacement deck in use.")
        return f"Deck {deck.serial}: {DeckEventKind(kind).label} recorded."


class ReceiveDeckForm(forms.Form):
    serial = forms.CharField(max_length=40)
    back_colour = forms.CharField(max_length=30)
    back_design = forms.CharField(max_length=60, required=False)


class StoredDeckChoice(forms.ModelChoiceField):
    def label_from_instance(self, obj: Deck) -> str:
        return f"{obj.serial} — {obj.back_colour} {obj.back_design}".strip()


class TableChoice(forms.ModelChoiceField):
    def label_from_instance(self, obj: PokerTable) -> str:
        return f"Table {obj.number}"


class AssignDeckForm(forms.Form):
    """A deck from the casino's storage and one of its open tables (N.J.A.C. 13:69F-14.2(a)-two-decks)."""

    deck = StoredDeckChoice(queryset=Deck.objects.none(), empty_label=None,
                            error_messages={"invalid_choice": "Choose a deck in storage."})
    table = TableChoice(queryset=PokerTable.objects.none(), empty_label=None,
                        error_messages={"invalid_choice": "Choose an open table."})

    def __init__(self, *args, casino: Casino, **kwargs) -> None:
        super().__init__(*args, auto_id="assign-%s", **kwargs)  # type: ignore[misc]  # args: data and files only
        cast(forms.ModelChoiceField, self.fields["deck"]).queryset = Deck.objects.filter(casino=casino, status=DeckStatus.IN_STORAGE).order_by("serial")
        cast(forms.ModelChoiceField, self.fields["table"]).queryset = (
            PokerTable.objects.filter(casino=casino, is_open=True).order_by("number"))
