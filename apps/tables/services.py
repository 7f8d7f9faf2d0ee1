"""Writes about poker tables."""
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import datetime
from decimal import Decimal
from typing import Any

from django.db import IntegrityError, models, transaction
from django.utils import timezone

from apps.casinos.models import Casino, User
from apps.core.exceptions import AlreadyRecorded, DomainError, broken_constraint
from apps.core.roles import Role

from .closing import closing_blocked, keepers
from .models import (
    SEAT_MAXIMUM,
    BettingStructure,
    Game,
    KillOption,
    PokerTable,
    RotationGame,
    StraddleOption,
    TableStatusChange,
    TableStatusKind,
)

#: The fields of a game as posted (GamePosting) that a rotation entry may give.
POSTING_FIELDS = ("game", "betting_structure", "small_blind", "big_blind", "ante", "bring_in", "minimum_wager",
                  "maximum_wager", "raise_cap", "bad_beat_participation", "straddles", "maximum_straddles",
                  "bomb_pot_ante")
#: Games with a flop, the only ones that deal a bomb pot (every player antes, no betting before the flop).
FLOP_GAMES = (Game.HOLDEM, Game.OMAHA, Game.OMAHA_HILO8)
#: The most straddles a game may post for one round.
MOST_STRADDLES = 10


def verify_straddles_and_bomb_pot(*, game: str, big_blind: Decimal, straddles: str = StraddleOption.NONE,
                                  maximum_straddles: int = 1, bomb_pot_ante: Decimal = Decimal("0.00"),
                                  where: str = "") -> None:
    """Check the straddles and the bomb pot a game posts (N.J.A.C. 13:69F-14.17-limits-posted: the posted forced
    bets). A straddle raises the big blind: allowed only where the game posts blinds; one to MOST_STRADDLES straddles
    a round, exactly one on the button. A bomb pot (bomb_pot_ante above $0.00) is dealt only in a game with a flop.
    `where` prefixes the field (e.g. "rotation[1]."). Raises DomainError naming the field."""
    if straddles not in StraddleOption.values:
        raise DomainError(f"Choose one of {', '.join(StraddleOption.values)}.", field=f"{where}straddles")
    if straddles != StraddleOption.NONE:
        if not big_blind:
            raise DomainError("A straddle raises the big blind: only a game with posted blinds allows it.",
                              field=f"{where}straddles")
        if not 1 <= maximum_straddles <= MOST_STRADDLES:
            raise DomainError(f"Allow 1 to {MOST_STRADDLES} straddles a round.", field=f"{where}maximum_straddles")
        if straddles == StraddleOption.BUTTON and maximum_straddles != 1:
            raise DomainError("The button straddles once: post one straddle at most.", field=f"{where}maximum_straddles")
    if bomb_pot_ante < 0:
        raise DomainError("An amount may not be negative.", field=f"{where}bomb_pot_ante")
    if bomb_pot_ante and game not in FLOP_GAMES:
        raise DomainError(f"A bomb pot is dealt in a game with a flop, not in {Game(game).label}.",
                          field=f"{where}bomb_pot_ante")


def verify_table_configuration(*, game: str, seats: int, minimum_wager: Decimal,
                               maximum_wager: Decimal | None, kill_option: str = KillOption.NONE,
                               kill_pot_minimum: Decimal | None = None) -> None:
    """Check a table's posted configuration: a game 13:69F permits (`verify_permitted_game`), its seats
    (`verify_seats`), a maximum wager not below the minimum wager, and a kill only where it is offered
    (`verify_kill`). Wagers are Decimal dollars. Raises DomainError naming the field."""
    verify_permitted_game(game)
    verify_seats(game=game, seats=seats)
    if maximum_wager is not None and maximum_wager < minimum_wager:
        raise DomainError("The maximum wager may not be below the minimum wager (14.17).", field="maximum_wager")
    verify_kill(game=game, kill_option=kill_option, kill_pot_minimum=kill_pot_minimum)


