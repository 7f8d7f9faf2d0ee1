"""The fields of each PHH hand read, checked and accounted for: the hand as a round of play the money path takes."""
from __future__ import annotations

import re
from collections.abc import Iterator
from datetime import UTC, date, datetime, time, tzinfo
from decimal import Decimal, InvalidOperation
from math import inf
from typing import Any, Literal, overload
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from django.core.exceptions import ValidationError
from pokerkit import HandHistory

from apps.core.money import CENT, ZERO
from apps.core.validation import TextValidator
from apps.rounds.models import RoundSource

from ..types import RoundIn
from .accounting import _Account
from .documents import (
    ParsedHand,
    PhhError,
    RefusedHand,
    Stakes,
    Variant,
    _required_fields,
    _shown,
    sections,
    source_digest,
    variant_of,
)


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
