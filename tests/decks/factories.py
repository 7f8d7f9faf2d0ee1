from datetime import datetime

from apps.decks.services import assign_deck, receive_deck


def deck_at_table(table, serial, colour, by, *, at: datetime | None = None):
    deck = receive_deck(casino=table.casino, serial=serial, back_colour=colour, by=by, at=at)
    return assign_deck(deck=deck, table=table, by=by, at=at)
