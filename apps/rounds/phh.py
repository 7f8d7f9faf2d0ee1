"""Reading PHH hand histories (the Poker Hand History standard) with pokerkit.

pokerkit parses the TOML and replays the actions; we take from the replay what each player put in, the
cards, who folded and who conceded, and leave judging the hands to our own engine.
"""
from __future__ import annotations

import hashlib
import re
import tomllib
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime, time
from decimal import Decimal
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from pokerkit import HandHistory
from pokerkit.state import (
    BetCollection,
    BoardDealing,
    ChipsPulling,
    Folding,
    HoleCardsShowingOrMucking,
    HoleDealing,
)

from apps import hands
from apps.tables.models import Game

from .models import RoundSource
from .services import PlayerIn, RoundIn

#: PHH variants we take in, and the game they are played as (draw games and short deck are not taken in).
SUPPORTED_VARIANTS = {"NT": Game.HOLDEM, "FT": Game.HOLDEM, "PO": Game.OMAHA, "FO/8": Game.OMAHA_HILO8,
                      "F7S": Game.STUD, "F7S/8": Game.STUD_HILO8, "FR": Game.STUD_LOW}
_MULTI_HEADER = re.compile(r"^\s*\[\s*\d+\s*\]\s*$", re.MULTILINE)


class PhhError(ValueError):
    """A PHH text that cannot be taken in; the message says which hand and what is wrong."""


@dataclass(frozen=True)
class ParsedHand:
    """One hand of a PHH source, ready for rounds.services.record_round."""

    game: str
    round_in: RoundIn
    finishing_stacks: tuple[Decimal, ...] | None


def _money(value: int | float) -> Decimal:
    return Decimal(str(value)).quantize(Decimal("0.01"))


def _cards(cards) -> str:
    text = "".join(f"{c.rank}{c.suit}" for c in cards)
    return "" if "?" in text else text


def _started_at(raw: dict, default: datetime) -> datetime:
    if not all(k in raw for k in ("year", "month", "day")):
        return default
    try:
        zone = ZoneInfo(raw.get("time_zone", "UTC"))
    except (ZoneInfoNotFoundError, ValueError):
        zone = UTC
    at = raw.get("time") if isinstance(raw.get("time"), time) else time(0, 0)
    return datetime(raw["year"], raw["month"], raw["day"], at.hour, at.minute, at.second, tzinfo=zone)


_CARD_ACTION = re.compile(r"^(?:d dh p\d+|d db|p\d+ sm)\s+(\S+)")


def _verify_dealt_cards(actions: list[str], label: str) -> None:
    """Check every dealt or shown card with our engine first, for a clear message (unknown '??' are allowed)."""
    dealt: list[hands.Card] = []
    for action in actions:
        match = _CARD_ACTION.match(str(action).strip())
        if not match or match.group(1) == "-":
            continue
        text = match.group(1).replace("??", "")
        try:
            cards = hands.parse_cards(text)
        except hands.HandError as exc:
            raise PhhError(f"{label}: action {action!r}: {exc}") from exc
        if " sm " not in f" {action} ":  # a show repeats cards dealt face down before
            dealt.extend(cards)
    try:
        hands.check_distinct(dealt)
    except hands.HandError as exc:
        raise PhhError(f"{label}: {exc}") from exc


