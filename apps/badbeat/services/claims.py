"""Claims on a bad beat payout (N.J.A.C. 13:69F-14.19(a)-losing-hand, 14.19(i), 14.19(n), 14.19(m)2-both-qualify):
opened on a round the engine finds qualifying, verified or rejected by a poker shift supervisor; and this casino's part
of a claim on a payout shared with other casinos (14.20(e)4-two-claims), which the system's host decides."""
from __future__ import annotations

from decimal import Decimal

from django.db import transaction
from django.utils import timezone

from apps import hands
from apps.casinos.models import User
from apps.core.exceptions import DomainError
from apps.core.roles import Role
from apps.rounds.models import RoundOfPlay

from ..models import (
    Claim,
    ClaimShare,
    ClaimStatus,
    Jackpot,
    JackpotStatus,
    PayoutNotification,
)
from ..qualifying import Verdict
from ..selectors import amount_to_freeze, judge_round, payout_shares, primary_paid_instead
from ..shared import SharedPayoutSystem, shared_payout_system
from .locking import drawn_from, lock_jackpots_by_id


def _claim_fields(verdict: Verdict) -> dict:
    losing, winning = verdict.losing_hand, verdict.winning_hand
    return {"seat": verdict.losing_seats[0] if verdict.losing_seats else 0,
            "losing_hand": losing.category.label if losing else "",
            "losing_cards": hands.format_cards(losing.cards) if losing else "",
            "winning_hand": winning.category.label if winning else "",
            "winning_cards": hands.format_cards(winning.cards) if winning else "",
            "evaluation": verdict.as_json()}


def open_claim(*, jackpot: Jackpot, round_of_play: RoundOfPlay, opened_by: User | None = None) -> Claim:
    """Open a claim on a round for a supervisor to verify (N.J.A.C. 13:69F-14.19(i)); the engine's verdict is
    stored with it. Idempotent per jackpot and round. Raises DomainError for a round of another casino, or at a
    table that does not offer the payout."""
    if round_of_play.table.casino_id != jackpot.casino_id:
        raise DomainError("The round was played at another casino.", field="round_of_play")
    if not round_of_play.table.bad_beat_participation:
        raise DomainError(f"Table {round_of_play.table.number} does not offer a bad beat payout.",
                          field="round_of_play")
    existing = Claim.objects.filter(jackpot=jackpot, round_of_play=round_of_play).first()
    if existing:
        return existing
    verdict = judge_round(jackpot=jackpot, round_of_play=round_of_play)
    claim, _ = Claim.objects.get_or_create(jackpot=jackpot, round_of_play=round_of_play,
                                           defaults={**_claim_fields(verdict), "opened_by": opened_by})
    return claim


def open_claims_for_round(*, round_of_play: RoundOfPlay) -> list[Claim]:
    """Open a pending claim for each live jackpot (active or with a payout pending) the round qualifies for
    (14.19(a)-losing-hand, 14.19(i)), unless the both-qualify rule leaves it to the primary
    (`selectors.primary_paid_instead`)."""
    jackpots = [j for j in Jackpot.objects.filter(casino_id=round_of_play.table.casino_id).select_related("primary")
                if j.status != JackpotStatus.DISCONTINUED]
    qualifying = {j.pk: j for j in jackpots if judge_round(jackpot=j, round_of_play=round_of_play).qualifies}
    return [open_claim(jackpot=jackpot, round_of_play=round_of_play) for jackpot in qualifying.values()
            if not primary_paid_instead(jackpot=jackpot, round_of_play=round_of_play, qualifying=qualifying)]


def _judged(claim: Claim, jackpot: Jackpot) -> Verdict:
    """The engine's verdict on the claim's round under `jackpot`'s rules, kept on the claim (14.19(i)). Raises
    DomainError naming every failed check when the hand does not qualify."""
    verdict = judge_round(jackpot=jackpot, round_of_play=claim.round_of_play)
    claim.evaluation = verdict.as_json()
    if not verdict.qualifies:
        failed = "; ".join(c.detail for c in verdict.checks if not c.passed)
        raise DomainError(f"The hand does not qualify: {failed}", field="claim")
    return verdict


def _write_shares(claim: Claim, jackpot: Jackpot, amount: Decimal, verdict: Verdict) -> None:
    """Split `amount` (Decimal dollars) among the round's players as the jackpot posts it (14.19(b)3-applied,
    14.19(n)) and record each share once."""
    names = dict(claim.round_of_play.players.values_list("seat", "name"))
    parts = payout_shares(jackpot=jackpot, amount=amount, verdict=verdict)
    ClaimShare.objects.bulk_create([ClaimShare(claim=claim, seat=seat, role=role, amount=value,
                                               player=names.get(seat, "")) for seat, role, value in parts])


