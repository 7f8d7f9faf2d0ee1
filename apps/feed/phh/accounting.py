"""Our accounting of a PHH hand's actions: what each player put in and got back, street by street, and the cards
held, discarded, drawn and shown, as the actions say (`_Account`); each player's stack at the end
(`finishing_stacks`)."""
from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from decimal import Decimal

from apps.core.money import CENT, ZERO
from apps.tables.models import BettingStructure, Game

from ..types import DrawIn, PlayerIn
from .documents import ParsedHand, PhhError, Variant

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
    cards_not_revealed: bool = False                  # a contender's cards unknown at the showdown

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
        if all(token == "??" for token in tokens):  # shown, but the history does not know the cards: not revealed
            return  # the player stays in; concede_unrevealed settles the showdown
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

    def concede_unrevealed(self, won: Sequence[bool] | None) -> None:
        """After `finish`: a showdown where the history does not give some contender's cards (dealt '??' and never
        shown, or shown as `pN sm ????`) is settled by what the history records. With `won` (per player, whether the
        hand's `winnings` pay them something from the pots) the contenders it pays stay in and the others concede;
        without it, or when it pays no contender, the contenders whose cards were not revealed concede, as a player
        who mucks (14.15(d)-conceded). Raises PhhError when that leaves no contender, or a contender whose cards are
        unknown beside another: the engine cannot rank them to split the pots."""
        contenders = [i for i in range(self.n) if not self.folded[i] and not self.mucked[i]]
        hidden = {i for i in contenders if not self.hole[i] or "??" in self.hole[i]}
        if len(contenders) < 2 or not hidden:
            return
        self.cards_not_revealed = True
        keep = [i for i in contenders if won is not None and won[i]] or [i for i in contenders if i not in hidden]
        if not keep:
            raise PhhError(f"{self.label}: no cards are revealed at the showdown and the hand records no winnings "
                           "to say who won.")
        unknown = [i for i in keep if i in hidden]
        if len(keep) > 1 and unknown:
            raise PhhError(f"{self.label}: the winnings pay {', '.join(f'p{i + 1}' for i in keep)} at the showdown, "
                           f"but the cards of {', '.join(f'p{i + 1}' for i in unknown)} were not revealed: the pots "
                           "cannot be split between them.")
        for i in contenders:
            if i not in keep:
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
            mucked=in_play and contested and self.mucked[i],
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