def verify_permitted_game(game: object, *, field: str = "game") -> str:
    """`game` if 13:69F authorises it (N.J.A.C. 13:69F-14.8(b)): one of `Game`'s values, the games the subchapter
    lists. Raises DomainError naming `field` ("game", "rotation[2].game") for any other."""
    if not isinstance(game, str) or game not in SEAT_MAXIMUM:
        raise DomainError(f"Unknown game {game!r}; N.J.A.C. 13:69F-14.8 lists the permissible games.", field=field)
    return game


def verify_seats(*, game: str, seats: int) -> None:
    """The seats a table of `game` (a known game, SEAT_MAXIMUM's key) posts: at least 2, for two players at least
    (N.J.A.C. 13:69F-14.6(b)-two-to-eleven), and no more than the game's maximum (`_check_seat_maximum`). Raises
    DomainError (field "seats") naming the game's clause."""
    if seats < 2:
        raise _seats_refused(game)
    _check_seat_maximum(game=game, seats=seats)


def _check_seat_maximum(*, game: str, seats: int) -> None:
    """No more seats than the game seats players: hold'em 11 (N.J.A.C. 13:69F-14.10(b)-seat-maximum), Omaha 10
    (14.11(b)-seat-maximum), seven-card stud 9 (14.9(b)-seat-maximum), five-card draw 8 (14.12(b)-seat-maximum),
    triple draw 7 (14.12A(b)-seat-maximum), badugi 9 (14.12B(b)-seat-maximum), five-card stud 8
    (14.13(b)-seat-maximum), mambo stud 11 (14.13A(b)-seat-maximum). Raises DomainError (field "seats") naming the
    game's clause."""
    if seats > SEAT_MAXIMUM[game][0]:
        raise _seats_refused(game)


def _seats_refused(game: str) -> DomainError:
    maximum, clause = SEAT_MAXIMUM[game]
    return DomainError(f"This game seats 2 to {maximum} players (N.J.A.C. 13:69F-{clause}).", field="seats")


def verify_kill(*, game: str, kill_option: str, kill_pot_minimum: Decimal | None) -> None:
    """A kill or half-kill is offered only in Omaha high-low split eight or better, with the pot amount (Decimal
    dollars above $0.00) that qualifies for it (N.J.A.C. 13:69F-14.11(i)-placed). Raises DomainError naming the
    field ("kill_option", "kill_pot_minimum")."""
    if kill_option != KillOption.NONE:
        if game != Game.OMAHA_HILO8:
            raise DomainError("A kill or half-kill is offered only in Omaha high-low split eight or better "
                              "(N.J.A.C. 13:69F-14.11(i)).", field="kill_option")
        if kill_pot_minimum is None or kill_pot_minimum <= 0:
            raise DomainError("Give the pot amount that qualifies for the kill (14.11(i)).", field="kill_pot_minimum")


def verify_container_capacity(capacity: Decimal | None) -> None:
    """Check a table's posted contribution container capacity (Decimal dollars, N.J.A.C. 13:69F-14.19(f)1-full): empty
    (no container: the bad beat payout box of 14.19(d)-place) or above $0.00. Raises DomainError (field
    "contribution_container_capacity")."""
    if capacity is not None and capacity <= 0:
        raise DomainError("A contribution container holds more than $0.00: post its capacity, or leave it empty.",
                          field="contribution_container_capacity")


def verify_counting_shuffler(*, uses_automated_shuffler: bool, approval: str) -> str:
    """The Division's approval of a table's counting shuffler, stripped (14.6(e)4-counting-shuffler): "" when the
    table's shuffler does not count. Raises DomainError (field "counting_shuffler_approval") for an approval at a
    table without an automated shuffler, or longer than its column."""
    approval = (approval or "").strip()
    if approval and not uses_automated_shuffler:
        raise DomainError("A counting shuffler is the table's automated shuffler: record the table as using one "
                          "first (N.J.A.C. 13:69F-14.6(e)4).", field="counting_shuffler_approval")
    longest = PokerTable._meta.get_field("counting_shuffler_approval").max_length
    if longest is not None and len(approval) > longest:
        raise DomainError(f"Give the approval in at most {longest} characters.", field="counting_shuffler_approval")
    return approval


