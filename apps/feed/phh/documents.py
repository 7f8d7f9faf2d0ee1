"""A PHH text read and each hand identified: the variants taken in (the New Jersey game each is dealt as), the
hands of a `.phh` or `.phhs` document, and a hand's identity (its source digest).

Money is Decimal dollars: a PHH amount is read as dollars and must have at most two decimal places.
"""
from __future__ import annotations

import hashlib
import io
import re
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, fields
from datetime import time
from decimal import Decimal
from pathlib import Path

import rtoml
from django.core.exceptions import ValidationError
from pokerkit import HandHistory

from apps.core.money import ZERO
from apps.core.validation import TextValidator
from apps.tables.models import BettingStructure, Game

from ..models import WinningsWritten
from ..types import RoundIn


class PhhError(ValueError):
    """A PHH text that cannot be taken in; the message names the hand and what is wrong."""


@dataclass(frozen=True, slots=True)
class Variant:
    """A PHH variant code and the New Jersey game it is dealt as (a `Game`).

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
class SourceWinnings:
    """What a hand history says each player received (its `winnings`: what each was paid, after the house's rake),
    beside our accounting of the hand, to audit the source's rake. Decimal dollars, in the hand's player order.

    amounts: as written (a negative amount is kept: such a hand does not reconcile). returned: the uncalled bet our
    accounting gave back to each (14.14(d)); pot: what the players put in less what was given back. Sites write
    winnings two ways, with the uncalled bet given back or without it; `readings` are the ways the arithmetic allows
    (WinningsWritten values; one, both, or none when the amounts fit no way: negative, or more than the pot).
    venue: the hand's `venue` ('' without one), whose other hands settle a hand both readings fit.
    """

    amounts: tuple[Decimal, ...]
    returned: tuple[Decimal, ...]
    pot: Decimal
    readings: tuple[str, ...]
    venue: str = ""

    def received(self, written: str) -> tuple[Decimal, ...]:
        """What each player won from the pots in the reading `written`: the amounts, less the uncalled bet given back
        when they include it."""
        if written == WinningsWritten.WITH_UNCALLED:
            return tuple(a - r for a, r in zip(self.amounts, self.returned, strict=True))
        return self.amounts

    @property
    def winners(self) -> tuple[bool, ...]:
        """Who the source says won something from the pots: read with the uncalled bet when only that reading fits,
        else as written."""
        written = self.readings[0] if len(self.readings) == 1 else WinningsWritten.WITHOUT_UNCALLED
        return tuple(amount > 0 for amount in self.received(written))


@dataclass(frozen=True)
class ParsedHand:
    """One hand of a PHH source, accounted for and ready for the feed's pipeline. winnings: what the source says each
    player received, when it says (`SourceWinnings`); cards_not_revealed: a player reached the showdown whose cards
    the history does not give (`pN sm ????`, or never shown): the hand was settled by what the history records."""

    label: str
    variant: Variant
    round_in: RoundIn
    finishing_stacks: tuple[Decimal, ...] | None
    stakes: Stakes
    winnings: SourceWinnings | None = None
    cards_not_revealed: bool = False


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
    """A hand of a PHH source that is not taken in, on its own: no New Jersey game matches it (e.g. short-deck), or,
    when the parser refuses hand by hand, it is malformed (`reason` says how, without the hand's label)."""

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
    rtoml (TOML 1.0, in Rust; bench/README.md compares it with tomllib); amounts with a fraction come as float and
    are taken as the decimal they were written as. Raises PhhError for TOML that cannot be read, a text with no hand
    or a hand's header with a control character (its label is stored as the round's source)."""
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


def _shown(value) -> str:
    """`value` as a message shows it: its repr, cut to 40 characters."""
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


# --- reading a document hand by hand (streamed) ---------------------------------------------------------------

@dataclass(frozen=True)
class PhhSource:
    """A PHH document to read hand by hand: a text already in memory, or a file (`path`, UTF-8) read line by line
    and never held whole. `name` labels its hands ("name#key")."""

    name: str
    text: str | None = None
    path: Path | None = None

    @contextmanager
    def lines(self) -> Iterator[Iterable[str]]:
        """The document's lines, line ends kept ('\n' ends a line, as TOML reads it). Raises OSError or
        UnicodeDecodeError (as they are read) for a file that cannot be read as UTF-8 text."""
        if self.path is not None:
            with open(self.path, encoding="utf-8", newline="\n") as lines:
                yield lines
        else:
            yield io.StringIO(self.text or "", newline="\n")

    def read(self) -> str:
        """The whole text (a file read whole: only for a document that cannot be read hand by hand)."""
        if self.path is not None:
            return self.path.read_text(encoding="utf-8")
        return self.text or ""


class Sections:
    """The hands of a PHH document checked whole, then given one at a time: iterating reads the document again hand
    by hand (label, fields), holding one hand's fields at a time (`open_sections`). `count`: the number of hands."""

    def __init__(self, source: PhhSource, count: int, whole: list[tuple[str, dict]] | None) -> None:
        self.source, self.count, self._whole = source, count, whole

    def __iter__(self) -> Iterator[tuple[str, dict]]:
        if self._whole is not None:
            yield from self._whole
            return
        with self.source.lines() as lines:
            yield from _streamed(lines, name=self.source.name)


def open_sections(source: PhhSource) -> Sections:
    """The hands of a `.phh` or `.phhs` document, checked whole before any is given (as `sections` reads it: TOML that
    cannot be read, no hand, a hand's header with a control character raise PhhError, so that nothing of a document
    that is not PHH is taken in), then read again hand by hand as they are taken (`Sections`).

    A `.phhs` document of hands under `[N]` headers is cut before each header line and each part read by rtoml on its
    own: memory holds one hand's fields, plus the headers' keys of the check (none for the usual increasing `[1]`,
    `[2]`, ... ). A document that cannot be cut so — one hand (`.phh`), fields before the first header, a header
    written twice or with a comment, a dotted header (`[1.x]`), a line inside a multi-line string or array that looks
    like a header, TOML that cannot be read — is read whole by `sections`, which gives the same hands or the same
    refusal. Raises PhhError; OSError or UnicodeDecodeError for a file that cannot be read as UTF-8 text."""
    with source.lines() as lines:
        try:
            count = sum(1 for _ in _streamed(lines, name=source.name))
        except _NotStreamable:
            found = sections(source.read(), name=source.name)
            return Sections(source, len(found), found)
    return Sections(source, count, None)


class _NotStreamable(Exception):
    """A document that cannot be read header by header (open_sections reads it whole)."""


_HEADER_LINE = re.compile(r"\s*\[\s*[^\]]+\s*\]\s*$")  # one line of _MULTI_HEADER


def _parts(lines: Iterable[str]) -> Iterator[str]:
    """The document cut before each header line: what comes before the first header (maybe ''), then each header
    with the lines under it."""
    part: list[str] = []
    for line in lines:
        if line.lstrip().startswith("[") and _HEADER_LINE.match(line):
            yield "".join(part)
            part = [line]
        else:
            part.append(line)
    yield "".join(part)


def _streamed(lines: Iterable[str], *, name: str) -> Iterator[tuple[str, dict]]:
    """The hands of a document read part by part (`_parts`): (label, fields). Raises _NotStreamable for a document
    that `sections` must read whole (open_sections)."""
    parts = _parts(lines)
    try:
        before = rtoml.loads(next(parts))
    except (rtoml.TomlParsingError, ValueError) as exc:
        raise _NotStreamable from exc
    if before:  # fields before the first header: one hand (.phh), or not PHH
        raise _NotStreamable
    seen = _Keys()
    found = False
    for part in parts:
        try:
            document = rtoml.loads(part)
        except (rtoml.TomlParsingError, ValueError) as exc:
            raise _NotStreamable from exc
        if len(document) != 1:
            raise _NotStreamable
        ((key, raw),) = document.items()
        if not isinstance(raw, dict) or not seen.add(key):
            raise _NotStreamable
        try:
            TextValidator()(key)
        except ValidationError as exc:
            raise _NotStreamable from exc
        found = True
        yield f"{name}#{key}", raw
    if not found:
        raise _NotStreamable


class _Keys:
    """The headers' keys of a document, to find one written twice: whole numbers must come in increasing order (the
    usual `[1]`, `[2]`, ...) and are not kept, only the largest; other keys are kept."""

    def __init__(self) -> None:
        self._top = -1
        self._kept: set[str] = set()

    def add(self, key: str) -> bool:
        """Whether `key` is surely new (and now seen): False for a key seen before, or a whole number not above the
        largest seen (which may have been seen: the document is then read whole)."""
        if key.isascii() and key.isdigit() and (key == "0" or not key.startswith("0")):
            number = int(key)
            if number <= self._top:
                return False
            self._top = number
            return True
        if key in self._kept:
            return False
        self._kept.add(key)
        return True
