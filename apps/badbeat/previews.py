"""What a decision on a bad beat claim would pay, shown before it is confirmed (N.J.A.C. 13:69F-14.19(i), (j), (n)).

The claim page shows the supervisor, before verifying, the amount that verifying would freeze and how it would be
split among the players; and security or accounting, before recording the delivery, the frozen amount and its
shares. Every figure comes from the selectors the services use (`amount_to_freeze`, `judge_round`,
`payout_shares`), nothing is computed anew here. A preview carries a fingerprint of its figures: the page posts it
back with the confirmation, and the view refuses a confirmation whose figures are no longer those written.
"""
from __future__ import annotations

import hashlib
from collections.abc import Iterable
from dataclasses import dataclass, field
from decimal import Decimal

from .models import Claim, ClaimStatus, JackpotStatus, ShareRole
from .selectors import amount_to_freeze, judge_round, payout_shares, primary_of, primary_paid_instead
from .services import shared_payout


@dataclass(frozen=True)
class PreviewShare:
    """One player's part of a payout: seat, name, role (losing, winning, other player dealt in), Decimal dollars."""

    seat: int
    player: str
    role: str
    amount: Decimal

    @property
    def role_label(self) -> str:
        return ShareRole(self.role).label


@dataclass(frozen=True)
class PayoutPreview:
    """The money a decision would move: `amount` (Decimal dollars; None when no amount is known here) split into
    `shares`, taken from `debited` (the jackpot's name, or the primary's for a secondary funded from it,
    14.19(m)2-deducted). `note` says why there is no amount (the hand does not qualify, the multi-casino host freezes
    it, ...). `decided_elsewhere`: the multi-casino system's host freezes the amount."""

    amount: Decimal | None
    shares: tuple[PreviewShare, ...] = ()
    debited: str = ""
    note: str = ""
    decided_elsewhere: bool = False
    fingerprint: str = field(init=False)

    def __post_init__(self):
        object.__setattr__(self, "fingerprint", fingerprint(self.amount, ((s.seat, s.role, s.amount)
                                                                          for s in self.shares)))


def fingerprint(amount: Decimal | None, shares: Iterable[tuple[int, str, Decimal]]) -> str:
    """A short digest of an amount and its shares [(seat, role, amount)], in seat order: what a confirmation
    confirmed, compared with what was written."""
    text = ("-" if amount is None else f"{amount:.2f}") + "|" + ";".join(
        f"{seat}:{role}:{value:.2f}" for seat, role, value in sorted(shares))
    return hashlib.sha256(text.encode()).hexdigest()[:24]


def written_fingerprint(claim: Claim) -> str:
    """The fingerprint of the amount and shares recorded on `claim` (read from the database)."""
    claim.refresh_from_db(fields=["payout_amount"])
    return fingerprint(claim.payout_amount, claim.shares.values_list("seat", "role", "amount"))


def _split(claim: Claim, amount: Decimal, verdict) -> tuple[PreviewShare, ...]:
    """`amount` split among the claim's round's players as the jackpot posts it (14.19(b)3-applied, 14.19(n)), as the
    services write the shares."""
    names = dict(claim.round_of_play.players.values_list("seat", "name"))
    parts = payout_shares(jackpot=claim.jackpot, amount=amount, verdict=verdict)
    return tuple(PreviewShare(seat=seat, player=names.get(seat, ""), role=role, amount=value)
                 for seat, role, value in parts)


def _debited(claim: Claim) -> str:
    jackpot = claim.jackpot
    return primary_of(jackpot).name if jackpot.funded_from_primary else jackpot.name


def verification_preview(*, claim: Claim) -> PayoutPreview | None:
    """What verifying the pending `claim` now would freeze and pay (14.19(i), (n), 14.19(m)2-deducted): the engine's
    verdict on the round, the jackpot's payable amount less what pending secondary payouts funded from it already hold
    (as `services.verify_claim` computes it) and its split among the players. None for a claim that is not pending.
    An amount of None with a note when verifying would pay nothing here (the hand does not qualify, the posted rule
    leaves the round to the primary payout as verify_claim does, `selectors.primary_paid_instead`, the payout is not
    active, the multi-casino host decides the amount)."""
    if claim.status != ClaimStatus.PENDING:
        return None
    jackpot = claim.jackpot
    if shared_payout(jackpot):
        return PayoutPreview(amount=None, debited="the multi-casino system's pool", decided_elsewhere=True,
                             note="The host of the multi-casino system freezes the amount once this casino verifies "
                                  "the hand (14.20(e)4); the shares are split when it is paid.")
    verdict = judge_round(jackpot=jackpot, round_of_play=claim.round_of_play)
    if not verdict.qualifies:
        return PayoutPreview(amount=None, note="The engine finds the hand does not qualify: verifying is refused "
                                               "and nothing is paid.")
    if primary_paid_instead(jackpot=jackpot, round_of_play=claim.round_of_play):
        return PayoutPreview(amount=None, note="This round also qualifies for the primary payout; the posted rule pays "
                                               "only the primary (14.19(m)2.i): verifying is refused.")
    source = primary_of(jackpot) if jackpot.funded_from_primary else jackpot
    for payout in {jackpot.pk: jackpot, source.pk: source}.values():
        if payout.status != JackpotStatus.ACTIVE:
            return PayoutPreview(amount=None, note=f"The {payout.name} payout is "
                                                   f"{payout.get_status_display().lower()}: verify after it is settled.")
    amount = amount_to_freeze(jackpot=jackpot)
    if amount <= 0:
        return PayoutPreview(amount=None, note="The payout amount is $0.00: there is nothing to pay.")
    return PayoutPreview(amount=amount, shares=_split(claim, amount, verdict), debited=_debited(claim))


def payment_preview(*, claim: Claim) -> PayoutPreview | None:
    """What recording the delivery of the verified `claim` pays (14.19(i)2, (j)): the amount frozen at verification
    and its shares (written at verification; for a multi-casino payout, split now as they will be written). None for
    a claim that is not verified; an amount of None with a note while the multi-casino host has not frozen it."""
    if claim.status != ClaimStatus.VERIFIED:
        return None
    amount = claim.payout_amount
    if amount is None:
        return PayoutPreview(amount=None, note="The host of the multi-casino system has not frozen this payout yet: "
                                               "deliver it once the notice says pending.")
    written = list(claim.shares.order_by("seat"))
    if written:
        shares = tuple(PreviewShare(seat=s.seat, player=s.player, role=s.role, amount=s.amount) for s in written)
    else:
        shares = _split(claim, amount, judge_round(jackpot=claim.jackpot, round_of_play=claim.round_of_play))
    shared = shared_payout(claim.jackpot) is not None
    return PayoutPreview(amount=amount, shares=shares,
                         debited="the multi-casino system's pool" if shared else _debited(claim))
