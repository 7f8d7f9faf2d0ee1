"""Reading PHH hand histories (the Poker Hand History standard) and accounting for their actions ourselves.

pokerkit defines the notation: the fields of a hand and which ones each variant requires (`HandHistory`), the
action grammar we follow (`d dh`, `d db`, `pN cc`, `cbr`, `f`, `pb`, `sd`, `sm`) and the text a hand is
identified by (`HandHistory.dumps`). We do not replay the hand in pokerkit: from the actions we work out what
each player put in each betting round, the uncalled bet given back (14.14(d)), dead antes, folds, the cards
held, discarded and drawn, and who showed what; the hand engine then judges the showdown. That takes in every
game of 14.8, 14.12A and 14.12B, including hands pokerkit cannot replay (all-in players showing before the last
card is dealt), at the speed of the TOML parser.

Money is Decimal dollars: a PHH amount is read as dollars and must have at most two decimal places.
"""
from __future__ import annotations

import hashlib
import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field, fields
from datetime import UTC, date, datetime, time, tzinfo
from decimal import Decimal, InvalidOperation
from math import inf
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

import rtoml
from django.core.exceptions import ValidationError
from pokerkit import HandHistory

from apps.core.validation import TextValidator
from apps.rounds.models import RoundSource
from apps.tables.models import BettingStructure, Game

from .types import DrawIn, PlayerIn, RoundIn

CENT = Decimal("0.01")
ZERO = Decimal("0.00")


class PhhError(ValueError):
    """A PHH text that cannot be taken in; the message names the hand and what is wrong."""


@dataclass(frozen=True, slots=True)
class Variant:
    """A PHH variant code and the New Jersey game it is dealt as (N.J.A.C. 13:69F-14.8, 14.12A, 14.12B).

    family: "board" (hold 'em, Omaha: a button and community cards), "stud" (up-cards and a bring-in) or "draw"
    (a button and draws); draws: how many draws the game has.
    """

    code: str
    game: str
    betting_structure: str
    family: str
    draws: int = 0

    @property
    def label(self) -> str:
        return f"{BettingStructure(self.betting_structure).label.lower()} {Game(self.game).label}"


#: The game part of a variant code, after the betting structure's letter (F, P, N): PHH's own codes (T, O,
#: O/8, 7S, 7S/8, R, 2L3D, 2L1D, B) and, for five-card draw (14.12), which PHH has no code for, 5CD (high)
#: and AL1D (ace-to-five low single draw), written the PHH way.
_GAMES: dict[str, tuple[str, str, int]] = {
    "T": (Game.HOLDEM, "board", 0), "O": (Game.OMAHA, "board", 0), "O/8": (Game.OMAHA_HILO8, "board", 0),
    "7S": (Game.STUD, "stud", 0), "7S/8": (Game.STUD_HILO8, "stud", 0), "R": (Game.STUD_LOW, "stud", 0),
    "2L3D": (Game.TRIPLE_DRAW_27, "draw", 3), "2L1D": (Game.SINGLE_DRAW_27, "draw", 1), "B": (Game.BADUGI, "draw", 3),
    "5CD": (Game.DRAW_HIGH, "draw", 1), "AL1D": (Game.DRAW_LOW, "draw", 1),
}
_STRUCTURES = {"F": BettingStructure.FIXED_LIMIT, "P": BettingStructure.POT_LIMIT, "N": BettingStructure.NO_LIMIT}
#: Variants of the PHH standard that no game of New Jersey matches, and why.
_NOT_NEW_JERSEY = {"S": "short-deck hold 'em (36 cards) is not a game of N.J.A.C. 13:69F-14.8"}


def variant_of(code: object) -> Variant:
    """The Variant of a PHH code, e.g. 'NT' -> no-limit hold 'em. Raises PhhError naming a code that no New
    Jersey game matches (e.g. 'NS', short-deck) or that is not a variant code at all."""
    text = str(code) if isinstance(code, str) else repr(code)
    structure, game = _STRUCTURES.get(text[:1]), _GAMES.get(text[1:])
    if structure is not None and game is not None:
        return Variant(code=text, game=game[0], betting_structure=structure, family=game[1], draws=game[2])
    reason = _NOT_NEW_JERSEY.get(text[1:]) if structure else None
    known = ", ".join(f"{s}{g}" for g in ("T", "O", "O/8", "7S", "7S/8", "R", "2L3D", "2L1D", "B", "5CD", "AL1D")
                      for s in ("F", "P", "N") if (s, g) in _USUAL)
    raise PhhError(f"variant {text!r} is not taken in: "
                   f"{reason or 'no game of N.J.A.C. 13:69F-14.8, 14.12A or 14.12B matches it'}; taken in: {known}.")


