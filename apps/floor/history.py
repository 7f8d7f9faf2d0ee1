"""The table page's history tab (apps.core.history): the table's posted game, limits, seats and open/closed state,
the games of its rotation and its rake, who changed what, when, from what to what (N.J.A.C. 13:69F-14.8, 14.14(c)-sign,
14.17-limits-posted, 14.17-raises-posted), from their pghistory events. Read-only."""
from __future__ import annotations

from decimal import Decimal

from apps.core.history import Source, events_of
from apps.core.money import dollars
from apps.rake.models import RakeStructure
from apps.tables.models import PokerTable, RotationGame, TableStatusChange

#: A game as a table (or a game of its rotation) posts it (14.8, 14.17, 14.19(b)).
POSTING_FIELDS = {
    "game": "Game", "betting_structure": "Betting structure", "small_blind": "Small blind", "big_blind": "Big blind",
    "ante": "Ante", "bring_in": "Bring-in", "minimum_wager": "Minimum wager", "maximum_wager": "Maximum wager",
    "raise_cap": "Raises per betting round", "bad_beat_participation": "Bad beat payout",
    "straddles": "Straddles", "maximum_straddles": "Most straddles a round", "bomb_pot_ante": "Bomb-pot ante",
}
TABLE_FIELDS = {
    "number": "Number", "is_open": "Open", "opened_at": "Opened at", "seats": "Seats", "location": "Area",
    "rotation_name": "Rotation", "rounds_per_game": "Rounds of each game", **POSTING_FIELDS,
    "kill_option": "Kill", "kill_pot_minimum": "Kill pot", "uses_automated_shuffler": "Automated shuffler",
    "counting_shuffler_approval": "Counting shuffler's approval",
    "contribution_container_capacity": "Contribution container capacity",
}
#: An opening or closing of the table: who, when, why (14.8, 14.17; the closing's drop box, 14.19(d)1; decks, 14.2(a)).
STATUS_FIELDS = {
    "kind": "Opened or closed", "at": "At", "by": "By", "reason": "Reason", "game": "Game", "limits": "Limits",
    "seats": "Seats", "dealer": "Dealer in the box", "decks_collected": "Decks collected",
    "players_unseated": "Seats vacated",
    "drop_box_removed": "Drop box removed for the count",
}
ROTATION_FIELDS = {"position": "Place in the rotation", **POSTING_FIELDS}
#: The rake posted at the table or at one game of its rotation (14.14(b), (c)).
RAKE_FIELDS = {
    "method": "Method", "percentage": "Percentage", "levels": "Levels", "maximum": "Maximum per pot",
    "minimum_pot": "Pots raked from", "increment": "Rounded down to", "rotation_game": "Game of the rotation",
    "no_flop_no_drop": "No flop, no drop",
}


def _percent(value) -> str:
    return f"{Decimal(value).normalize():f}%"


def _levels(levels: list[dict]) -> str:
    """Incremental rake levels as posted: "$1.00 at $20.00, $2.00 at $50.00"."""
    return ", ".join(f"{dollars(level['take'])} at {dollars(level['pot'])}" for level in levels)


def table_sources(*, table: PokerTable, user) -> list:
    """The table's events, its rotation's games' and (for a `user` who may read the rake, rake.view_rakestructure)
    its rake structures': for the table page's history tab (tables.view_pokertable)."""
    games = {g.pk: g.game_label for g in RotationGame.objects.filter(table=table)}

    def game_of(pk) -> str:
        return games.get(pk, f"game #{pk} (no longer in the rotation)")

    sources = [
        Source(events=events_of(PokerTable).filter(pgh_obj_id=table.pk), fields=TABLE_FIELDS,
               record=f"Table {table.number}", created="Set up"),
        Source(events=events_of(RotationGame).filter(table_id=table.pk), fields=ROTATION_FIELDS,
               record=lambda e: f"Rotation: {game_of(e.pgh_obj_id)}", created="Added to the rotation"),
    ]
    if user.has_perm("rake.view_rakestructure"):
        sources.append(Source(
            events=events_of(RakeStructure).filter(table_id=table.pk), fields=RAKE_FIELDS,
            record=lambda e: f"Rake: {game_of(e.rotation_game_id)}" if e.rotation_game_id else "Rake",
            created="Posted", formats={"percentage": _percent, "levels": _levels, "rotation_game": game_of}))
    sources.append(Source(events=events_of(TableStatusChange).filter(table_id=table.pk), fields=STATUS_FIELDS,
                          record=lambda e: f"Table {table.number} {e.kind}", created="Recorded"))
    return sources
