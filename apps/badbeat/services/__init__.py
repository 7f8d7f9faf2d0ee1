"""Writes about bad beat payouts (N.J.A.C. 13:69F-14.19), one module per concern:

- `rules`: posted rules, secondary payouts and notices of rule changes, put into effect when due
  (14.19(b)-rules-posted, 14.19(m), 14.19(q)-notice); a multi-casino system's rules adopted here (14.20(c)1).
- `contributions`: what one pot contributes under the posted rules, and its reset part (14.19(b)1-applied,
14.19(b)2-applied, 14.19(c)-per-pot, 14.19(p)-reset).
- `claims`: claims opened, verified, rejected (14.19(i)); this casino's part of a claim on a shared payout
(14.20(e)4-two-claims).
- `payouts`: payouts delivered, their notices acknowledged, the reset amount of each gaming day (14.19(i)2, (j),
14.19(p)-documented).
- `displays`: accounting's adjustment of the displayed amount (14.19(k)1, 14.19(o)).
- `discontinuing`: a payout discontinued and its funds transferred (14.19(l)-discontinue).
- `feed_steps`: the steps the hand feed calls while it records rounds: lock the jackpots, take the contributions,
  check the showdowns (14.19(c)-per-pot, 14.19(i)).
- `locking`: the jackpots' row locks, always in primary-key order.

Every movement of money is an append-only record written in the same transaction that moves the jackpot's
balance, under a row lock on the jackpot(s), always taken in primary-key order (`locking`).

No cycles: locking and contributions need none of the others; rules needs them both; claims, locking; payouts,
claims and locking; displays and discontinuing, locking; feed_steps, claims and contributions. Names with a leading
underscore are the package's own. Other apps import the public names from here (`from apps.badbeat import
services`); a test that replaces a function replaces it in the module that owns it, where it is looked up.
"""
from .claims import (
    freeze_shared_claim,
    open_claim,
    open_claims_for_round,
    refuse_shared_claim,
    reject_claim,
    shared_payout,
    verify_claim,
)
from .contributions import HUNDRED, compute_contribution, reset_part
from .discontinuing import discontinue_jackpot
from .displays import adjust_display
from .feed_steps import (
    BALANCE_FIELDS,
    ContributionsTaken,
    LockedJackpots,
    check_showdowns,
    contributions_owed,
    lock_jackpots,
    read_jackpots,
    report_contributions,
    take_contributions,
)
from .locking import lock_casino_jackpots
from .payouts import acknowledge_notification, document_daily_reset, record_payout
from .rules import (
    FAILURE_REASON_MAX_LENGTH,
    SUMMARY_MAX_LENGTH,
    adopt_shared_rules,
    apply_due_rule_changes,
    create_secondary_jackpot,
    post_jackpot_rules,
    propose_rule_change,
    validate_posted_rules,
    withdraw_rule_change,
)

__all__ = [
    "BALANCE_FIELDS",
    "FAILURE_REASON_MAX_LENGTH",
    "HUNDRED",
    "SUMMARY_MAX_LENGTH",
    "ContributionsTaken",
    "LockedJackpots",
    "acknowledge_notification",
    "adjust_display",
    "adopt_shared_rules",
    "apply_due_rule_changes",
    "check_showdowns",
    "compute_contribution",
    "contributions_owed",
    "create_secondary_jackpot",
    "discontinue_jackpot",
    "document_daily_reset",
    "freeze_shared_claim",
    "lock_casino_jackpots",
    "lock_jackpots",
    "open_claim",
    "open_claims_for_round",
    "post_jackpot_rules",
    "propose_rule_change",
    "read_jackpots",
    "record_payout",
    "refuse_shared_claim",
    "reject_claim",
    "report_contributions",
    "reset_part",
    "shared_payout",
    "take_contributions",
    "validate_posted_rules",
    "verify_claim",
    "withdraw_rule_change",
]