@transaction.atomic
def verify_claim(*, claim: Claim, supervisor: User) -> Claim:
    """A poker shift supervisor verifies a bad beat (N.J.A.C. 13:69F-14.19(i)): the engine judges the round
    again under the jackpot's rules; if it qualifies, the payout amount is frozen (the balance, or the
    secondary's portion of the primary, 14.19(m)2-deducted), split into shares (14.19(b)3-applied, 14.19(n)), the
    display shows "payout pending" (14.19(i)1) and security and accounting are notified to deliver it (14.19(i)2); the
    same notice asks accounting to adjust and verify at once the display of the jackpot and, for a secondary funded from
    the primary, the primary's (14.19(k)-upon-verification), which the pages then ask for until it is done
    (selectors.displays_to_adjust_upon_verification). The notice is a row of this transaction: it is there from the
    verification's commit, and gone with a verification rolled back. Raises DomainError when the claim is not pending,
    the hand does not qualify, another payout of the jackpot is pending, or there is nothing to pay."""
    if not supervisor.has_role(Role.POKER_SHIFT_SUPERVISOR):
        raise DomainError("Only a poker shift supervisor verifies a bad beat (14.19(i)).", field="supervisor")
    if system := shared_payout(claim.jackpot):  # judged and verified here, then decided by the system's host
        return system.submit_claim(claim=_verify_shared_claim(claim=claim, supervisor=supervisor),
                                   supervisor=supervisor)
    # of=self: locking the joined table row too would block every contribution's foreign-key check (deadlock).
    claim = Claim.objects.select_for_update(of=("self",)).select_related("round_of_play__table").get(pk=claim.pk)
    if claim.status != ClaimStatus.PENDING:
        raise DomainError(f"This claim is already {claim.get_status_display().lower()}.", field="status")
    ids = [claim.jackpot_id]
    if claim.jackpot.funded_from_primary:
        ids.append(drawn_from(Jackpot.objects.get(pk=claim.jackpot_id)))
    locked = lock_jackpots_by_id(*ids)
    jackpot = locked[claim.jackpot_id]
    if jackpot.status != JackpotStatus.ACTIVE:
        raise DomainError(f"This payout is {jackpot.get_status_display().lower()}: verify after it is settled.",
                          field="status")
    verdict = _judged(claim, jackpot)
    if primary_paid_instead(jackpot=jackpot, round_of_play=claim.round_of_play):
        raise DomainError("This round also qualifies for the primary payout; the posted rule pays only the "
                          "primary (14.19(m)2.i).", field="claim")
    if jackpot.funded_from_primary:
        jackpot.primary = locked[drawn_from(jackpot)]
        if jackpot.primary.status != JackpotStatus.ACTIVE:
            raise DomainError(f"The {jackpot.primary.name} payout it is funded from is pending: verify after it is "
                              "paid.", field="status")
    # Money already promised to a pending secondary payout funded from this one is not paid twice (14.19(m)2.ii).
    amount = amount_to_freeze(jackpot=jackpot)
    if amount <= 0:
        raise DomainError("The payout amount is $0.00.", field="claim")
    _write_shares(claim, jackpot, amount, verdict)
    claim.__dict__.update(_claim_fields(verdict))
    claim.status, claim.payout_amount = ClaimStatus.VERIFIED, amount
    claim.decided_by, claim.decided_at = supervisor, timezone.now()
    claim.save()
    jackpot.status = JackpotStatus.PAYOUT_PENDING
    jackpot.save(update_fields=["status", "updated_at"])
    PayoutNotification.objects.create(claim=claim, casino_id=jackpot.casino_id,
                                      message=_verified_notice(claim, jackpot, amount, supervisor))
    return claim


#: The notice's room (PayoutNotification.message).
NOTICE_LENGTH = 300


def _verified_notice(claim: Claim, jackpot: Jackpot, amount: Decimal, supervisor: User) -> str:
    """The notice of a verified payout (`jackpot` read with its primary when funded from it): security or accounting
    delivers it (14.19(i)2), and accounting adjusts and verifies the displays it moves at once, in a poker
    supervisor's presence — the jackpot's and the primary's it is drawn from. At most NOTICE_LENGTH characters:
    the displays go unnamed when their names do not fit."""
    deliver = (f"Deliver the {jackpot.name} payout of ${amount:,.2f} to table {claim.round_of_play.table.number} "
               f"(round {claim.round_of_play_id}); verified by {supervisor.get_full_name() or supervisor.username}.")
    displays = [jackpot] + ([jackpot.primary] if jackpot.funded_from_primary and jackpot.primary else [])
    named = (f" Accounting: adjust and verify the {' and the '.join(d.name for d in displays)} display"
             f"{'s' if len(displays) > 1 else ''} now, in a poker supervisor's presence (14.19(k)).")
    unnamed = " Accounting: adjust and verify the displays now, in a poker supervisor's presence (14.19(k))."
    return (deliver + named if len(deliver + named) <= NOTICE_LENGTH else deliver + unnamed)[:NOTICE_LENGTH]


