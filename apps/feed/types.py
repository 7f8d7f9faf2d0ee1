"""The shape of a round of play as the hand feed reports it (dealer's tablet, electronic table, PHH file,
dealer simulator), before it is verified and recorded. Amounts are Decimal dollars with cents."""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from decimal import Decimal

from apps.rounds.models import RoundSource


@dataclass(frozen=True, slots=True)
class DrawIn:
    """One draw of a draw game (14.12(f), 14.12A(f), (h), (j), 14.12B(f), (h), (j)): the cards the player
    discarded and the cards dealt in their place, as text ('' when standing pat; '??' for a card not shown)."""

    discarded: str = ""
    drawn: str = ""


@dataclass(frozen=True, slots=True)
class PlayerIn:
    """A seat as reported by the feed.

    contributed: everything the player put in during the round (Decimal dollars), an uncalled final bet and
    dead money included. hole_cards: the cards held at the end ('' when unknown): in a draw game the hand
    after the last draw, in stud all the player's cards. mucked: reached the showdown but conceded without
    showing (14.15(d)-shown, 14.15(d)-conceded). streets: optional, what the player put in each betting round in order
    (antes and blinds in the first); they add up to `contributed`; with them the percentage rake is limited betting
    round by betting round (14.14(b)1-per-betting-round). returned: the uncalled bet given back (14.14(d)) when the feed
    tracked the betting itself (PHH); None to derive it. dead: chips that went to the main pot unmatched (antes posted
    as dead money, the dead part of a missed blind posted by a returning player: the JSON feed's `dead_blind`); they are
    part of `contributed`, the live part of the blind too. straddle: the straddle the player posted, a live blind raise
    before the cards (Decimal dollars, 0 for none), part of `contributed` and of the first betting round. dealt_cards
    and draws: a draw game's hand as dealt and each draw. """

    seat: int
    contributed: Decimal
    name: str = ""
    hole_cards: str = ""
    folded: bool = False
    mucked: bool = False
    starting_stack: Decimal | None = None
    streets: tuple[Decimal, ...] = ()
    returned: Decimal | None = None
    dead: Decimal = Decimal("0.00")
    dealt_cards: str = ""
    draws: tuple[DrawIn, ...] = ()
    straddle: Decimal = Decimal("0.00")


@dataclass(frozen=True, slots=True)
class RoundIn:
    """A round of play as reported by the feed.

    game / betting_structure: the game dealt (tables.models.Game and BettingStructure values); None for the
    table's game, required at a mixed-game table whose rotation deals several. deck: serial of the deck dealt, ''
    when the feed does not say (the shuffler alternation check reads it). dead_reason: non-empty when the round was
    called dead (14.15(g)-dead).
    source_digest: SHA-256 of the source hand, so that each is stored once. boards: a hand run two or three times,
    each run's full board (they share the cards dealt before the all-in; `board` is then '' or the first run's).
    bomb_pot: every player dealt in put in the table's posted bomb-pot ante and nothing else before the flop.
    button: the seat of the dealer button, which places the straddles of a table that allows them under the gun or
    on the button only; None when the feed does not say.
    """

    players: Sequence[PlayerIn]
    started_at: datetime
    board: str = ""
    game: str | None = None
    betting_structure: str | None = None
    source: str = RoundSource.JSON
    source_name: str = ""
    source_digest: str | None = None
    dead_reason: str = ""
    deck: str = ""
    boards: tuple[str, ...] = ()
    bomb_pot: bool = False
    button: int | None = None