def _check_rotation_seats(*, game: str, seats: int) -> None:
    """A mixed-game table's seats within the maximum of each game of its rotation, so of its smallest: hold'em 11
    (N.J.A.C. 13:69F-14.10(b)-seat-maximum), Omaha 10 (14.11(b)-seat-maximum), seven-card stud 9
    (14.9(b)-seat-maximum), five-card draw 8 (14.12(b)-seat-maximum), triple draw 7 (14.12A(b)-seat-maximum), badugi
    9 (14.12B(b)-seat-maximum), five-card stud 8 (14.13(b)-seat-maximum), mambo stud 11 (14.13A(b)-seat-maximum).
    Raises DomainError (field "seats") naming the game and its clause."""
    maximum, clause = SEAT_MAXIMUM[game]
    if seats > maximum:
        raise DomainError(f"{Game(game).label} seats at most {maximum} players (N.J.A.C. 13:69F-{clause}): a "
                          f"mixed-game table seats no more than its smallest game.", field="seats")


def verify_rotation(*, games: list[dict], seats: int) -> list[dict]:
    """Check a mixed-game table's posted rotation (N.J.A.C. 13:69F-14.17-limits-posted, 14.17-raises-posted): each
    game one 13:69F permits (`verify_permitted_game`); return its entries normalised.

    games: [{"game", "betting_structure", "minimum_wager", "maximum_wager", "small_blind", "big_blind", "ante",
    "bring_in", "raise_cap", "bad_beat_participation", "straddles", "maximum_straddles", "bomb_pot_ante"}, ...] in
    the order dealt; at least two; a game may appear twice only in different betting structures (no-limit and limit
    hold 'em). The table's seats may not exceed the smallest seat maximum of the games (`_check_rotation_seats`);
    straddles and bomb pots as verify_straddles_and_bomb_pot allows them. Raises DomainError naming the field, e.g. "rotation[2].game". """
    if len(games) < 2:
        raise DomainError("A rotation deals at least two games; a table of one game posts it as its game.",
                          field="rotation")
    normalised, seen = [], set()
    for index, entry in enumerate(games):
        where = f"rotation[{index}]"
        unknown = set(entry) - set(POSTING_FIELDS)
        if unknown:
            raise DomainError(f"Not a posted limit: {', '.join(sorted(unknown))}.", field=f"{where}.{sorted(unknown)[0]}")
        game = verify_permitted_game(entry.get("game"), field=f"{where}.game")
        structure = entry.get("betting_structure", BettingStructure.FIXED_LIMIT)
        if structure not in BettingStructure.values:
            raise DomainError(f"Choose one of {', '.join(BettingStructure.values)}.", field=f"{where}.betting_structure")
        if (game, structure) in seen:
            raise DomainError(f"{Game(game).label} is already in the rotation in this betting structure.",
                              field=f"{where}.game")
        seen.add((game, structure))
        _check_rotation_seats(game=game, seats=seats)
        if entry.get("minimum_wager") is None:
            raise DomainError("Give the posted minimum wager (14.17).", field=f"{where}.minimum_wager")
        amounts = {}
        for name in ("small_blind", "big_blind", "ante", "bring_in", "minimum_wager", "maximum_wager", "bomb_pot_ante"):
            value = entry.get(name)
            if value is None:
                continue
            try:
                amounts[name] = Decimal(str(value)).quantize(Decimal("0.01"))
            except ArithmeticError as exc:
                raise DomainError("Give an amount in dollars and cents.", field=f"{where}.{name}") from exc
            if amounts[name] < 0:
                raise DomainError("An amount may not be negative.", field=f"{where}.{name}")
        if amounts.get("maximum_wager") is not None and amounts["maximum_wager"] < amounts["minimum_wager"]:
            raise DomainError("The maximum wager may not be below the minimum wager (14.17).",
                              field=f"{where}.maximum_wager")
        verify_straddles_and_bomb_pot(
            game=game, big_blind=amounts.get("big_blind", Decimal("0.00")),
            straddles=entry.get("straddles", StraddleOption.NONE), maximum_straddles=entry.get("maximum_straddles", 1),
            bomb_pot_ante=amounts.get("bomb_pot_ante", Decimal("0.00")), where=f"{where}.")
        normalised.append({**entry, **amounts, "betting_structure": structure})
    return normalised