#: The usual betting structure of each game, listed in the message above (any of F, P, N is taken in).
_USUAL = {("F", "T"), ("N", "T"), ("P", "O"), ("F", "O/8"), ("F", "7S"), ("F", "7S/8"), ("F", "R"), ("F", "2L3D"),
          ("N", "2L1D"), ("F", "B"), ("F", "5CD"), ("F", "AL1D")}


@dataclass(frozen=True)
class ParsedHand:
    """One hand of a PHH source, accounted for and ready for the feed's pipeline."""

    label: str
    variant: Variant
    round_in: RoundIn
    finishing_stacks: tuple[Decimal, ...] | None
    stakes: Stakes


@dataclass(frozen=True, slots=True)
class Stakes:
    """The forced bets and bet sizes of a hand, to find the table that posts the same (Decimal dollars)."""

    small_blind: Decimal = ZERO
    big_blind: Decimal = ZERO
    ante: Decimal = ZERO
    bring_in: Decimal = ZERO
    small_bet: Decimal = ZERO
    big_bet: Decimal = ZERO

    def posted_at(self, posting) -> bool:
        """Whether a table's posted game (tables.models.GamePosting) has these forced bets and limits."""
        if self.bring_in:
            return posting.bring_in == self.bring_in and posting.ante == self.ante
        if posting.small_blind != self.small_blind or posting.big_blind != self.big_blind:
            return False
        return not self.small_bet or (posting.minimum_wager == self.small_bet
                                      and posting.maximum_wager in (None, self.big_bet))


@dataclass(frozen=True)
class RefusedHand:
    """A hand of a PHH source that is well formed but that no New Jersey game matches (e.g. short-deck)."""

    label: str
    variant: str
    reason: str
    source_digest: str


# --- the identity of a hand ----------------------------------------------------------------------------------

_FIELD_ORDER = [f.name for f in fields(HandHistory)]
_FIELD_NAMES = frozenset(_FIELD_ORDER)
_FIELD_RANK = {name: rank for rank, name in enumerate(_FIELD_ORDER)}
_OPTIONAL = frozenset(HandHistory.optional_field_names)


def _required_fields(variant: str, family: str, structure: str) -> tuple[str, ...]:
    known = HandHistory.required_field_names.get(variant)
    if known is not None:
        return known
    forced = ("bring_in",) if family == "stud" else ("blinds_or_straddles",)
    sizes = ("small_bet", "big_bet") if structure == BettingStructure.FIXED_LIMIT else ("min_bet",)
    return ("variant", "antes", *forced, *sizes, "starting_stacks", "actions")


def _clean(value) -> str:
    """A value as pokerkit's HandHistory.dumps writes it (floats as Python writes them)."""
    if type(value) is list and value:
        first = type(value[0])
        if first is int and all(type(v) is int for v in value):
            return repr(value)  # [1, 2, 3], as the general case below writes it
        if first is str and all(type(v) is str and "'" not in v for v in value):
            return "['" + "', '".join(value) + "']"
    if isinstance(value, bool):
        return repr(value).lower()
    if isinstance(value, time):
        return str(value)
    if isinstance(value, Decimal):
        return repr(float(value))
    if isinstance(value, list):
        return "[" + ", ".join(map(_clean, value)) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{_key(k)} = {_clean(v)}" for k, v in value.items()) + "}"
    if isinstance(value, str):
        quote = "'''" if "'" in value else "'"
        return quote + value + quote
    return repr(value)


def _key(key: str) -> str:
    return f"'{key}'" if _SPACE.search(key) else key


_SPACE = re.compile(r"\s")


def source_digest(raw: dict, *, required: Sequence[str]) -> str:
    """SHA-256 of the hand as pokerkit's `HandHistory.dumps()` writes it: the hand's identity, so that a hand is
    stored once whatever file or folder it comes in, and is recognised as stored by earlier versions too."""
    lines = []
    for name in sorted((k for k in raw if k in _FIELD_NAMES), key=_FIELD_RANK.__getitem__):
        value = raw[name]
        if value is not None and (name in required or name in _OPTIONAL):
            lines.append(f"{_key(name)} = {_clean(value)}")
    for name, value in raw.items():
        if name not in _FIELD_NAMES and value is not None:
            lines.append(f"{_key(name)} = {_clean(value)}")
    return hashlib.sha256("\n".join(lines).encode()).hexdigest()


