"""The fields of each PHH hand read, checked and accounted for: the hand as a round of play the money path takes."""
from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import replace
from datetime import UTC, date, datetime, time, timedelta, tzinfo
from decimal import Decimal, InvalidOperation
from math import inf
from typing import Any, Literal, overload
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from django.core.exceptions import ValidationError
from pokerkit import HandHistory

from apps.core.money import CENT, ZERO
from apps.core.validation import TextValidator
from apps.rounds.models import RoundSource

from ..models import WinningsWritten
from ..types import RoundIn
from .accounting import _Account
from .documents import (
    ParsedHand,
    PhhError,
    RefusedHand,
    SourceWinnings,
    Stakes,
    Variant,
    _required_fields,
    _shown,
    sections,
    source_digest,
    variant_of,
)


def parse_phh(text: str, *, name: str = "PHH", default_time: datetime | None = None,
              zone: tzinfo = UTC, refuse_malformed: bool = False) -> Iterator[ParsedHand | RefusedHand]:
    """Parse a PHH text into hands to record (ParsedHand), or hands not taken in (RefusedHand).

    Yields one per hand, in the file's order. A hand dated by its `year`, `month` and `day` (and `time`) starts then,
    in its `time_zone` or, without one, in `zone` (the casino's); a `time_zone_abbreviation` (or an abbreviation
    given as `time_zone`, e.g. 'ET') must agree with that zone at that moment (`_started_at`); a hand not dated whole
    starts at `default_time` (now). A hand's malformed fields raise PhhError naming the hand, the PHH field and the
    fault — a missing or ill-typed field (`players` not a list of names, one per player; a name with a control
    character; an unknown `time_zone`; a date no calendar has, such as month 13), an amount with fractions of a cent,
    unknown or duplicate cards, actions that cannot have happened (a bet larger than the stack, a player acting after
    folding, a betting round left open) or a hand that ends before the pot is awarded — or, with `refuse_malformed`,
    are yielded as that hand's RefusedHand with the reason, and the text's other hands go on. A text that is not PHH
    at all (TOML syntax, no hand, a hand's header with a control character) raises PhhError either way (`sections`).

    The hand's stakes (ParsedHand.stakes, to find its table) are its small and big blind; each further
    `blinds_or_straddles` entry is a straddle, recorded on its player (PlayerIn.straddle) for the money path to check
    against the table's posted straddles; in a game with blinds the button is the last player (heads up, p2),
    as pokerkit seats them (`_blinds_and_straddles`).
    """
    yield from parse_sections(sections(text, name=name), default_time=default_time, zone=zone,
                              refuse_malformed=refuse_malformed)


def parse_sections(found: Iterable[tuple[str, dict]], *, default_time: datetime | None = None, zone: tzinfo = UTC,
                   refuse_malformed: bool = False) -> Iterator[ParsedHand | RefusedHand]:
    """`parse_phh` of hands already read ((label, fields), as `sections` or `open_sections` give them), one at a
    time: each hand is parsed when it is asked for, so a document read hand by hand (documents.Sections) is parsed
    with one hand in memory. Raises PhhError as parse_phh does for a hand's malformed fields, unless
    `refuse_malformed`."""
    default_time = default_time or datetime.now(tz=UTC)
    for label, raw in found:
        try:
            variant = variant_of(raw.get("variant"))
        except PhhError as exc:
            code = raw.get("variant")
            if not isinstance(code, str):
                if not refuse_malformed:
                    raise PhhError(f"{label}: the variant is missing.") from exc
                yield RefusedHand(label=label, variant="?", reason="the variant is missing.",
                                  source_digest=_digest_of_refused(raw, ("variant", "starting_stacks", "actions")))
                continue
            yield RefusedHand(label=label, variant=code, reason=str(exc), source_digest=source_digest(
                raw, required=HandHistory.required_field_names.get(code, ("variant", "starting_stacks", "actions"))))
            continue
        try:
            hand: ParsedHand | RefusedHand = _parse_hand(label, raw, variant, default_time, zone)
        except PhhError as exc:
            if not refuse_malformed:
                raise
            message = str(exc)
            reason = message[len(label) + 2:] if message.startswith(f"{label}: ") else message
            hand = RefusedHand(label=label, variant=variant.code, reason=reason, source_digest=_digest_of_refused(
                raw, _required_fields(variant.code, variant.family, variant.betting_structure)))
        yield hand