@transaction.atomic
def create_table(*, casino: Casino, number: int, game: str = Game.HOLDEM, seats: int | None = None,
                 minimum_wager: Decimal | None = None, maximum_wager: Decimal | None = None,
                 rotation: list[dict] | None = None, rotation_name: str = "", **posted: object) -> PokerTable:
    """Create a table with its posted game and limits (N.J.A.C. 13:69F-14.17-limits-posted,
    14.17-raises-posted), or a mixed-game table with `rotation_name` and its `rotation` (see verify_rotation; the
    table's own game is then the rotation's first). Without `seats`, the table offers 9 seats or its game's maximum
    when smaller (the smallest of the rotation's). Raises DomainError naming the field; AlreadyRecorded (409, the
    table's id) for a number the casino already has, also when another request takes it at the same moment."""
    if existing := PokerTable.objects.filter(casino=casino, number=number).values_list("pk", flat=True).first():
        raise AlreadyRecorded(f"Table {number} already exists.", field="number", existing_id=existing)
    verify_container_capacity(posted.get("contribution_container_capacity"))  # type: ignore[arg-type]
    if "counting_shuffler_approval" in posted:
        posted["counting_shuffler_approval"] = verify_counting_shuffler(
            uses_automated_shuffler=bool(posted.get("uses_automated_shuffler")),
            approval=str(posted["counting_shuffler_approval"]))
    if seats is None:
        games: list[Any] = [entry.get("game") for entry in rotation or ()] or [game]
        seats = min(9, *(SEAT_MAXIMUM.get(g, (9, ""))[0] for g in games))
    if rotation_name.strip() and not rotation:
        raise DomainError("Post the games of the rotation, in the order dealt.", field="rotation")
    if rotation:
        if not rotation_name.strip():
            raise DomainError("Name the rotation, e.g. H.O.R.S.E.", field="rotation_name")
        entries = verify_rotation(games=rotation, seats=seats)
        if posted.get("kill_option", KillOption.NONE) != KillOption.NONE:
            raise DomainError("A kill is offered at a table of Omaha high-low split eight or better alone "
                              "(N.J.A.C. 13:69F-14.11(i)).", field="kill_option")
        first = entries[0]
        with _numbered(casino_id=casino.pk, number=number):
            table = PokerTable.objects.create(
                casino=casino, number=number, seats=seats, rotation_name=rotation_name.strip()[:60],
                **{k: v for k, v in posted.items() if k not in POSTING_FIELDS},
                **{k: first[k] for k in POSTING_FIELDS if k in first})
        RotationGame.objects.bulk_create([RotationGame(table=table, position=i + 1, **entry)
                                          for i, entry in enumerate(entries)])
        return table
    if minimum_wager is None:
        raise DomainError("Give the posted minimum wager (14.17).", field="minimum_wager")
    verify_table_configuration(game=game, seats=seats, minimum_wager=minimum_wager, maximum_wager=maximum_wager,
                               kill_option=str(posted.get("kill_option", KillOption.NONE)),
                               kill_pot_minimum=posted.get("kill_pot_minimum"))  # type: ignore[arg-type]
    verify_straddles_and_bomb_pot(
        game=game, big_blind=posted.get("big_blind") or Decimal("0.00"),  # type: ignore[arg-type]
        straddles=str(posted.get("straddles", StraddleOption.NONE)),
        maximum_straddles=posted.get("maximum_straddles", 1),  # type: ignore[arg-type]
        bomb_pot_ante=posted.get("bomb_pot_ante") or Decimal("0.00"))  # type: ignore[arg-type]
    with _numbered(casino_id=casino.pk, number=number):
        return PokerTable.objects.create(casino=casino, number=number, game=game, seats=seats,
                                         minimum_wager=minimum_wager, maximum_wager=maximum_wager, **posted)