# --- reading a document --------------------------------------------------------------------------------------

_MULTI_HEADER = re.compile(r"^\s*\[\s*[^\]]+\s*\]\s*$", re.MULTILINE)


def sections(text: str, *, name: str) -> list[tuple[str, dict]]:
    """The hands of a `.phh` (one hand) or `.phhs` text (hands under `[N]` headers): [(label, fields)], read by
    rtoml (TOML 1.0, in Rust: ten times the speed of tomllib); amounts with a fraction come as float and are taken
    as the decimal they were written as. Raises PhhError for TOML that cannot be read, a text with no hand or a hand's
    header with a control character (its label is stored as the round's source)."""
    try:
        document = rtoml.loads(text)
    except (rtoml.TomlParsingError, ValueError) as exc:
        raise PhhError(f"{name}: not valid PHH/TOML ({exc}).") from exc
    if document and all(isinstance(v, dict) for v in document.values()) and _MULTI_HEADER.search(text):
        found = [(f"{name}#{key}", raw) for key, raw in document.items()]
        for key in document:
            try:
                TextValidator()(key)
            except ValidationError as exc:
                raise PhhError(f"{name}: the hand's header [{_shown(key)}] has a control character; control "
                               "characters (NUL, tabs and line breaks among them) are not allowed.") from exc
    else:
        found = [(name, document)]
    if not found or found == [(name, {})]:
        raise PhhError(f"{name}: no hand found.")
    return found


def parse_phh(text: str, *, name: str = "PHH", default_time: datetime | None = None,
              zone: tzinfo = UTC) -> Iterator[ParsedHand | RefusedHand]:
    """Parse a PHH text into hands to record (ParsedHand), or hands no New Jersey game deals (RefusedHand).

    Yields one per hand, in the file's order. A hand dated by its `year`, `month` and `day` (and `time`) starts then,
    in its `time_zone` or, without one, in `zone` (the casino's); a hand not dated whole starts at `default_time`
    (now). Raises PhhError naming the hand, the PHH field and the fault for a text that is malformed: TOML syntax, a
    missing or ill-typed field (`players` not a list of names, one per player; a name with a control character; an
    unknown `time_zone`; a date no calendar has, such as month 13), an amount with fractions of a cent, unknown or
    duplicate cards, actions that cannot have happened (a bet larger than the stack, a player acting after folding, a
    betting round left open) or a hand that ends before the pot is awarded.
    """
    default_time = default_time or datetime.now(tz=UTC)
    for label, raw in sections(text, name=name):
        try:
            variant = variant_of(raw.get("variant"))
        except PhhError as exc:
            code = raw.get("variant")
            if not isinstance(code, str):
                raise PhhError(f"{label}: the variant is missing.") from exc
            yield RefusedHand(label=label, variant=code, reason=str(exc), source_digest=source_digest(
                raw, required=HandHistory.required_field_names.get(code, ("variant", "starting_stacks", "actions"))))
            continue
        yield _parse_hand(label, raw, variant, default_time, zone)