def _digest_of_refused(raw: dict, required: Sequence[str]) -> str:
    """The source digest of a hand refused as malformed, '' when even that cannot be worked out."""
    try:
        return source_digest(raw, required=required)
    except (TypeError, ValueError):
        return ""


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
    blinds, posted = _blinds(raw.get("blinds_or_straddles") or 0, count, label)
    small_blind, big_blind, straddles = _blinds_and_straddles(blinds, posted)
    if count == 2:  # heads up, the forced bets are reversed (PHH standard)
        antes, blinds, posted = antes[::-1], blinds[::-1], posted[::-1]
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
    winnings = _source_winnings(raw, account, label)
    account.concede_unrevealed(winnings.winners if winnings is not None else None)
    seats = _seats(raw.get("seats"), count, label)
    players = [account.player_in(i, seat=seats[i], name=names[i]) for i in range(count)]
    for i, straddle in straddles.items():  # what the player could post of it: a short stack is all in
        stack = stacks[i]
        posted_in = straddle if stack is None else min(straddle, stack - min(antes[i], stack))
        players[i] = replace(players[i], straddle=posted_in)
    finishing = raw.get("finishing_stacks")
    if finishing is not None and not isinstance(finishing, list):
        raise PhhError(f"{label}: finishing_stacks must be a list of amounts, got {_shown(finishing)}.")
    digest = source_digest(raw, required=required)
    stakes = Stakes(small_blind=small_blind, big_blind=big_blind, ante=max(antes), bring_in=bring_in or ZERO,
                    small_bet=_amount(raw.get("small_bet") or 0, label, "small_bet"),
                    big_bet=_amount(raw.get("big_bet") or 0, label, "big_bet"))
    return ParsedHand(stakes=stakes, winnings=winnings, cards_not_revealed=account.cards_not_revealed,
        label=label, variant=variant,
        round_in=RoundIn(players=players, started_at=started_at, board=" ".join(account.board),
                         game=variant.game, betting_structure=variant.betting_structure, source=RoundSource.PHH,
                         source_name=label, source_digest=digest,
                         button=seats[1 if count == 2 else -1] if small_blind or big_blind else None),
        finishing_stacks=tuple(_amounts(finishing, label, "finishing_stacks")) if isinstance(finishing, list) else None)


@overload
def _amount(value: Any, label: str, name: str, *, allow_inf: Literal[False] = False) -> Decimal: ...
@overload
def _amount(value: Any, label: str, name: str, *, allow_inf: bool) -> Decimal | None: ...
def _amount(value: Any, label: str, name: str, *, allow_inf: bool = False) -> Decimal | None:
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


@overload
def _amounts(values: Any, label: str, name: str, *, allow_inf: Literal[False] = False) -> list[Decimal]: ...
@overload
def _amounts(values: Any, label: str, name: str, *, allow_inf: bool) -> list[Decimal | None]: ...
def _amounts(values: Any, label: str, name: str, *, allow_inf: bool = False) -> list[Decimal] | list[Decimal | None]:
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


def _blinds(value, count: int, label: str) -> tuple[list[Decimal], list[bool]]:
    """`blinds_or_straddles`: one amount for every player, or one per player; (amounts, posted), each made positive.

    A negative entry is read as pokerkit reads it (pokerkit.state.State.raw_blinds_or_straddles and
    get_effective_blind_or_straddle): a blind posted by a player out of the blinds' seats — a player just seated who
    posts to play at once, or a returning player posting a missed blind — whose amount, made positive, goes in before
    the cards as that player's bet of the first betting round, live like any blind (it counts toward the player's
    call, and what nobody matches of it is given back, 14.14(d)); the sign only keeps it from deciding who acts
    first, which pokerkit works out and we do not check. `posted`: which entries were negative."""
    if isinstance(value, list):
        if len(value) != count:
            raise PhhError(f"{label}: blinds_or_straddles must give one amount per player ({count}).")
        values = value
    else:
        values = [value] * count
    amounts, posted = [], []
    for entry in values:
        negative = isinstance(entry, int | float) and not isinstance(entry, bool) and entry < 0
        amounts.append(_amount(-entry if negative else entry, label, "blinds_or_straddles"))
        posted.append(negative)
    return amounts, posted


def _blinds_and_straddles(blinds: Sequence[Decimal], posted: Sequence[bool]
                          ) -> tuple[Decimal, Decimal, dict[int, Decimal]]:
    """The small blind, the big blind and the straddles of `blinds_or_straddles` as pokerkit orders it (before the
    heads-up reversal; pokerkit.state.State.get_effective_blind_or_straddle): entry 0 is the small blind, entry 1 the
    big blind, and each further entry above zero a straddle posted by that player (the player to the left of the big
    blind under the gun, a re-straddle by the next; one by the last player, on the button) — {player index: amount
    written}. An entry made positive from a negative one (`posted`: a blind posted out of the blinds' seats,
    `_blinds`) is neither a blind of the stakes nor a straddle; a blind not written is $0.00 (a hand with no small
    blind)."""
    def blind(index: int) -> Decimal:
        return blinds[index] if index < len(blinds) and not posted[index] else ZERO

    straddles = {i: blinds[i] for i in range(2, len(blinds)) if blinds[i] and not posted[i]}
    return blind(0), blind(1), straddles