def _replay(hh: HandHistory, raw: dict, label: str, default_time: datetime) -> ParsedHand:
    _verify_dealt_cards(list(raw.get("actions", [])), label)
    state = None
    try:
        for state, _ in hh.state_actions:  # noqa: B007 - the last state is the hand's end
            pass
    except Exception as exc:  # pokerkit raises ValueError and friends for illegal actions or cards
        raise PhhError(f"{label}: the actions cannot be replayed ({exc}).") from exc
    assert state is not None
    if state.status:
        raise PhhError(f"{label}: the hand is incomplete (it ends before the pot is awarded).")
    count = len(hh.starting_stacks)
    hole: list[str] = [""] * count
    folded, shown, mucked = [False] * count, [False] * count, [False] * count
    pulled = [0] * count
    board = []
    streets: list[list[int]] = [[] for _ in range(count)]
    carried = [0] * count  # antes collected before the cards are dealt belong to the first betting round
    dealt = False
    for op in state.operations:
        if isinstance(op, BetCollection):
            if not dealt:
                carried = [c + b for c, b in zip(carried, op.bets, strict=True)]
            else:
                for i, bet in enumerate(op.bets):
                    streets[i].append(bet + carried[i])
                carried = [0] * count
        if isinstance(op, HoleDealing):
            dealt = True
            hole[op.player_index] += _cards(op.cards)
        elif isinstance(op, HoleCardsShowingOrMucking):
            if op.hole_cards:
                text = _cards(op.hole_cards)
                if text:
                    hole[op.player_index] = text
                shown[op.player_index] = True
            else:
                mucked[op.player_index] = True
        elif isinstance(op, Folding):
            folded[op.player_index] = True
        elif isinstance(op, BoardDealing):
            board.append(_cards(op.cards))
        elif isinstance(op, ChipsPulling):
            pulled[op.player_index] += op.amount
    remaining = sum(1 for i in range(count) if not folded[i])
    names = list(raw.get("players") or [f"p{i + 1}" for i in range(count)])
    players = []
    for i in range(count):
        contributed = hh.starting_stacks[i] - state.stacks[i] + pulled[i]
        player_streets = streets[i] or [carried[i]]
        # an uncalled bet pokerkit handed back without collecting it was bet in the last betting round
        player_streets[-1] += contributed - sum(player_streets)
        if contributed == 0 and folded[i] is False and not hole[i] and not shown[i]:
            folded[i] = True  # never in the pot: sat out
        players.append(PlayerIn(
            seat=i + 1, name=str(names[i])[:80] if i < len(names) else f"p{i + 1}",
            contributed=_money(contributed), hole_cards=hole[i], folded=folded[i],
            streets=tuple(_money(a) for a in player_streets),
            mucked=not folded[i] and (mucked[i] or (remaining > 1 and not hole[i])), starting_stack=_money(hh.starting_stacks[i]),
        ))
    finishing = raw.get("finishing_stacks")
    digest = hashlib.sha256(hh.dumps().encode()).hexdigest()
    return ParsedHand(
        game=SUPPORTED_VARIANTS[hh.variant],
        round_in=RoundIn(players=players, started_at=_started_at(raw, default_time), board="".join(board),
                         source=RoundSource.PHH, source_name=label, source_digest=digest),
        finishing_stacks=tuple(_money(v) for v in finishing) if finishing else None,
    )


def parse_phh(text: str, *, name: str = "PHH", default_time: datetime | None = None) -> Iterator[ParsedHand]:
    """Parse a `.phh` (one hand) or `.phhs` (hands under `[N]` headers) text into hands to record.

    Yields ParsedHand one by one (so a large file streams). Raises PhhError naming the hand and the fault:
    TOML syntax, a missing field, an unsupported variant (hold'em `NT` and `FT` for now), unknown or
    duplicate cards, actions that cannot be replayed.
    """
    default_time = default_time or datetime.now(tz=UTC)
    try:
        document = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise PhhError(f"{name}: not valid PHH/TOML ({exc}).") from exc
    if _MULTI_HEADER.search(text) and document and all(isinstance(v, dict) for v in document.values()):
        sections = [(f"{name}#{key}", raw) for key, raw in document.items()]
    else:
        sections = [(name, document)]
    if not sections or sections == [(name, {})]:
        raise PhhError(f"{name}: no hand found.")
    for label, raw in sections:
        variant = raw.get("variant")
        if variant not in SUPPORTED_VARIANTS:
            raise PhhError(f"{label}: variant {variant!r} is not supported; "
                           f"supported: {', '.join(sorted(SUPPORTED_VARIANTS))}.")
        try:
            hh = HandHistory(**HandHistory._filter_non_fields(**raw))
        except Exception as exc:
            raise PhhError(f"{label}: {exc}") from exc
        yield _replay(hh, raw, label, default_time)