def _default(model: type[models.Model], name: str) -> Any:
    """The default of the column `name` of `model` (None for a name that is no column of its own)."""
    column = model._meta.get_field(name)
    return column.get_default() if isinstance(column, models.Field) else None


@contextmanager
def _numbered(*, casino_id: int, number: int, table_id: int | None = None) -> Iterator[None]:
    """A savepoint around the write of a table's number: when another request took the number a moment before (the
    unique constraint), AlreadyRecorded (409) with that table's id instead of an IntegrityError."""
    try:
        with transaction.atomic():
            yield
    except IntegrityError as exc:
        if broken_constraint(exc) != "table_number_unique_per_casino":
            raise
        others = PokerTable.objects.filter(casino_id=casino_id, number=number)
        existing = (others.exclude(pk=table_id) if table_id is not None else others).values_list("pk", flat=True).first()
        raise AlreadyRecorded(f"Table {number} already exists.", field="number", existing_id=existing) from exc


@transaction.atomic
def post_rotation(*, table: PokerTable, rotation_name: str, games: list[dict],
                  rounds_per_game: int | None = None) -> PokerTable:
    """Post (or change) a table's rotation of games (N.J.A.C. 13:69F-14.17-limits-posted, 14.17-raises-posted);
    the sign follows. A game already dealt keeps its record (its limits change); a game dropped from the rotation
    after rounds were dealt in it is refused. Raises DomainError naming the field."""
    table = PokerTable.objects.select_for_update().get(pk=table.pk)
    if not rotation_name.strip():
        raise DomainError("Name the rotation, e.g. H.O.R.S.E.", field="rotation_name")
    if table.kill_option != KillOption.NONE:
        raise DomainError("A table with a kill deals Omaha high-low split eight or better alone (14.11(i)).",
                          field="kill_option")
    entries = verify_rotation(games=games, seats=table.seats)
    existing = {(g.game, g.betting_structure): g for g in table.rotation.all()}
    wanted = {(e["game"], e["betting_structure"]) for e in entries}
    for key, old in existing.items():
        if key not in wanted:
            if old.rounds.exists():
                raise DomainError(f"{old.game_label} was dealt at this table: it stays in the rotation.",
                                  field="rotation")
            old.delete()
    RotationGame.objects.filter(table=table).update(position=models.F("position") + 1000)  # free the positions
    for position, entry in enumerate(entries, start=1):
        RotationGame.objects.update_or_create(
            table=table, game=entry["game"], betting_structure=entry["betting_structure"],
            defaults={"position": position, **{k: entry.get(k, _default(RotationGame, k))
                                               for k in POSTING_FIELDS if k not in ("game", "betting_structure")}})
    first = entries[0]
    for name in POSTING_FIELDS:
        setattr(table, name, first.get(name, _default(PokerTable, name)))
    table.rotation_name, table.rounds_per_game = rotation_name.strip()[:60], rounds_per_game
    table.save()
    return table