def _signed_amount(value: Any, label: str, name: str) -> Decimal:
    """A PHH amount that may be negative (`winnings` as written), Decimal dollars. Raises PhhError."""
    if isinstance(value, int | float) and not isinstance(value, bool) and value < 0:
        return -_amount(-value, label, name)
    return _amount(value, label, name)


def _source_winnings(raw: dict, account: _Account, label: str) -> SourceWinnings | None:
    """What the hand's `winnings` say each player received (None without them), beside our accounting: the pot (put
    in less the uncalled bet given back, 14.14(d)) and the ways the amounts can be read. They can be read without the
    uncalled bet when none is negative and they add up to no more than the pot; with it when each player given back
    an uncalled bet receives at least that and the rest adds up to no more than the pot; a hand with no uncalled bet
    reads the same both ways. Raises PhhError for `winnings` that are not one amount (dollars and cents) per
    player."""
    value = raw.get("winnings")
    if value is None:
        return None
    count = len(account.stacks)
    if not isinstance(value, list) or len(value) != count:
        raise PhhError(f"{label}: winnings must be a list of {count} amounts, one per player, got {_shown(value)}.")
    amounts = tuple(_signed_amount(v, label, "winnings") for v in value)
    returned = tuple(account.returned)
    given_back = sum(returned, ZERO)
    pot = sum(account.contributed, ZERO) - given_back
    total = sum(amounts, ZERO)
    without = all(a >= 0 for a in amounts) and total <= pot
    if not given_back:
        readings: tuple[str, ...] = (WinningsWritten.NO_UNCALLED,) if without else ()
    else:
        with_uncalled = all(a >= r for a, r in zip(amounts, returned, strict=True)) and total - given_back <= pot
        readings = tuple(reading for reading, fits in ((WinningsWritten.WITHOUT_UNCALLED, without),
                                                      (WinningsWritten.WITH_UNCALLED, with_uncalled)) if fits)
    venue = raw.get("venue")
    return SourceWinnings(amounts=amounts, returned=returned, pot=pot, readings=readings,
                          venue=venue if isinstance(venue, str) else "")


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


def _started_at(raw: dict, default: datetime, zone: tzinfo, label: str) -> datetime:
    """When the hand started: its `year`, `month`, `day` and `time` (midnight without one) in its `time_zone`, or in
    `zone` (the casino's) when it gives none; `default` when it is not dated whole (no date, or a year alone). Each
    field given must be of its type and the date one the calendar has: a month 13 or an unknown time zone is refused
    (PhhError naming the field), never replaced by another date or zone.

    A time zone abbreviation — `time_zone_abbreviation`, or an abbreviation given as `time_zone` ('ET', 'EST', 'EDT',
    'CEST'; `_ABBREVIATIONS`) — places the hand in the zone it is read in (its IANA `time_zone`, else the casino's)
    when the UTC offset it names is that zone's offset at the hand's date and time ('ET' names Eastern time, either
    offset; 'EST' only -05:00, 'EDT' only -04:00), which also tells the two readings of an hour the clocks repeat
    apart; an abbreviation we do not know, or one that disagrees, refuses the hand (PhhError naming the field and the
    zone)."""
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
    whose = "the casino's time zone"
    abbreviations: list[tuple[str, str]] = []  # (field, abbreviation)
    named_zone = raw.get("time_zone")
    if named_zone is not None:
        if _is_abbreviation(named_zone) and named_zone not in ("UTC", "GMT"):
            abbreviations.append(("time_zone", named_zone))
        else:
            zone, whose = _zone(named_zone, label), "the hand's time_zone"
    abbreviation = raw.get("time_zone_abbreviation")
    if abbreviation is not None:
        if not _is_abbreviation(abbreviation):
            raise PhhError(f"{label}: time_zone_abbreviation {_shown(abbreviation)} is not a time zone abbreviation we "
                           f"can resolve (e.g. 'ET', 'EST', 'EDT', 'CEST'); {whose} is {zone}.")
        abbreviations.append(("time_zone_abbreviation", abbreviation))
    if len(parts) < 3:
        return default
    try:
        day = date(parts["year"], parts["month"], parts["day"])
    except ValueError as exc:
        raise PhhError(f"{label}: year, month and day: {parts['year']}-{parts['month']:02d}-{parts['day']:02d} is "
                       f"not a date ({exc}).") from exc
    at = at or time(0, 0)
    local = datetime(day.year, day.month, day.day, at.hour, at.minute, at.second, at.microsecond, tzinfo=zone)
    for field, named in abbreviations:
        local = _agreeing(local, field, named, whose, label)
    return local


