"""The history tabs of the bad beat records (apps.core.history): a claim with its payout, on the claim page, and the
rule changes, on the posted rules page — who changed what, when, from what to what, from their pghistory events
(N.J.A.C. 13:69F-14.19(i), (j), 14.19(q)-notice). Read-only."""
from __future__ import annotations

from apps.casinos.models import Casino
from apps.core.history import Source, events_of

from .models import Claim, Jackpot, Payout, RuleChange

#: The claim's columns shown in its history, in this order, with their labels.
CLAIM_FIELDS = {
    "status": "Status", "payout_amount": "Payout amount", "decided_by": "Decided by", "decided_at": "Decided at",
    "decision_note": "Note", "seat": "Losing seat", "losing_hand": "Losing hand", "losing_cards": "Losing cards",
    "winning_hand": "Winning hand", "winning_cards": "Winning cards", "evaluation": "Engine's verdict",
    "opened_by": "Opened by",
}
#: The payout's columns (a payout is append-only: its one event is its recording, 14.19(i)2, (j)).
PAYOUT_FIELDS = {
    "amount": "Amount", "debited": "Paid from", "method": "Paid in", "location": "Where", "delivered_by": "Delivered by",
    "recorded_by": "Recorded by", "gaming_day": "Gaming day",
}
#: A rule change's columns: its notice, what it changes, when, and what became of it (14.19(q)).
RULE_CHANGE_FIELDS = {
    "summary": "Notice", "changes": "Changes", "effective_at": "Takes effect", "status": "Status",
    "makes_qualifying_harder": "Makes qualifying harder", "proposed_by": "Proposed by", "applied_at": "In effect since",
    "failure_reason": "Why it failed", "failed_at": "Failed at", "withdrawn_by": "Withdrawn by",
    "withdrawn_at": "Withdrawn at",
}


def _verdict(evaluation: dict) -> str:
    return "qualifies" if evaluation.get("qualifies") else "does not qualify"


def _changes(changes: dict) -> str:
    """A rule change's {field: new value} as posted: "minimum_pot: 25.00; qualifying_hand: straight_flush"."""
    return "; ".join(f"{name.replace('_', ' ')}: {value}" for name, value in sorted(changes.items()))


def _fund_names(casino_id: int) -> dict[int, str]:
    return dict(Jackpot.objects.filter(casino_id=casino_id).values_list("pk", "name"))


def claim_sources(*, claim: Claim) -> list[Source]:
    """The claim's events (opened by the engine or a supervisor, verified, rejected, paid) and its payout's: for the
    claim page's history tab, which those who may read the claim read (badbeat.view_claim)."""
    funds = _fund_names(claim.jackpot.casino_id)
    return [
        Source(events=events_of(Claim).filter(pgh_obj_id=claim.pk), fields=CLAIM_FIELDS, record="Claim",
               created="Opened", formats={"evaluation": _verdict}),
        Source(events=events_of(Payout).filter(claim_id=claim.pk), fields=PAYOUT_FIELDS, record="Payout",
               formats={"debited": lambda pk: funds.get(pk, f"#{pk}")}),
    ]


def rule_change_sources(*, casino: Casino, change_id: int | None = None) -> list[Source]:
    """The rule changes' events of the casino's payouts (or of the one change `change_id`): posted, withdrawn, put
    into effect or failed, for the rules page's history tab (badbeat.view_jackpot, as the notices themselves)."""
    funds = _fund_names(casino.pk)
    events = events_of(RuleChange).filter(jackpot_id__in=list(funds))
    if change_id is not None:
        events = events.filter(pgh_obj_id=change_id)
    return [Source(events=events, fields=RULE_CHANGE_FIELDS, created="Notice posted",
                   record=lambda e: f"Rule change #{e.pgh_obj_id} ({funds.get(e.jackpot_id, 'a payout')})",
                   formats={"changes": _changes})]