@transaction.atomic
def update_table(*, table: PokerTable, **changes: Any) -> PokerTable:
    """Change a table's posted configuration, re-checking it as a whole. Raises DomainError; AlreadyRecorded (409)
    for a number another table of the casino has."""
    table = PokerTable.objects.select_for_update().get(pk=table.pk)
    if table.is_mixed and set(changes) & set(POSTING_FIELDS):
        raise DomainError("A mixed-game table's games and limits are posted with its rotation.", field="rotation")
    if "number" in changes and (existing := PokerTable.objects.filter(casino_id=table.casino_id, number=changes["number"])
                                .exclude(pk=table.pk).values_list("pk", flat=True).first()):
        raise AlreadyRecorded(f"Table {changes['number']} already exists.", field="number", existing_id=existing)
    for name, value in changes.items():
        setattr(table, name, value)
    verify_container_capacity(table.contribution_container_capacity)
    table.counting_shuffler_approval = verify_counting_shuffler(
        uses_automated_shuffler=table.uses_automated_shuffler, approval=table.counting_shuffler_approval)
    if table.is_mixed:
        if not 2 <= table.seats <= table.seat_maximum:
            raise DomainError(f"This rotation seats 2 to {table.seat_maximum} players (its smallest game's "
                              "maximum).", field="seats")
    else:
        verify_table_configuration(game=table.game, seats=table.seats, minimum_wager=table.minimum_wager,
                                   maximum_wager=table.maximum_wager, kill_option=table.kill_option,
                                   kill_pot_minimum=table.kill_pot_minimum)
        verify_straddles_and_bomb_pot(game=table.game, big_blind=table.big_blind, straddles=table.straddles,
                                      maximum_straddles=table.maximum_straddles, bomb_pot_ante=table.bomb_pot_ante)
    with _numbered(casino_id=table.casino_id, number=table.number, table_id=table.pk):
        table.save()
    return table


class TableStateConflict(DomainError):
    """Opening an open table or closing a closed one: the API answers 409 ({field: [message]}); nothing is
    written."""

    status_code = 409


def _opening_of(table: PokerTable) -> tuple[str, str]:
    """What a table deals as posted now: (the game or rotation, the limits of each of its games), as text."""
    if table.is_mixed:
        return table.rotation_name, "; ".join(f"{p.game_label}: {p.limits_label}" for p in table.posted_games())[:300]
    return table.game_label[:60], table.limits_label[:300]


@transaction.atomic
def open_table(*, table: PokerTable, by: User | None = None, dealer: User | None = None,
               at: datetime | None = None, **changes: Any) -> PokerTable:
    """Open a closed table for play, as posted or with `changes` to its posting (a single-game table's game, betting
    structure, limits, forced bets, or its seats: checked as update_table checks them, the seats by verify_seats;
    N.J.A.C. 13:69F-14.17-limits-posted), with `dealer` in the box (a dealer of the table's casino); `by` is who opens it (None
    for the system). Records a TableStatusChange (opened) with the game, limits, seats and dealer it opened
    with. Raises TableStateConflict (409) when the table is open already, DomainError naming the field for a bad
    change or dealer (a mixed-game table posts its games with its rotation: apps.tables.services.post_rotation)."""
    table = PokerTable.objects.select_for_update().get(pk=table.pk)
    if table.is_open:
        raise TableStateConflict(f"Table {table.number} is open already.", field="table")
    if dealer is not None and (dealer.casino_id != table.casino_id or not dealer.has_role(Role.DEALER)):
        raise DomainError("The dealer in the box is a dealer of this casino.", field="dealer")
    if changes:
        table = update_table(table=table, **changes)
    at = at or timezone.now()
    table.is_open, table.opened_at = True, at
    table.save(update_fields=["is_open", "opened_at"])
    game, limits = _opening_of(table)
    TableStatusChange.objects.create(table=table, kind=TableStatusKind.OPENED, at=at, by=by, game=game,
                                     limits=limits, seats=table.seats, dealer=dealer)
    return table