def _zone(name, label: str) -> ZoneInfo:
    """The IANA time zone `name` (e.g. 'America/New_York'). Raises PhhError for anything else."""
    if isinstance(name, str) and 0 < len(name) <= 64 and _ZONE_NAME.fullmatch(name):
        try:
            return ZoneInfo(name)
        except (ZoneInfoNotFoundError, ValueError, OSError):
            pass
    raise PhhError(f"{label}: time_zone {_shown(name)} is not a time zone of the IANA database "
                   "(e.g. 'America/New_York', 'UTC') nor an abbreviation such as 'ET'.")


_ZONE_NAME = re.compile(r"[A-Za-z0-9_+\-]+(?:/[A-Za-z0-9_+\-]+)*", re.ASCII)


def _offsets(*hours: float) -> frozenset[timedelta]:
    return frozenset(timedelta(minutes=round(h * 60)) for h in hours)


#: The time zone abbreviations hand histories write and the UTC offsets each names (North American readings of
#: CST and AST); a generic one (ET, CT, MT, PT) names both offsets of its region. UTC and GMT written as `time_zone`
#: are read as the IANA zones of those names.
_ABBREVIATIONS: dict[str, frozenset[timedelta]] = {
    "UTC": _offsets(0), "GMT": _offsets(0), "UT": _offsets(0),
    "ET": _offsets(-5, -4), "EST": _offsets(-5), "EDT": _offsets(-4),
    "CT": _offsets(-6, -5), "CST": _offsets(-6), "CDT": _offsets(-5),
    "MT": _offsets(-7, -6), "MST": _offsets(-7), "MDT": _offsets(-6),
    "PT": _offsets(-8, -7), "PST": _offsets(-8), "PDT": _offsets(-7),
    "AKST": _offsets(-9), "AKDT": _offsets(-8), "HST": _offsets(-10),
    "AST": _offsets(-4), "ADT": _offsets(-3), "NST": _offsets(-3.5), "NDT": _offsets(-2.5),
    "WET": _offsets(0), "WEST": _offsets(1), "BST": _offsets(1),
    "CET": _offsets(1), "CEST": _offsets(2), "MET": _offsets(1), "MEST": _offsets(2),
    "EET": _offsets(2), "EEST": _offsets(3), "MSK": _offsets(3),
    "AWST": _offsets(8), "ACST": _offsets(9.5), "ACDT": _offsets(10.5), "AEST": _offsets(10), "AEDT": _offsets(11),
    "NZST": _offsets(12), "NZDT": _offsets(13),
}


def _is_abbreviation(value: object) -> bool:
    """Whether a `time_zone` or `time_zone_abbreviation` value is an abbreviation of `_ABBREVIATIONS` (any case);
    `_started_at` reads 'UTC' and 'GMT' given as `time_zone` as the IANA zones of those names."""
    return isinstance(value, str) and value.upper() in _ABBREVIATIONS


def _agreeing(local: datetime, field: str, abbreviation: str, whose: str, label: str) -> datetime:
    """`local` (a wall-clock time in its zone) as the abbreviation reads it: the reading of the hour (fold 0, or fold
    1 when the clocks repeat it) whose UTC offset the abbreviation names. Raises PhhError when neither is."""
    names = _ABBREVIATIONS[abbreviation.upper()]
    for fold in (0, 1):
        moment = local.replace(fold=fold)
        if moment.utcoffset() in names:
            return moment
    named = " or ".join(sorted(_utc(offset) for offset in names))
    raise PhhError(f"{label}: {field} {abbreviation!r} names {named}, which does not agree with {whose} "
                   f"{local.tzinfo} ({_utc(local.utcoffset())} on {local:%Y-%m-%d} at {local:%H:%M:%S}): the hand's "
                   "time cannot be placed in it.")


def _utc(offset: timedelta | None) -> str:
    """'UTC-04:00' for an offset of four hours behind UTC."""
    minutes = int((offset or timedelta()).total_seconds() // 60)
    sign = "-" if minutes < 0 else "+"
    return f"UTC{sign}{abs(minutes) // 60:02d}:{abs(minutes) % 60:02d}"