def _parse_hand(label: str, raw: dict, variant: Variant, default_time: datetime, zone: tzinfo) -> ParsedHand:
    required = _required_fields(variant.code, variant.family, variant.betting_structure)
    missing = [f for f in required if raw.get(f) is None and f != "variant"]
    if missing:
        raise PhhError(f"{label}: missing field(s) {', '.join(missing)} for variant {variant.code}.")
    stacks = _amounts(raw["starting_stacks"], label, "starting_stacks", allow_inf=True)
    count = len(stacks)
    if not 2 <= count <= 11:
        raise PhhError(f"{label}: a round of play has 2 to 11 players (14.6(b)); this hand has {count}.")
    if any(s is not None and s <= 0 for s in stacks):
        raise PhhError(f"{label}: starting stacks must be above zero.")
    antes = _per_player(raw.get("antes", 0), count, label, "antes")
    blinds = _per_player(raw.get("blinds_or_straddles") or 0, count, label, "blinds_or_straddles")
    if count == 2:  # heads up, the forced bets are reversed (PHH standard)
        antes, blinds = antes[::-1], blinds[::-1]
    bring_in = _amount(raw.get("bring_in") or 0, label, "bring_in")
    actions = raw.get("actions")
    if not isinstance(actions, list) or not all(isinstance(a, str) for a in actions):
        raise PhhError(f"{label}: actions must be a list of texts.")
    trimming = raw.get("ante_trimming_status", False)
    if not isinstance(trimming, bool):
        raise PhhError(f"{label}: ante_trimming_status must be true or false, got {_shown(trimming)}.")
    if raw.get("min_bet") is not None:
        _amount(raw["min_bet"], label, "min_bet")
    started_at = _started_at(raw, default_time, zone, label)
    names = _names(raw.get("players"), count, label)
    account = _Account(label=label, variant=variant, stacks=stacks, antes=antes, blinds=blinds, bring_in=bring_in,
                       ante_trimming=bool(trimming))
    for number, action in enumerate(actions, start=1):
        account.act(number, action)
    account.finish(len(actions))
    seats = _seats(raw.get("seats"), count, label)
    players = [account.player_in(i, seat=seats[i], name=names[i]) for i in range(count)]
    finishing = raw.get("finishing_stacks")
    if finishing is not None and not isinstance(finishing, list):
        raise PhhError(f"{label}: finishing_stacks must be a list of amounts, got {_shown(finishing)}.")
    digest = source_digest(raw, required=required)
    blinds = sorted(b for b in blinds if b)
    stakes = Stakes(small_blind=blinds[0] if len(blinds) > 1 else ZERO, big_blind=blinds[-1] if blinds else ZERO,
                    ante=max(antes), bring_in=bring_in or ZERO,
                    small_bet=_amount(raw.get("small_bet") or 0, label, "small_bet"),
                    big_bet=_amount(raw.get("big_bet") or 0, label, "big_bet"))
    return ParsedHand(stakes=stakes,
        label=label, variant=variant,
        round_in=RoundIn(players=players, started_at=started_at, board=" ".join(account.board),
                         game=variant.game, betting_structure=variant.betting_structure, source=RoundSource.PHH,
                         source_name=label, source_digest=digest),
        finishing_stacks=tuple(_amounts(finishing, label, "finishing_stacks")) if isinstance(finishing, list) else None)


def _amount(value, label: str, name: str, *, allow_inf: bool = False) -> Decimal | None:
    """A PHH amount as Decimal dollars (None for an unknown, infinite stack). Raises PhhError."""
    if type(value) is int and 0 <= value < 10**12:  # the usual case: whole dollars
        cents = _WHOLE.get(value)
        if cents is None:
            cents = _WHOLE[value] = Decimal(value).quantize(CENT)
        return cents
    if isinstance(value, bool) or not isinstance(value, int | Decimal | float):
        raise PhhError(f"{label}: {name} must be a number, got {value!r}.")
    number = Decimal(value) if not isinstance(value, float) else Decimal(str(value))
    if not number.is_finite():
        if allow_inf and number == Decimal(inf):
            return None
        raise PhhError(f"{label}: {name} must be a finite amount, got {value!r}.")
    if number < 0:
        raise PhhError(f"{label}: {name} cannot be negative.")
    try:
        cents = number.quantize(CENT)
    except InvalidOperation as exc:
        raise PhhError(f"{label}: {name} {value!r} is too large.") from exc
    if cents != number or cents >= Decimal("1e12"):
        raise PhhError(f"{label}: {name} {value!r} is not an amount of dollars and cents.")
    return cents


_WHOLE: dict[int, Decimal] = {}


def _amounts(values, label: str, name: str, *, allow_inf: bool = False) -> list[Decimal | None]:
    if not isinstance(values, list) or not values:
        raise PhhError(f"{label}: {name} must be a list of amounts.")
    return [_amount(v, label, name, allow_inf=allow_inf) for v in values]


def _per_player(value, count: int, label: str, name: str) -> list[Decimal]:
    """Antes or blinds: one amount for every player, or one per player."""
    if isinstance(value, list):
        if len(value) != count:
            raise PhhError(f"{label}: {name} must give one amount per player ({count}).")
        return [_amount(v, label, name) for v in value]
    return [_amount(value, label, name)] * count


def _seats(value, count: int, label: str) -> list[int]:
    if value is None:
        return list(range(1, count + 1))
    if (not isinstance(value, list) or len(value) != count or len(set(value)) != count
            or not all(isinstance(s, int) and not isinstance(s, bool) and 1 <= s <= 11 for s in value)):
        raise PhhError(f"{label}: seats must give a distinct seat (1 to 11) for each player.")
    return list(value)