def _check_nothing_blocks(table: PokerTable) -> None:
    """Refuse the closing of `table` while an app lists something of its own there that no confirmation takes away
    (apps.tables.closing.closing_blocked): the chips of its contribution container not yet counted, which are
    counted upon the table's closing, so before it closes (N.J.A.C. 13:69F-14.19(f)1-closing). Raises DomainError
    under the app's field ("container_counted") naming what is there and what to do."""
    for field, what in closing_blocked(table).items():
        raise DomainError(f"Still at table {table.number}: {what}", field=field)


def _check_drop_box_removed(drop_box_removed: bool) -> None:
    """The closing confirms the drop box was removed for the count, which is made at the closed table (N.J.A.C.
    13:69F-14.19(d)1-closed-table). Raises DomainError (field "drop_box_removed")."""
    if not drop_box_removed:
        raise DomainError("Confirm the drop box was removed for the count (N.J.A.C. 13:69F-14.19(d)1).",
                          field="drop_box_removed")


@transaction.atomic
def close_table(*, table: PokerTable, reason: str, drop_box_removed: bool, by: User | None = None,
                decks_collected: bool = False, players_unseated: bool = False,
                at: datetime | None = None) -> PokerTable:
    """Close an open table; `reason` (1 to 300 characters) says why, `by` who closes it (None for the system).

    A closed table keeps no decks (14.2(a)-two-decks keeps two at each open table) and seats no one. What no
    confirmation takes away refuses the closing until it is dealt with first (`_check_nothing_blocks`: the chips of
    its contribution container not yet counted). The apps above say what else is still at the table
    (apps.tables.closing: the decks app's decks, in use or standing by; the seats app's players): while anything is,
    the closing is refused with its list, unless its confirmation is given — `decks_collected` (the dealer or
    floorperson has collected them) and `players_unseated` (the players have left or moved) — and then each app
    records it (the decks removed from the table, the seats vacated), by `by`, who is then required.
    `drop_box_removed` confirms the drop box was removed for the count (`_check_drop_box_removed`); it is required.
    Records a TableStatusChange (closed) with the reason, the decks
    collected, the seats vacated and the confirmation. A round, a time charge or a seat at the closed table is then
    refused (apps.feed, apps.rake, apps.seats).

    Raises TableStateConflict (409) when the table is closed already; DomainError naming the field: `reason` blank,
    `drop_box_removed` not confirmed, `decks_collected` or `players_unseated` not confirmed while something of theirs
    is at the table (the message lists it), `container_counted` while its contribution container holds contributions
    not yet counted (the message names the amount)."""
    table = PokerTable.objects.select_for_update().get(pk=table.pk)
    if not table.is_open:
        raise TableStateConflict(f"Table {table.number} is closed already.", field="table")
    reason = reason.strip()
    if not reason:
        raise DomainError("Say why the table closes.", field="reason")
    if len(reason) > 300:
        raise DomainError("At most 300 characters.", field="reason")
    confirmed = {"decks_collected": decks_collected, "players_unseated": players_unseated}
    at = at or timezone.now()
    _check_nothing_blocks(table)
    left: dict[str, list[str]] = {}
    for keeper in keepers():
        items = keeper.still_at(table) if keeper.collect is not None else []
        if not items:
            continue
        if not confirmed.get(keeper.field):
            raise DomainError(f"Still at table {table.number}: {', '.join(items)}. {keeper.ask} and confirm.",
                              field=keeper.field)
        if by is None:
            raise DomainError("A person collects what is still at the table: close it signed in.", field=keeper.field)
        left[keeper.field] = items
    _check_drop_box_removed(drop_box_removed)
    for keeper in keepers():
        if keeper.field in left and by is not None and keeper.collect is not None:
            keeper.collect(table, by, at)
    table.is_open = False
    table.save(update_fields=["is_open"])
    TableStatusChange.objects.create(
        table=table, kind=TableStatusKind.CLOSED, at=at, by=by, reason=reason,
        decks_collected=", ".join(left.get("decks_collected", []))[:300],
        players_unseated=", ".join(left.get("players_unseated", []))[:300], drop_box_removed=True)
    return table