@transaction.atomic
def reject_claim(*, claim: Claim, supervisor: User, note: str) -> Claim:
    """A poker shift supervisor rejects a claim, with the reason (14.19(i))."""
    if not supervisor.has_role(Role.POKER_SHIFT_SUPERVISOR):
        raise DomainError("Only a poker shift supervisor decides a claim (14.19(i)).", field="supervisor")
    if not note.strip():
        raise DomainError("Say why the claim is rejected.", field="note")
    claim = Claim.objects.select_for_update().get(pk=claim.pk)
    if claim.status != ClaimStatus.PENDING:
        raise DomainError(f"This claim is already {claim.get_status_display().lower()}.", field="status")
    claim.status, claim.decided_by, claim.decided_at, claim.decision_note = (
        ClaimStatus.REJECTED, supervisor, timezone.now(), note.strip()[:300])
    claim.save()
    return claim


# --- claims on a payout shared with other casinos (14.20) -------------------------------------------------------

def shared_payout(jackpot: Jackpot) -> SharedPayoutSystem | None:
    """The registered multi-casino system (apps.badbeat.shared) when this jackpot's contributions belong to it,
    or None when the jackpot is this casino's alone."""
    system = shared_payout_system()
    return system if system is not None and system.manages(jackpot=jackpot) else None


def _verify_shared_claim(*, claim: Claim, supervisor: User) -> Claim:
    """This casino's part of verifying a claim on a shared payout (14.19(i)): the engine judges it and the claim
    is verified here, without an amount; the system's host then freezes the amount (14.20(e)4-two-claims). Raises
    DomainError when it is not pending or does not qualify. Call in the transaction that hands it to the system."""
    claim = Claim.objects.select_for_update(of=("self",)).select_related("round_of_play__table", "jackpot").get(
        pk=claim.pk)
    if claim.status != ClaimStatus.PENDING:
        raise DomainError(f"This claim is already {claim.get_status_display().lower()}.", field="status")
    verdict = _judged(claim, claim.jackpot)
    claim.__dict__.update(_claim_fields(verdict))
    claim.status, claim.decided_by, claim.decided_at = ClaimStatus.VERIFIED, supervisor, timezone.now()
    claim.decision_note = "Verified here; sent to the host of the multi-casino system (14.20(e)4)."
    claim.save()
    return claim


def freeze_shared_claim(*, claim: Claim, amount: Decimal, note: str) -> Claim:
    """The host froze this claim's payout amount (Decimal dollars; under a split rule it may be lowered while
    other claims join): security and accounting are notified to deliver it (14.19(i)2). Idempotent."""
    claim = Claim.objects.select_for_update(of=("self",)).select_related("round_of_play__table", "jackpot").get(
        pk=claim.pk)
    if claim.status != ClaimStatus.VERIFIED or claim.payout_amount == amount:
        return claim
    claim.payout_amount = amount
    claim.save(update_fields=["payout_amount"])
    claim.notifications.filter(acknowledged_at__isnull=True).delete()
    PayoutNotification.objects.create(
        claim=claim, casino_id=claim.jackpot.casino_id,
        message=(f"Deliver the multi-casino payout of ${amount:,.2f} to table {claim.round_of_play.table.number} "
                 f"(round {claim.round_of_play_id}); {note}")[:300])
    return claim


def refuse_shared_claim(*, claim: Claim, answer: str) -> Claim:
    """The host answered that this claim is not paid (14.20(e)4-two-claims): it is rejected here with the host's
    answer."""
    claim = Claim.objects.select_for_update(of=("self",)).get(pk=claim.pk)
    if claim.status in (ClaimStatus.VERIFIED, ClaimStatus.PENDING):
        claim.status, claim.decision_note = ClaimStatus.REJECTED, answer[:300]
        claim.save(update_fields=["status", "decision_note"])
        claim.notifications.filter(acknowledged_at__isnull=True).delete()
    return claim


def _mark_shared_claim_paid(*, claim: Claim, delivered_by: User) -> Claim:
    """This casino's part of delivering the payout of a shared claim (the host's pool, not this casino's jackpot,
    pays it): the frozen amount is split among the players as posted (14.19(b)3-applied, 14.19(n)). Raises
    DomainError unless the claim is verified and the host froze its amount. Call in the transaction that hands it to
    the system (`payouts.record_payout`)."""
    claim = Claim.objects.select_for_update(of=("self",)).select_related("round_of_play", "jackpot").get(pk=claim.pk)
    if claim.status != ClaimStatus.VERIFIED:
        raise DomainError(f"This claim is {claim.get_status_display().lower()}: only a payout the host confirmed as "
                          "pending is delivered.", field="claim")
    if claim.payout_amount is None:
        raise DomainError("The host has not frozen this payout yet: deliver it once the notice says pending.",
                          field="claim")
    _write_shares(claim, claim.jackpot, claim.payout_amount,
                  judge_round(jackpot=claim.jackpot, round_of_play=claim.round_of_play))
    claim.status = ClaimStatus.PAID
    claim.save(update_fields=["status"])
    claim.notifications.filter(acknowledged_at__isnull=True).update(acknowledged_by=delivered_by,
                                                                    acknowledged_at=timezone.now())
    return claim