def _names(value, count: int, label: str) -> list[str]:
    """The players' names (PHH `players`): a list of one text per player, without control characters (NUL, BEL, ESC,
    line breaks...); p1, p2, ... when the hand names nobody. Raises PhhError naming the field."""
    if value is None:
        return [f"p{i + 1}" for i in range(count)]
    if not isinstance(value, list) or len(value) != count or not all(isinstance(v, str) for v in value):
        raise PhhError(f"{label}: players must be a list of {count} names, one per player, got {_shown(value)}.")
    for number, name in enumerate(value, start=1):
        try:
            TextValidator()(name)
        except ValidationError as exc:
            raise PhhError(f"{label}: players: the name of p{number} {_shown(name)} has a control character; "
                           "control characters (NUL, tabs and line breaks among them) are not allowed.") from exc
    return value


def _shown(value) -> str:
    """`value` as a message shows it: its repr, cut to 40 characters."""
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _started_at(raw: dict, default: datetime, zone: tzinfo, label: str) -> datetime:
    """When the hand started: its `year`, `month`, `day` and `time` (midnight without one) in its `time_zone`, or in
    `zone` (the casino's) when it gives none; `default` when it is not dated whole (no date, or a year alone). Each
    field given must be of its type and the date one the calendar has: a month 13 or an unknown time zone is refused
    (PhhError naming the field), never replaced by another date or zone."""
    parts = {}
    for name, low, high in (("year", 1, 9999), ("month", 1, 12), ("day", 1, 31)):
        value = raw.get(name)
        if value is None:
            continue
        if type(value) is not int or not low <= value <= high:
            raise PhhError(f"{label}: {name} must be a whole number from {low} to {high}, got {_shown(value)}.")
        parts[name] = value
    at = raw.get("time")
    if at is not None and (not isinstance(at, time) or at.tzinfo is not None):
        raise PhhError(f"{label}: time must be a local time of day (e.g. time = 21:30:00), got {_shown(at)}.")
    named_zone = raw.get("time_zone")
    if named_zone is not None:
        zone = _zone(named_zone, label)
    if len(parts) < 3:
        return default
    try:
        day = date(parts["year"], parts["month"], parts["day"])
    except ValueError as exc:
        raise PhhError(f"{label}: year, month and day: {parts['year']}-{parts['month']:02d}-{parts['day']:02d} is "
                       f"not a date ({exc}).") from exc
    at = at or time(0, 0)
    return datetime(day.year, day.month, day.day, at.hour, at.minute, at.second, at.microsecond, tzinfo=zone)


def _zone(name, label: str) -> ZoneInfo:
    """The IANA time zone `name` (e.g. 'America/New_York'). Raises PhhError for anything else."""
    if isinstance(name, str) and 0 < len(name) <= 64 and _ZONE_NAME.fullmatch(name):
        try:
            return ZoneInfo(name)
        except (ZoneInfoNotFoundError, ValueError, OSError):
            pass
    raise PhhError(f"{label}: time_zone {_shown(name)} is not a time zone of the IANA database "
                   "(e.g. 'America/New_York', 'UTC').")


_ZONE_NAME = re.compile(r"[A-Za-z0-9_+\-]+(?:/[A-Za-z0-9_+\-]+)*", re.ASCII)


# --- our accounting of the actions -----------------------------------------------------------------------------

_CARD = re.compile(r"[2-9TJQKA][cdhs]|\?\?")
_PLAYER_INDEX = {f"p{i + 1}": i for i in range(11)}


def _card_tokens(text: str, label: str, number: int, action: str) -> list[str]:
    tokens = _CARD.findall(text)
    if "".join(tokens) != text:
        raise PhhError(f"{label}: action {number} {action!r}: {text!r} is not a list of cards "
                       "(rank 2-9, T, J, Q, K, A and suit c, d, h, s; ?? for a card not shown).")
    return tokens


