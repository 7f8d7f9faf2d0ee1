"""Reacting to the hand feed: the deck each round was dealt with."""
from apps.core.exceptions import DomainError

from .models import Deck, DeckStatus, RoundDeck


def record_round_deck(sender, *, round_of_play, extra, **kwargs) -> None:
    """Link a round to the deck the feed says was dealt; an unknown deck or one not at the table is refused."""
    serial = (extra or {}).get("deck")
    if not serial:
        return
    deck = Deck.objects.filter(casino_id=round_of_play.table.casino_id, serial=serial).first()
    if deck is None or deck.table_id != round_of_play.table_id or deck.status != DeckStatus.AT_TABLE:
        raise DomainError(f"Deck {serial} is not at table {round_of_play.table.number}.", field="deck")
    RoundDeck.objects.create(round_of_play=round_of_play, deck=deck)