@dataclass
class _Account:
    """What each player put in and got back, street by street, and the cards, as the actions say.

    Bets of a betting round are collected when the next cards are dealt (or the draw begins, or the hand ends):
    the part of the largest bet that nobody matched is given back then (14.14(d)). Antes are collected before the
    blinds: with `ante_trimming` the largest ante is matched like a bet, without it antes are dead money in the
    main pot (as pokerkit plays them).
    """

    label: str
    variant: Variant
    stacks: list[Decimal | None]
    antes: list[Decimal]
    blinds: list[Decimal]
    bring_in: Decimal
    ante_trimming: bool
    n: int = 0
    left: list = field(default_factory=list)          # chips behind (None: an unknown, unlimited stack)
    bets: list = field(default_factory=list)          # this betting round
    streets: list = field(default_factory=list)       # per player: put in per betting round
    contributed: list = field(default_factory=list)
    returned: list = field(default_factory=list)
    dead: list = field(default_factory=list)
    folded: list = field(default_factory=list)
    hole: list = field(default_factory=list)          # per player: card tokens, '??' unknown
    dealt: list = field(default_factory=list)         # per player: the hand as first dealt (draw games)
    draws: list = field(default_factory=list)         # per player: [DrawIn]
    shown: list = field(default_factory=list)
    mucked: list = field(default_factory=list)
    board: list = field(default_factory=list)
    live: set = field(default_factory=set)            # known cards in hands and on the board now
    seen: set = field(default_factory=set)            # known cards ever dealt
    acted: bool = False                               # a player acted since the last collection
    betting_began: bool = False                       # a player acted: the first deal is over
    collected: Decimal = ZERO                         # in the pot so far (for the pot limit)
    draw_round: int = -1
    discarding: bool = False

    def __post_init__(self) -> None:
        n = self.n = len(self.stacks)
        self.left = list(self.stacks)
        self.bets = [ZERO] * n
        self.streets = [[ZERO] for _ in range(n)]
        self.contributed, self.returned, self.dead = [ZERO] * n, [ZERO] * n, [ZERO] * n
        self.folded, self.shown, self.mucked = [False] * n, [False] * n, [False] * n
        self.hole, self.dealt, self.draws = [[] for _ in range(n)], [[] for _ in range(n)], [[] for _ in range(n)]
        self.collected = ZERO
        antes = [self._pay(i, self.antes[i]) for i in range(n)]
        if self.ante_trimming:
            self.bets = antes
            self._collect(new_street=False)
        else:
            self.dead = antes
            self.collected = sum(antes, ZERO)
        for i in range(n):
            self.bets[i] += self._pay(i, self.blinds[i])

    # chips -------------------------------------------------------------------------------------------------

    def _pay(self, i: int, amount: Decimal) -> Decimal:
        """Put up to `amount` of player i's chips in (a short stack puts in what it has)."""
        if self.left[i] is not None:
            amount = min(amount, self.left[i])
            self.left[i] -= amount
        self.contributed[i] += amount
        self.streets[i][-1] += amount
        return amount

    def _collect(self, *, new_street: bool = True) -> None:
        """End of a betting round: give back what nobody matched, move the bets to the pot."""
        if any(self.bets):
            ordered = sorted(self.bets)
            cutoff = ordered[-2]
            for i in range(self.n):
                if self.bets[i] > cutoff:  # the uncalled part is given back, and is no part of this round's bets
                    over = self.bets[i] - cutoff
                    self.returned[i] += over
                    self.streets[i][-1] -= over
                    if self.left[i] is not None:
                        self.left[i] += over
                    self.bets[i] = cutoff
            self.collected += sum(self.bets, ZERO)
        self.bets = [ZERO] * self.n
        if new_street:
            for row in self.streets:
                row.append(ZERO)
        self.acted = False

    def _end_betting_round(self, number: int) -> None:
        if not self.acted:
            return
        top = max(self.bets)
        for i in range(self.n):
            if not self.folded[i] and self.bets[i] < top and self.left[i] != 0:
                raise self._error(number, f"the betting round ends with p{i + 1} neither calling nor folding.")
        self._collect()

    # cards --------------------------------------------------------------------------------------------------

    def _deal(self, cards: list[str], number: int, *, reused_ok: bool) -> None:
        for card in cards:
            if card == "??":
                continue
            if card in self.live or (card in self.seen and not reused_ok):
                raise self._error(number, f"duplicate card '{card}'.")
            self.live.add(card)
            self.seen.add(card)

    # actions ------------------------------------------------------------------------------------------------

    def _error(self, number: int, reason: str, action: str | None = None) -> PhhError:
        return PhhError(f"{self.label}: action {number}{f' {action!r}' if action else ''}: {reason}")

    def _player(self, word: str, number: int, action: str) -> int:
        index = _PLAYER_INDEX.get(word)
        if index is None or index >= self.n:
            raise self._error(number, f"{word!r} is not a player of this hand (p1 to p{self.n}).", action)
        return index

    def act(self, number: int, action: str) -> None:
        words = action.split("#", 1)[0].split()
        try:
            self._act(number, action, words)
        except PhhError:
            raise
        except (ArithmeticError, ValueError) as exc:
            raise self._error(number, f"cannot be read ({exc}).", action) from exc

    def _act(self, number: int, action: str, words: list[str]) -> None:  # noqa: C901 - one case per action
        draw_game = self.variant.family == "draw"
        match words:
            case []:
                return
            case ["d", "db", cards]:
                self._end_betting_round(number)
                tokens = _card_tokens(cards, self.label, number, action)
                if "??" in tokens:
                    raise self._error(number, "community cards are dealt face up: none may be unknown.", action)
                self._deal(tokens, number, reused_ok=False)
                self.board.extend(tokens)
                if len(self.board) > 5:
                    raise self._error(number, "more than five community cards.", action)
            case ["d", "dh", who, cards]:
                i = self._player(who, number, action)
                if self.folded[i]:
                    raise self._error(number, f"p{i + 1} has folded: no cards are dealt to a folded player.", action)
                tokens = _card_tokens(cards, self.label, number, action)
                if self.variant.family == "stud":
                    self._end_betting_round(number)  # each street's card opens a betting round
                elif self.betting_began and not (draw_game and self.discarding):
                    raise self._error(number, f"p{i + 1} already holds their cards.", action)
                self._deal(tokens, number, reused_ok=draw_game)
                self.hole[i].extend(tokens)
                if draw_game and self.discarding and self.draws[i]:
                    last = self.draws[i][-1]
                    self.draws[i][-1] = DrawIn(discarded=last.discarded, drawn=" ".join(
                        t for t in (last.drawn, " ".join(tokens)) if t))
                elif not self.draws[i]:
                    self.dealt[i].extend(tokens)
            case [who, "sd", *rest] if len(rest) <= 1:
                if not draw_game:
                    raise self._error(number, f"{self.variant.code} has no draw.", action)
                i = self._live_player(who, number, action)
                # a draw begins after a betting round, or right after the last when nobody can bet (all in)
                if not self.discarding or len(self.draws[i]) > self.draw_round:
                    self._end_betting_round(number)
                    self.discarding = True
                    self.draw_round += 1
                    if self.draw_round >= self.variant.draws:
                        raise self._error(number, f"{Game(self.variant.game).label} has {self.variant.draws} "
                                                  f"draw(s).", action)
                if len(self.draws[i]) != self.draw_round:
                    raise self._error(number, f"p{i + 1} missed a draw or drew twice.", action)
                tokens = _card_tokens(rest[0], self.label, number, action) if rest else []
                self._discard(i, tokens, number, action)
                self.draws[i].append(DrawIn(discarded=" ".join(tokens)))
            case [who, "pb"]:
                if self.variant.family != "stud":
                    raise self._error(number, "only stud games have a bring-in.", action)
                i = self._betting_player(who, number, action)
                if any(self.bets):
                    raise self._error(number, "the bring-in is the first bet of the round.", action)
                self.bets[i] += self._pay(i, self.bring_in)
            case [who, "cc"]:
                i = self._betting_player(who, number, action)
                self.bets[i] += self._pay(i, max(self.bets) - self.bets[i])
            case [who, "cbr", amount]:
                i = self._betting_player(who, number, action)
                self._raise_to(i, Decimal(amount), number, action)
            case [who, "f"]:
                i = self._betting_player(who, number, action)
                self.folded[i] = True
                if draw_game:
                    self.live.difference_update(self.hole[i])
            case [who, "sm", *rest] if len(rest) <= 1:
                i = self._live_player(who, number, action)
                self._show(i, rest[0] if rest else None, number, action)
            case _:
                raise self._error(number, "not an action of the PHH notation.", action)

    def _live_player(self, who: str, number: int, action: str) -> int:
        i = self._player(who, number, action)
        if self.folded[i]:
            raise self._error(number, f"p{i + 1} has folded.", action)
        return i

    def _betting_player(self, who: str, number: int, action: str) -> int:
        i = self._live_player(who, number, action)
        if self.discarding:  # the draw is over once betting resumes
            self.discarding = False
        if self.left[i] == 0:
            raise self._error(number, f"p{i + 1} is all in and cannot act.", action)
        if not any(self.hole[k] for k in range(self.n)):
            raise self._error(number, "no cards have been dealt yet.", action)
        self.acted = self.betting_began = True
        return i

    def _raise_to(self, i: int, amount: Decimal, number: int, action: str) -> None:
        if not amount.is_finite() or amount.quantize(CENT) != amount:
            raise self._error(number, "the amount must be dollars and cents.", action)
        top = max(self.bets)
        if amount <= top:
            raise self._error(number, f"a bet or raise must go above {top}; call with cc.", action)
        delta = amount - self.bets[i]
        if self.left[i] is not None and delta > self.left[i]:
            raise self._error(number, f"p{i + 1} has {self.left[i]} behind and cannot bet {delta} more.", action)
        all_in = self.left[i] is not None and delta == self.left[i]
        if self.variant.betting_structure == BettingStructure.POT_LIMIT and not all_in:
            pot_limit = 2 * top - self.bets[i] + self.collected + sum(self.bets, ZERO)
            if amount > pot_limit:
                raise self._error(number, f"raises to {amount} in a pot-limit game; the pot allows {pot_limit}.",
                                  action)
        self._pay(i, delta)
        self.bets[i] = amount

    def _discard(self, i: int, tokens: list[str], number: int, action: str) -> None:
        hand = self.hole[i]
        for card in tokens:
            if card in hand:
                hand.remove(card)
            elif "??" in hand:  # a card not seen when dealt, seen now as it is thrown away
                hand.remove("??")
                if card != "??":
                    self.seen.add(card)
            else:
                raise self._error(number, f"p{i + 1} discards {card}, which they do not hold.", action)
            self.live.discard(card)

    def _show(self, i: int, cards: str | None, number: int, action: str) -> None:
        if cards is None:  # mucked: conceded without showing (14.15(d))
            self.mucked[i] = True
            return
        if cards == "-":  # shows what is known
            self.shown[i] = True
            return
        tokens = _card_tokens(cards, self.label, number, action)
        hand = self.hole[i]
        if len(tokens) != len(hand):
            raise self._error(number, f"p{i + 1} holds {len(hand)} cards and shows {len(tokens)}.", action)
        known = [c for c in hand if c != "??"]
        if any(c not in tokens for c in known):
            raise self._error(number, f"p{i + 1} shows cards other than those dealt to them.", action)
        new = [c for c in tokens if c != "??" and c not in known]
        self._deal(new, number, reused_ok=self.variant.family == "draw")
        self.hole[i] = tokens
        self.shown[i] = True
        self.mucked[i] = False
        if self.variant.family == "draw" and not self.draws[i]:
            self.dealt[i] = list(tokens)  # never drew: the hand shown is the hand as dealt

    def finish(self, number: int) -> None:
        """After the last action: close the last betting round and check that the hand reached its end."""
        if self.acted:
            self._end_betting_round(number)
        else:
            self._collect()
        contenders = [i for i in range(self.n) if not self.folded[i] and not self.mucked[i]]
        if len(contenders) > 1:
            family = self.variant.family
            if family == "board" and len(self.board) < 5:
                raise PhhError(f"{self.label}: the hand is incomplete (it ends before the pot is awarded).")
            if family == "stud" and any(len(self.hole[i]) + len(self.board) < 7 for i in contenders):
                raise PhhError(f"{self.label}: the hand is incomplete (it ends before every card is dealt).")
            if family == "draw" and self.draw_round + 1 < self.variant.draws:
                raise PhhError(f"{self.label}: the hand is incomplete (it ends before the last draw).")
        # drop a trailing betting round where nobody put anything in
        while len(self.streets[0]) > 1 and not any(row[-1] for row in self.streets):
            for row in self.streets:
                row.pop()
        if len(contenders) > 1:
            for i in range(self.n):
                if not self.folded[i] and not self.shown[i] and "??" in self.hole[i]:
                    self.mucked[i] = True

    def player_in(self, i: int, *, seat: int, name: str) -> PlayerIn:
        known = "??" not in self.hole[i]
        in_play = not self.folded[i]
        contested = sum(not f for f in self.folded) > 1
        draw_game = self.variant.family == "draw"
        return PlayerIn(
            seat=seat, name=name[:80], contributed=self.contributed[i], starting_stack=self.stacks[i],
            hole_cards=" ".join(self.hole[i]) if known and self.hole[i] else "",
            folded=self.folded[i] or (self.contributed[i] == 0 and not self.hole[i]),
            mucked=in_play and contested and (self.mucked[i] or not known or not self.hole[i]),
            streets=tuple(row for row in self.streets[i]),
            returned=self.returned[i], dead=self.dead[i],
            dealt_cards=" ".join(self.dealt[i]) if draw_game else "",
            draws=tuple(self.draws[i]) if draw_game else ())


def finishing_stacks(hand: ParsedHand, awards: dict[int, Decimal]) -> list[Decimal | None]:
    """Each player's stack at the end of the hand by our accounting: starting stack − put in + given back +
    won (awards: seat -> Decimal dollars from the pots). None for an unknown stack."""
    return [None if p.starting_stack is None else
            p.starting_stack - p.contributed + (p.returned or ZERO) + awards.get(p.seat, ZERO)
            for p in hand.round_in.players]

