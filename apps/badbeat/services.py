"""Writes about bad beat payouts (N.J.A.C. 13:69F-14.19): contributions taken from pots, posted rules and their
changes, claims verified by the engine, payouts, displays, reset amounts and discontinuing.

Every movement of money is an append-only record written in the same transaction that moves the jackpot's
balance, under a row lock on the jackpot(s), always taken in primary-key order.
"""
from __future__ import annotations

import copy
import logging
import math
import re
import unicodedata
from collections.abc import Sequence
from datetime import date, datetime
from decimal import Decimal

from django.core.exceptions import ValidationError as DjangoValidationError
from django.db import DatabaseError, DataError, IntegrityError, OperationalError, transaction
from django.db.models import CheckConstraint, OuterRef, Subquery, Sum
from django.utils import timezone

from apps import hands
from apps.casinos.models import Casino, User
from apps.casinos.selectors import current_gaming_day
from apps.casinos.services import hold_open_gaming_days
from apps.core.bulk import insert_rows, totals_statement, update_statement
from apps.core.exceptions import DomainError
from apps.core.kept import KeptQuery
from apps.core.money import CENT, ZERO, floor_to, money
from apps.core.roles import Role
from apps.rounds.models import RoundOfPlay

from .models import (
    RULE_FIELDS,
    BothQualifyRule,
    Claim,
    ClaimShare,
    ClaimStatus,
    Contribution,
    DailyReset,
    DisplayAdjustment,
    DisplayReason,
    Funding,
    GamingDayContributions,
    Jackpot,
    JackpotKind,
    JackpotStatus,
    MultipleLosersRule,
    Payout,
    PayoutLocation,
    PayoutMethod,
    PayoutNotification,
    QualifyingHand,
    ResetSeed,
    RuleChange,
    RuleChangeStatus,
    TableDayContributions,
    Transfer,
)
from .selectors import (
    amount_to_freeze,
    has_been_won_since_rules,
    judge_round,
    last_display_adjustment,
    paid_since,
    payable_amount,
    payout_shares,
    qualifies_as_bad_beat,
    qualifying_rule,
)
from .shared import SharedPayoutSystem, shared_payout_system

HUNDRED = Decimal(100)


def compute_contribution(*, jackpot: Jackpot, pot_total: Decimal, after_rake: Decimal) -> tuple[Decimal, str]:
    """The bad-beat contribution of one pot under the jackpot's posted rules: (amount, how it was computed).

    pot_total: the sums bet (uncalled bet excluded); after_rake: what is left once the rake is taken.
    Nothing below the posted minimum pot (14.19(b)2); a fixed amount or a percentage of the pot after rake,
    never more than the posted maximum (14.19(b)1) nor than what is left in the pot. Decimal dollars.
    """
    if pot_total < jackpot.minimum_pot:
        return ZERO, f"Pot ${pot_total:,.2f} is below the ${jackpot.minimum_pot:,.2f} minimum: no contribution."
    if jackpot.contribution_amount is not None:
        wanted, how = jackpot.contribution_amount, f"${jackpot.contribution_amount:,.2f} per pot"
    else:
        wanted = floor_to(after_rake * jackpot.contribution_percentage / HUNDRED, CENT)
        how = f"{jackpot.contribution_percentage}% of ${after_rake:,.2f} after rake = ${wanted:,.2f}"
    amount = min(wanted, jackpot.maximum_contribution, after_rake)
    if amount < wanted:
        how += f", capped at ${amount:,.2f}"
    return amount, how + "."


def reset_part(*, day_total_before: Decimal, amount: Decimal, percentage: Decimal) -> Decimal:
    """The part of a contribution that funds the next payout (14.19(p)), so that over a gaming day the parts
    add up to exactly the posted percentage of the day's contributions, rounded down to the cent:
    floor(p × (before + amount)) − floor(p × before). Decimal dollars."""
    if not percentage:
        return ZERO
    return (floor_to((day_total_before + amount) * percentage / HUNDRED, CENT)
            - floor_to(day_total_before * percentage / HUNDRED, CENT))


def _lock(*jackpot_ids: int) -> dict[int, Jackpot]:
    """Row-lock jackpots in primary-key order (no deadlock between two writers) and return them by id."""
    locked = Jackpot.objects.select_for_update().filter(pk__in=jackpot_ids).order_by("pk")
    return {j.pk: j for j in locked}


def lock_casino_jackpots(*, casino_id: int) -> list[Jackpot]:
    """Row-lock every jackpot of a casino, in primary-key order. Counts take this lock so that no contribution
    commits while they read the contributions of a box (every contribution is written under it)."""
    return list(Jackpot.objects.select_for_update().filter(casino_id=casino_id).order_by("pk"))


# --- posted rules --------------------------------------------------------------------------------------------

#: How the posted rules are typed (14.19(b)1-4, (m), (n), (p)); every value must also fit its Jackpot column.
_MONEY_RULES = ("minimum_pot", "contribution_amount", "maximum_contribution")
_PERCENT_RULES = ("contribution_percentage", "losing_share", "winning_share", "table_share", "reset_percentage",
                  "primary_portion_percentage")
_WHOLE_NUMBER_RULES = {"qualifying_minimum_rank": (2, 14, "A rank is 2 (deuces) to 14 (aces)."),
                       "minimum_players_dealt": (2, 10, "Between 2 and 10 players.")}
_CHOICE_RULES = {"qualifying_hand": QualifyingHand, "multiple_losers_rule": MultipleLosersRule,
                 "when_both_qualify": BothQualifyRule}
_TEXT_RULES = {"name": False, "other_bonus_awards": True}  # rule -> may hold several lines
_NUMBER_TEXT = re.compile(r"[+-]?[0-9]{1,40}(?:\.[0-9]{1,40})?")
_WHOLE_NUMBER_TEXT = re.compile(r"[+-]?[0-9]{1,6}")
#: The rule a broken Jackpot CheckConstraint is reported on.
_CONSTRAINT_RULES = {"jackpot_amount_or_percentage": "contribution_amount", "jackpot_shares_not_negative": "losing_share"}
SUMMARY_MAX_LENGTH = 2000
FAILURE_REASON_MAX_LENGTH = 2000
logger = logging.getLogger(__name__)


def _number(name: str, value, *, wanted: str) -> Decimal:
    """`value` (text of digits, int, float or Decimal; never a bool) as a finite Decimal; raises DomainError."""
    if isinstance(value, bool) or not isinstance(value, str | int | float | Decimal):
        raise DomainError(wanted, field=name)
    if isinstance(value, str):
        if not _NUMBER_TEXT.fullmatch(value.strip()):
            raise DomainError(wanted, field=name)
        number = Decimal(value.strip())
    elif isinstance(value, float):
        if not math.isfinite(value):
            raise DomainError(wanted, field=name)
        number = Decimal(repr(value))  # 0.1 is 0.1, not its binary expansion
    else:
        number = Decimal(value)
    if not number.is_finite():
        raise DomainError(wanted, field=name)
    return number


def _fits_column(name: str, number: Decimal, *, too_big: str, too_fine: str) -> Decimal:
    """`number` quantized to its Jackpot column (max_digits, decimal_places) when it fits exactly; raises DomainError
    for more digits before the point than the column holds (a numeric overflow in the database) or for a value
    that is not a whole number of cents (hundredths)."""
    column = Jackpot._meta.get_field(name)
    if number and number.adjusted() >= column.max_digits - column.decimal_places:
        raise DomainError(too_big, field=name)
    step = Decimal(1).scaleb(-column.decimal_places)
    if number != number.quantize(step):
        raise DomainError(too_fine, field=name)
    return number.quantize(step)


def _checked_text(name: str, value, *, multiline: bool, max_length: int | None, required: bool) -> str:
    """A text without NUL or other control characters (tab and line breaks allowed when `multiline`) nor lone
    surrogates, within `max_length`; raises DomainError naming `name`."""
    if not isinstance(value, str):
        raise DomainError("Give a text.", field=name)
    allowed = "\t\n\r" if multiline else ""
    if any(unicodedata.category(c) in ("Cc", "Cs") and c not in allowed for c in value):
        raise DomainError("The text may not hold control characters." if multiline else
                          "The text may not hold control characters or line breaks.", field=name)
    if max_length is not None and len(value) > max_length:
        raise DomainError(f"At most {max_length} characters.", field=name)
    if required and not value.strip():
        raise DomainError("This rule needs a value.", field=name)
    return value


def _typed_rule(name: str, value):
    """One posted-rule value typed as its Jackpot column holds it; raises DomainError naming the rule."""
    column = Jackpot._meta.get_field(name)
    if value is None:
        if name in _TEXT_RULES and column.blank:
            return ""
        if not column.null:
            raise DomainError("This rule needs a value.", field=name)
        return None
    if name in _MONEY_RULES:
        number = _number(name, value, wanted="Give an amount in dollars and cents.")
        if number < 0:
            raise DomainError("An amount may not be negative.", field=name)
        return _fits_column(name, number, too_big="An amount has at most 12 digits before the point.",
                            too_fine="An amount is in whole cents: at most 2 decimal places.")
    if name in _PERCENT_RULES:
        number = _number(name, value, wanted="Give a percentage.")
        if not 0 <= number <= HUNDRED:
            raise DomainError("A percentage is between 0 and 100.", field=name)
        return _fits_column(name, number, too_big="A percentage is between 0 and 100.",
                            too_fine="A percentage has at most 2 decimal places.")
    if name in _WHOLE_NUMBER_RULES:
        low, high, message = _WHOLE_NUMBER_RULES[name]
        if isinstance(value, int) and not isinstance(value, bool):
            number = value
        elif isinstance(value, str) and _WHOLE_NUMBER_TEXT.fullmatch(value.strip()):
            number = int(value.strip())
        elif isinstance(value, Decimal) and value.is_finite() and value == value.to_integral_value():
            number = int(value)
        else:
            raise DomainError("Give a whole number.", field=name)
        if not low <= number <= high:
            raise DomainError(message, field=name)
        return number
    if name in _CHOICE_RULES:
        choices = _CHOICE_RULES[name]
        if not isinstance(value, str) or value not in choices.values:
            raise DomainError(f"Choose one of {', '.join(choices.values)}.", field=name)
        return value
    if name in _TEXT_RULES:
        return _checked_text(name, value, multiline=_TEXT_RULES[name], max_length=column.max_length,
                             required=not column.blank)
    if column.get_internal_type() == "BooleanField":
        if not isinstance(value, bool):
            raise DomainError("Give true or false.", field=name)
        return value
    raise DomainError("This rule cannot be set here.", field=name)  # a RULE_FIELDS entry without a type above


def _check_jackpot_constraints(candidate: Jackpot) -> None:
    """The posted rules of `candidate` against the Jackpot columns and every CheckConstraint of the model that
    reads them, as the database would check them on save; raises DomainError naming the rule."""
    others = {f.name for f in Jackpot._meta.concrete_fields} - set(RULE_FIELDS) - {"funding", "kind"}
    try:
        candidate.clean_fields(exclude=others)
    except DjangoValidationError as exc:
        name, messages = next(iter(exc.message_dict.items()))
        raise DomainError(" ".join(messages), field=name) from exc
    for constraint in Jackpot._meta.constraints:
        if isinstance(constraint, CheckConstraint):
            try:
                constraint.validate(Jackpot, candidate, exclude=others)
            except DjangoValidationError as exc:
                raise DomainError(f"The rules break {constraint.name}: {' '.join(exc.messages)}",
                                  field=_CONSTRAINT_RULES.get(constraint.name, "changes")) from exc


def _validated(values: dict, *, base: Jackpot | None) -> dict:
    """Check a set of posted-rule values in full (N.J.A.C. 13:69F-14.19(b)1-4, (m), (n), (p)) and return them typed
    as the jackpot holds them: money as Decimal dollars that fit the column (at most 12 digits before the point,
    whole cents, finite, not negative), percentages 0-100 with at most 2 places, whole numbers in range, texts
    without control characters and within their length, booleans, choices of their enums. The rules once merged
    with `base` (None: the model's defaults) must satisfy every Jackpot CheckConstraint (one of a fixed amount or
    a percentage, shares adding up to 100 %). So a notice that is accepted can be put into effect (14.19(q)).

    Raises DomainError naming the field at fault (an unknown rule names itself); writes nothing.
    """
    if not isinstance(values, dict):
        raise DomainError("Give the rules to change as an object of rule -> value.", field="changes")
    unknown = sorted(str(k) for k in set(values) - set(RULE_FIELDS))
    if unknown:
        raise DomainError(f"Not a posted rule: {', '.join(unknown)}.", field=unknown[0])
    out = {name: _typed_rule(name, value) for name, value in values.items()}

    def current(name):
        return getattr(base, name) if base is not None else Jackpot._meta.get_field(name).get_default()
    merged = {name: out[name] if name in out else current(name) for name in RULE_FIELDS}
    funded_from_primary = base is not None and base.funding == Funding.PRIMARY_PORTION
    if not funded_from_primary:
        if (merged["contribution_amount"] is None) == (merged["contribution_percentage"] is None):
            raise DomainError("Give either a fixed contribution or a percentage, not both.", field="contribution_amount")
        if merged["contribution_percentage"] is not None and merged["contribution_percentage"] <= 0:
            raise DomainError("The percentage must be above 0.", field="contribution_percentage")
        if merged["contribution_amount"] is not None and merged["contribution_amount"] <= 0:
            raise DomainError("The contribution must be positive.", field="contribution_amount")
        if merged["maximum_contribution"] is None or merged["maximum_contribution"] <= 0:
            raise DomainError("The maximum contribution must be positive.", field="maximum_contribution")
        if merged["minimum_pot"] is None or merged["minimum_pot"] < 0:
            raise DomainError("The minimum pot may not be negative.", field="minimum_pot")
    if merged["qualifying_hand"] not in QualifyingHand.values:
        raise DomainError(f"Choose one of {', '.join(QualifyingHand.values)}.", field="qualifying_hand")
    if merged["qualifying_minimum_rank"] is not None and not (2 <= int(merged["qualifying_minimum_rank"]) <= 14):
        raise DomainError("A rank is 2 (deuces) to 14 (aces).", field="qualifying_minimum_rank")
    if merged["minimum_players_dealt"] is not None and not (2 <= int(merged["minimum_players_dealt"]) <= 10):
        raise DomainError("Between 2 and 10 players.", field="minimum_players_dealt")
    shares = [merged[n] for n in ("losing_share", "winning_share", "table_share")]
    if None not in shares and sum(Decimal(str(s)) for s in shares) != HUNDRED:
        raise DomainError("The losing, winning and table shares must add up to 100 %.", field="losing_share")
    if merged["multiple_losers_rule"] not in MultipleLosersRule.values:
        raise DomainError(f"Choose one of {', '.join(MultipleLosersRule.values)}.", field="multiple_losers_rule")
    if merged["when_both_qualify"] not in BothQualifyRule.values:
        raise DomainError(f"Choose one of {', '.join(BothQualifyRule.values)}.", field="when_both_qualify")
    candidate = copy.copy(base) if base is not None else Jackpot()
    for name, value in merged.items():
        setattr(candidate, name, value)
    _check_jackpot_constraints(candidate)
    return out


@transaction.atomic
def post_jackpot_rules(*, casino: Casino, minimum_pot: Decimal, maximum_contribution: Decimal,
                       qualifying_hand: str, contribution_amount: Decimal | None = None,
                       contribution_percentage: Decimal | None = None, name: str = "Bad Beat Jackpot",
                       **more) -> Jackpot:
    """Offer a primary bad beat payout with its posted rules (N.J.A.C. 13:69F-14.19(b)), or set the rules of
    one that has taken no contribution yet. Once contributions are taken, rules change only through
    `propose_rule_change`, with a notice first (14.19(q)). `more`: other RULE_FIELDS. Exactly one of
    contribution_amount / contribution_percentage. Raises DomainError naming the field.
    """
    values = {"name": name, "minimum_pot": minimum_pot, "maximum_contribution": maximum_contribution,
              "qualifying_hand": qualifying_hand, "contribution_amount": contribution_amount,
              "contribution_percentage": contribution_percentage, **more}
    existing = Jackpot.objects.select_for_update().filter(
        casino=casino, kind=JackpotKind.PRIMARY).exclude(status=JackpotStatus.DISCONTINUED).first()
    values = _validated(values, base=None if existing is None else existing)
    if existing is None:
        return Jackpot.objects.create(casino=casino, rules_effective_at=timezone.now(), **values)
    if existing.contributions.exists():
        raise DomainError("This payout has taken contributions: post a notice of the change first (14.19(q)).",
                          field="name")
    for name_, value in values.items():
        setattr(existing, name_, value)
    existing.rules_effective_at = timezone.now()
    existing.save()
    return existing


@transaction.atomic
def create_secondary_jackpot(*, primary: Jackpot, name: str, qualifying_hand: str, funding: str,
                             primary_portion_percentage: Decimal | None = None, **rules) -> Jackpot:
    """Offer a secondary bad beat payout for a lesser qualifying hand (N.J.A.C. 13:69F-14.19(m)): funded by its
    own contribution from each pot (`rules` then give contribution_amount or contribution_percentage) or by a
    portion of the primary (`primary_portion_percentage`), deducted from the primary when won. Its qualifying
    hand must be lesser than the primary's. Raises DomainError naming the field."""
    if primary.kind != JackpotKind.PRIMARY or primary.status == JackpotStatus.DISCONTINUED:
        raise DomainError("A secondary payout belongs to a live primary payout.", field="primary")
    if funding not in Funding.values:
        raise DomainError(f"Choose one of {', '.join(Funding.values)}.", field="funding")
    base = Jackpot(casino=primary.casino, kind=JackpotKind.SECONDARY, primary=primary, funding=funding,
                   minimum_players_dealt=primary.minimum_players_dealt,
                   both_hole_cards_must_play=primary.both_hole_cards_must_play,
                   contribution_amount=None, contribution_percentage=None)
    if funding == Funding.PRIMARY_PORTION:
        if primary_portion_percentage is None or not (0 < Decimal(str(primary_portion_percentage)) < 100):
            raise DomainError("Give the percent of the primary payout, above 0 and below 100.",
                              field="primary_portion_percentage")
        rules.update(primary_portion_percentage=primary_portion_percentage)
    values = _validated({"name": name, "qualifying_hand": qualifying_hand, **rules}, base=base)
    for key, value in values.items():
        setattr(base, key, value)
    mine = qualifying_rule(jackpot=base)
    if not qualifying_rule(jackpot=primary).is_harder_than(mine):
        raise DomainError("A secondary payout is for a lesser qualifying hand than the primary (14.19(m)).",
                          field="qualifying_hand")
    base.rules_effective_at = timezone.now()
    base.save()
    return base


def _describe_change(jackpot: Jackpot, changes: dict) -> str:
    parts = []
    for name, value in changes.items():
        field = Jackpot._meta.get_field(name)
        old = getattr(jackpot, name)
        label = dict(field.choices).get(value, value) if field.choices else value
        old_label = dict(field.choices).get(old, old) if field.choices else old
        parts.append(f"{field.verbose_name}: {old_label} → {label}")
    return "; ".join(parts)


@transaction.atomic
def propose_rule_change(*, jackpot: Jackpot, changes: dict, effective_at: datetime, proposed_by: User,
                        summary: str = "") -> RuleChange:
    """Post the notice of a change to the posted rules; it takes effect at `effective_at` (N.J.A.C.
    13:69F-14.19(q)). The notice must come first: `effective_at` must be in the future. A change that makes the
    qualifying requirements harder is refused until the payout has been won (or before it has taken any
    contribution under its current requirements). The change is validated in full here (`_validated`: every value
    fits its column, the rules it leaves satisfy every Jackpot constraint), so a notice accepted can take effect.
    `summary`: the notice to patrons (at most 2,000 characters, no control characters); empty, it is written from
    the change. Raises DomainError naming the field; nothing is written then."""
    jackpot = _lock(jackpot.pk)[jackpot.pk]
    if jackpot.status == JackpotStatus.DISCONTINUED:
        raise DomainError("This payout is discontinued.", field="jackpot")
    if not changes:
        raise DomainError("Name at least one rule to change.", field="changes")
    if not isinstance(effective_at, datetime) or timezone.is_naive(effective_at) or effective_at <= timezone.now():
        raise DomainError("A notice is posted before the change takes effect: choose a later time (14.19(q)).",
                          field="effective_at")
    summary = _checked_text("summary", summary or "", multiline=True, max_length=SUMMARY_MAX_LENGTH, required=False)
    values = _validated(changes, base=jackpot)
    values = {k: v for k, v in values.items() if getattr(jackpot, k) != v}
    if not values:
        raise DomainError("Nothing would change.", field="changes")
    harder = qualifying_rule(jackpot=jackpot, values=values).is_harder_than(qualifying_rule(jackpot=jackpot))
    if harder and not has_been_won_since_rules(jackpot=jackpot):
        raise DomainError("The qualifying hand requirements may not be made harder until this payout has been "
                          "won (14.19(q)).", field="qualifying_hand")
    stored = {k: (str(v) if isinstance(v, Decimal) else v) for k, v in values.items()}
    return RuleChange.objects.create(jackpot=jackpot, changes=stored, makes_qualifying_harder=harder,
                                     summary=summary.strip() or _describe_change(jackpot, values),
                                     effective_at=effective_at, proposed_by=proposed_by)


@transaction.atomic
def withdraw_rule_change(*, change: RuleChange, withdrawn_by: User) -> RuleChange:
    """Withdraw the notice of a rule change that has not taken effect (N.J.A.C. 13:69F-14.19(q)): it never takes
    effect and its notice leaves the rules page's notices and the displays. Withdrawn by whoever may propose a
    rule change of the payout (`badbeat.change_rules`: a poker shift supervisor or an administrator of its
    casino); recorded on the row (withdrawn_by, withdrawn_at) and in its history (pghistory).

    Raises DomainError: `withdrawn_by` may not change the payout's rules (field withdrawn_by); the change is not
    scheduled — already in effect, withdrawn or failed (field status)."""
    change = RuleChange.objects.select_for_update(of=("self",)).select_related("jackpot").get(pk=change.pk)
    if not withdrawn_by.has_perm("badbeat.change_rules", change.jackpot):
        raise DomainError("Only a poker shift supervisor or an administrator of the casino withdraws a rule change.",
                          field="withdrawn_by")
    if change.status != RuleChangeStatus.SCHEDULED:
        raise DomainError(f"This change is {change.get_status_display().lower()}: only a change not yet in effect "
                          "can be withdrawn (14.19(q)).", field="status")
    change.status, change.withdrawn_by, change.withdrawn_at = RuleChangeStatus.WITHDRAWN, withdrawn_by, timezone.now()
    change.save(update_fields=["status", "withdrawn_by", "withdrawn_at"])
    return change


def apply_due_rule_changes(*, now: datetime | None = None) -> int:
    """Put into effect every scheduled rule change whose time has come (N.J.A.C. 13:69F-14.19(q)); idempotent.

    Oldest first, each change in a transaction of its own (a savepoint when called inside one), so one change
    that cannot take effect never holds up the others. A change that makes qualifying harder is checked again: if
    the payout has taken contributions under its current rules since the notice without being won, it stays
    scheduled (not a failure). A change whose values are refused when checked again against the payout's rules as
    they now stand (DomainError), or that the database refuses (DataError such as a numeric overflow,
    IntegrityError), or that breaks in any other way, is rolled back alone and marked failed with the reason, in
    a small transaction of its own. A database error that may pass (OperationalError: a deadlock, a lock or
    statement timeout) leaves it scheduled for the next run. Raises nothing for a bad change (a lost database
    connection propagates). Returns how many took effect."""
    now = now or timezone.now()
    applied = 0
    due = list(RuleChange.objects.filter(status=RuleChangeStatus.SCHEDULED, effective_at__lte=now)
               .order_by("effective_at", "pk").values_list("pk", flat=True))
    for change_id in due:
        try:
            with transaction.atomic():
                applied += _apply_rule_change(change_id=change_id, now=now)
        except DomainError as exc:
            _mark_rule_change_failed(change_id=change_id, now=now,
                                     reason=f"{exc.field}: {exc.message}" if exc.field else exc.message)
        except (DataError, IntegrityError) as exc:
            _mark_rule_change_failed(change_id=change_id, now=now,
                                     reason=f"The database refused the change: {' '.join(str(exc).split())}")
        except OperationalError:
            logger.warning("Rule change %s was not applied this time; it stays scheduled.", change_id, exc_info=True)
        except DatabaseError:
            raise  # the connection or the schema, not the change: the next run tries again
        except Exception as exc:
            logger.exception("Rule change %s could not be applied; it is marked failed.", change_id)
            _mark_rule_change_failed(change_id=change_id, now=now, reason=f"{type(exc).__name__}: {exc}")
    return applied


def _apply_rule_change(*, change_id: int, now: datetime) -> int:
    """Put one due rule change into effect under the row locks of the change and its payout (14.19(q)); 1 when
    it took effect, 0 when it is no longer scheduled or is a harder qualifying hand still waiting for the payout to
    be won. Call in a transaction. Raises DomainError (values refused by `_validated`) or a DatabaseError."""
    change = RuleChange.objects.select_for_update().get(pk=change_id)
    if change.status != RuleChangeStatus.SCHEDULED:
        return 0
    jackpot = _lock(change.jackpot_id)[change.jackpot_id]
    values = _validated(change.changes, base=jackpot)
    qualifying_changed = qualifying_rule(jackpot=jackpot, values=values) != qualifying_rule(jackpot=jackpot)
    if change.makes_qualifying_harder and not has_been_won_since_rules(jackpot=jackpot):
        return 0
    for name, value in values.items():
        setattr(jackpot, name, value)
    if qualifying_changed:
        jackpot.rules_effective_at = now
    jackpot.save()
    change.status, change.applied_at = RuleChangeStatus.APPLIED, now
    change.save(update_fields=["status", "applied_at"])
    return 1


def _mark_rule_change_failed(*, change_id: int, now: datetime, reason: str) -> None:
    """Mark a scheduled rule change failed with the reason (14.19(q)), in a transaction of its own so the mark
    stays once the failed attempt is rolled back; a change withdrawn meanwhile is left as it is."""
    with transaction.atomic():
        change = RuleChange.objects.select_for_update().get(pk=change_id)
        if change.status != RuleChangeStatus.SCHEDULED:
            return
        change.status, change.failed_at = RuleChangeStatus.FAILED, now
        change.failure_reason = reason[:FAILURE_REASON_MAX_LENGTH]
        change.save(update_fields=["status", "failed_at", "failure_reason"])


# --- claims ----------------------------------------------------------------------------------------------------

def _claim_fields(verdict) -> dict:
    from apps import hands
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
    """Open a pending claim for each live jackpot the round qualifies for (14.19(a), (i)); a secondary payout
    is left out when the primary also qualifies and its rule says only the primary is paid (14.19(m)2.i)."""
    jackpots = [j for j in Jackpot.objects.filter(casino_id=round_of_play.table.casino_id).select_related("primary")
                if j.status != JackpotStatus.DISCONTINUED]
    qualifying = {j.pk: j for j in jackpots if judge_round(jackpot=j, round_of_play=round_of_play).qualifies}
    claims = []
    for jackpot in qualifying.values():
        if (jackpot.is_secondary and jackpot.when_both_qualify == BothQualifyRule.PRIMARY_ONLY
                and jackpot.primary_id in qualifying):
            continue
        claims.append(open_claim(jackpot=jackpot, round_of_play=round_of_play))
    return claims


def _judged(claim: Claim, jackpot: Jackpot):
    """The engine's verdict on the claim's round under `jackpot`'s rules, kept on the claim (14.19(i)). Raises
    DomainError naming every failed check when the hand does not qualify."""
    verdict = judge_round(jackpot=jackpot, round_of_play=claim.round_of_play)
    claim.evaluation = verdict.as_json()
    if not verdict.qualifies:
        failed = "; ".join(c.detail for c in verdict.checks if not c.passed)
        raise DomainError(f"The hand does not qualify: {failed}", field="claim")
    return verdict


def _write_shares(claim: Claim, jackpot: Jackpot, amount: Decimal, verdict) -> None:
    """Split `amount` (Decimal dollars) among the round's players as the jackpot posts it (14.19(b)3, (n)) and
    record each share once."""
    names = dict(claim.round_of_play.players.values_list("seat", "name"))
    parts = payout_shares(jackpot=jackpot, amount=amount, verdict=verdict)
    ClaimShare.objects.bulk_create([ClaimShare(claim=claim, seat=seat, role=role, amount=value,
                                               player=names.get(seat, "")) for seat, role, value in parts])


@transaction.atomic
def verify_claim(*, claim: Claim, supervisor: User) -> Claim:
    """A poker shift supervisor verifies a bad beat (N.J.A.C. 13:69F-14.19(i)): the engine judges the round
    again under the jackpot's rules; if it qualifies, the payout amount is frozen (the balance, or the
    secondary's portion of the primary, 14.19(m)2), split into shares (14.19(b)3, (n)), the display shows
    "payout pending" (14.19(i)1) and security and accounting are notified to deliver it (14.19(i)2).
    Raises DomainError when the claim is not pending, the hand does not qualify, another payout of the
    jackpot is pending, or there is nothing to pay."""
    if not supervisor.has_role(Role.POKER_SHIFT_SUPERVISOR):
        raise DomainError("Only a poker shift supervisor verifies a bad beat (14.19(i)).", field="supervisor")
    if system := shared_payout(claim.jackpot):  # judged and verified here, then decided by the system's host
        return system.submit_claim(claim=_verify_shared_claim(claim=claim, supervisor=supervisor),
                                   supervisor=supervisor)
    # of=self: locking the joined table row too would block every contribution's foreign-key check (deadlock).
    claim = Claim.objects.select_for_update(of=("self",)).select_related("round_of_play__table").get(pk=claim.pk)
    if claim.status != ClaimStatus.PENDING:
        raise DomainError(f"This claim is already {claim.get_status_display().lower()}.", field="status")
    ids = [claim.jackpot_id] + ([Jackpot.objects.get(pk=claim.jackpot_id).primary_id]
                                if claim.jackpot.funded_from_primary else [])
    locked = _lock(*ids)
    jackpot = locked[claim.jackpot_id]
    if jackpot.status != JackpotStatus.ACTIVE:
        raise DomainError(f"This payout is {jackpot.get_status_display().lower()}: verify after it is settled.",
                          field="status")
    verdict = _judged(claim, jackpot)
    if jackpot.is_secondary and jackpot.when_both_qualify == BothQualifyRule.PRIMARY_ONLY:
        primary = jackpot.primary
        if judge_round(jackpot=primary, round_of_play=claim.round_of_play).qualifies:
            raise DomainError("This round also qualifies for the primary payout; the posted rule pays only the "
                              "primary (14.19(m)2.i).", field="claim")
    if jackpot.funded_from_primary:
        jackpot.primary = locked[jackpot.primary_id]
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
    table = claim.round_of_play.table
    PayoutNotification.objects.create(
        claim=claim, casino_id=jackpot.casino_id,
        message=(f"Deliver the {jackpot.name} payout of ${amount:,.2f} to table {table.number} "
                 f"(round {claim.round_of_play_id}); verified by {supervisor.get_full_name() or supervisor.username}."))
    return claim


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


@transaction.atomic
def record_payout(*, claim: Claim, method: str, location: str, delivered_by: User, recorded_by: User) -> Payout:
    """Record the delivery of a verified payout (N.J.A.C. 13:69F-14.19(i)2, (j)): in cash, a cash equivalent or
    chips, at the table or the cage, delivered by security or accounting. The amount leaves the jackpot (or,
    for a secondary funded from the primary, the primary, 14.19(m)2.ii); a primary that is won is then seeded
    with its reset reserve (14.19(p)). Raises DomainError naming the field."""
    if method not in PayoutMethod.values:
        raise DomainError(f"Choose one of {', '.join(PayoutMethod.labels)}.", field="method")
    if location not in PayoutLocation.values:
        raise DomainError("At the table or at the cage.", field="location")
    if not delivered_by.has_role(Role.SECURITY, Role.ACCOUNTING):
        raise DomainError("A representative of security or accounting delivers the payout (14.19(i)2).",
                          field="delivered_by")
    if system := shared_payout(claim.jackpot):  # paid here from the system's pool: the shares, then the system
        return system.record_payout(claim=_mark_shared_claim_paid(claim=claim, delivered_by=delivered_by),
                                    method=method, location=location, delivered_by=delivered_by,
                                    recorded_by=recorded_by)
    claim = Claim.objects.select_for_update(of=("self",)).select_related("jackpot").get(pk=claim.pk)
    if claim.status != ClaimStatus.VERIFIED:
        raise DomainError("Only a verified claim is paid.", field="claim")
    if delivered_by.casino_id != claim.jackpot.casino_id:
        raise DomainError("The person delivering works at another casino.", field="delivered_by")
    debited_id = claim.jackpot.primary_id if claim.jackpot.funded_from_primary else claim.jackpot_id
    locked = _lock(claim.jackpot_id, debited_id)
    jackpot, debited = locked[claim.jackpot_id], locked[debited_id]
    amount = claim.payout_amount
    if debited.balance < amount:
        raise DomainError(f"{debited.name} holds ${debited.balance:,.2f}, less than ${amount:,.2f}.", field="claim")
    today = current_gaming_day(casino=jackpot.casino)
    hold_open_gaming_days(casino=jackpot.casino, days=[today], what="a payout")
    payout = Payout.objects.create(claim=claim, debited=debited, amount=amount, method=method, location=location,
                                   delivered_by=delivered_by, recorded_by=recorded_by, gaming_day=today)
    debited.balance -= amount
    if debited.pk == jackpot.pk and debited.reset_reserve > 0:
        ResetSeed.objects.create(jackpot=debited, payout=payout, amount=debited.reset_reserve)
        debited.balance += debited.reset_reserve
        debited.reset_reserve = ZERO
    debited.save(update_fields=["balance", "reset_reserve", "updated_at"])
    if not jackpot.claims.filter(status=ClaimStatus.VERIFIED).exclude(pk=claim.pk).exists():
        Jackpot.objects.filter(pk=jackpot.pk).update(status=JackpotStatus.ACTIVE)
    claim.status = ClaimStatus.PAID
    claim.save(update_fields=["status"])
    claim.notifications.filter(acknowledged_at__isnull=True).update(acknowledged_by=delivered_by,
                                                                    acknowledged_at=timezone.now())
    return payout


# --- claims on a payout shared with other casinos (14.20) -------------------------------------------------------

def shared_payout(jackpot: Jackpot) -> SharedPayoutSystem | None:
    """The registered multi-casino system (apps.badbeat.shared) when this jackpot's contributions belong to it,
    or None when the jackpot is this casino's alone."""
    system = shared_payout_system()
    return system if system is not None and system.manages(jackpot=jackpot) else None


def _verify_shared_claim(*, claim: Claim, supervisor: User) -> Claim:
    """This casino's part of verifying a claim on a shared payout (14.19(i)): the engine judges it and the claim
    is verified here, without an amount; the system's host then freezes the amount (14.20(e)4). Raises
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
    """The host answered that this claim is not paid (14.20(e)4): it is rejected here with the host's answer."""
    claim = Claim.objects.select_for_update(of=("self",)).get(pk=claim.pk)
    if claim.status in (ClaimStatus.VERIFIED, ClaimStatus.PENDING):
        claim.status, claim.decision_note = ClaimStatus.REJECTED, answer[:300]
        claim.save(update_fields=["status", "decision_note"])
        claim.notifications.filter(acknowledged_at__isnull=True).delete()
    return claim


def _mark_shared_claim_paid(*, claim: Claim, delivered_by: User) -> Claim:
    """This casino's part of delivering the payout of a shared claim (the host's pool, not this casino's jackpot,
    pays it): the frozen amount is split among the players as posted (14.19(b)3, (n)). Raises DomainError unless
    the claim is verified and the host froze its amount. Call in the transaction that hands it to the system."""
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


def validate_posted_rules(*, values: dict, jackpot: Jackpot | None) -> dict:
    """Posted-rule values (14.19(b)1-4) checked in full and typed as the jackpot would hold them (Decimal dollars
    and percentages that fit their columns, whole numbers, texts, choices; the merged rules satisfy every Jackpot
    constraint), as for a notice of change (14.19(q)) — the multi-casino system's rule changes (14.20(c)1) use it.
    Raises DomainError naming the field."""
    return _validated(values, base=jackpot)


def adopt_shared_rules(*, jackpot: Jackpot, rules: dict, summary: str, now: datetime) -> RuleChange | None:
    """A multi-casino system's rule change took effect (14.20(c)1): this casino's payout takes the same rules,
    kept as an applied rule change. `rules` holds the system's rule keys, all of them Jackpot fields. Raises
    DomainError for a value that is not a rule. None when nothing changes here."""
    jackpot = _lock(jackpot.pk)[jackpot.pk]
    values = {k: v for k, v in _validated({k: v for k, v in rules.items() if k in RULE_FIELDS}, base=jackpot).items()
              if getattr(jackpot, k) != v}
    if not values:
        return None
    if qualifying_rule(jackpot=jackpot, values=values) != qualifying_rule(jackpot=jackpot):
        jackpot.rules_effective_at = now
    for name, value in values.items():
        setattr(jackpot, name, value)
    jackpot.save()
    stored = {k: (str(v) if isinstance(v, Decimal) else v) for k, v in values.items()}
    return RuleChange.objects.create(jackpot=jackpot, changes=stored, summary=f"Multi-casino system: {summary}"[:2000],
                                     effective_at=now, status=RuleChangeStatus.APPLIED, applied_at=now)


@transaction.atomic
def acknowledge_notification(*, notification: PayoutNotification, user: User) -> PayoutNotification:
    """Security or accounting takes charge of delivering a payout (14.19(i)2)."""
    if not user.has_role(Role.SECURITY, Role.ACCOUNTING):
        raise DomainError("Security or accounting acknowledges a payout notice.", field="user")
    notification = PayoutNotification.objects.select_for_update().get(pk=notification.pk)
    if notification.acknowledged_at is None:
        notification.acknowledged_by, notification.acknowledged_at = user, timezone.now()
        notification.save(update_fields=["acknowledged_by", "acknowledged_at"])
    return notification


# --- displays, resets, discontinuing ---------------------------------------------------------------------------

@transaction.atomic
def adjust_display(*, jackpot: Jackpot, displayed_amount: Decimal, adjusted_by: User, supervisor_present: User,
                   reason: str = DisplayReason.DAILY) -> DisplayAdjustment:
    """Accounting adjusts a displayed bad beat payout amount in a poker supervisor's presence and verifies that
    it corresponds to accounting's record (N.J.A.C. 13:69F-14.19(k)). The amount set must equal the record
    (the jackpot's payable amount), and may be lower than what was displayed only when money has been paid out
    since the last adjustment (14.19(o)). Raises DomainError naming the field."""
    if not adjusted_by.has_role(Role.ACCOUNTING):
        raise DomainError("A casino accounting department representative adjusts the display (14.19(k)).",
                          field="adjusted_by")
    if not supervisor_present.has_role(Role.POKER_SHIFT_SUPERVISOR) or supervisor_present.pk == adjusted_by.pk:
        raise DomainError("A poker supervisor must be present, other than the one adjusting (14.19(k)1).",
                          field="supervisor_present")
    if reason not in DisplayReason.values:
        raise DomainError(f"Choose one of {', '.join(DisplayReason.values)}.", field="reason")
    ids = [jackpot.pk] + ([jackpot.primary_id] if jackpot.funded_from_primary else [])
    locked = _lock(*ids)
    jackpot = locked[jackpot.pk]
    if jackpot.funded_from_primary:
        jackpot.primary = locked[jackpot.primary_id]
    record = payable_amount(jackpot=jackpot)
    try:
        displayed_amount = money(displayed_amount)
    except Exception as exc:
        raise DomainError("Give the amount displayed, in dollars and cents.", field="displayed_amount") from exc
    if displayed_amount != record:
        raise DomainError(f"The display must show accounting's record, ${record:,.2f} (14.19(k)2).",
                          field="displayed_amount")
    previous = jackpot.displayed_amount
    if displayed_amount < previous:
        last = last_display_adjustment(jackpot=jackpot)
        source = jackpot.primary if jackpot.funded_from_primary else jackpot
        if not paid_since(jackpot=source, moment=last.created_at if last else None):
            raise DomainError(f"The display shows ${previous:,.2f}; it may not go down unless the payout was paid "
                              "(14.19(o)).", field="displayed_amount")
    today = current_gaming_day(casino=jackpot.casino)
    hold_open_gaming_days(casino=jackpot.casino, days=[today], what="a display adjustment")
    adjustment = DisplayAdjustment.objects.create(
        jackpot=jackpot, previous_amount=previous, displayed_amount=displayed_amount, accounting_amount=record,
        reason=reason, adjusted_by=adjusted_by, supervisor_present=supervisor_present, gaming_day=today)
    jackpot.displayed_amount = displayed_amount
    jackpot.save(update_fields=["displayed_amount", "updated_at"])
    return adjustment


@transaction.atomic
def document_daily_reset(*, jackpot: Jackpot, gaming_day: date) -> DailyReset | None:
    """Document the reset amount of a gaming day (N.J.A.C. 13:69F-14.19(p)): the day's contributions, the
    posted percentage and the amount set aside for the next payout. Idempotent; None for a jackpot funded from
    the primary (it has no contributions of its own)."""
    if jackpot.funded_from_primary:
        return None
    existing = DailyReset.objects.filter(jackpot=jackpot, gaming_day=gaming_day).first()
    if existing:
        return existing
    totals = jackpot.contributions.filter(gaming_day=gaming_day).aggregate(
        amount=Sum("amount", default=ZERO), to_reset=Sum("to_reset", default=ZERO))
    percentage = jackpot.reset_percentage
    reset, _ = DailyReset.objects.get_or_create(
        jackpot=jackpot, gaming_day=gaming_day,
        defaults={"contributions": totals["amount"], "percentage": percentage, "amount": totals["to_reset"]})
    return reset


@transaction.atomic
def discontinue_jackpot(*, jackpot: Jackpot, target: Jackpot, reason: str, made_by: User) -> Transfer:
    """Discontinue a bad beat payout (N.J.A.C. 13:69F-14.19(l)): contributions stop and its whole amount and
    reset reserve are transferred to another live bad beat payout of the casino, so that all funds are paid to
    players. Refused while a payout is pending, to the same or a discontinued payout, or while a secondary
    payout funded from this one is still offered. Raises DomainError naming the field."""
    if not made_by.has_role(Role.ADMIN, Role.POKER_SHIFT_SUPERVISOR) and not made_by.is_superuser:
        raise DomainError("A supervisor or an administrator discontinues a payout.", field="made_by")
    if not reason.strip():
        raise DomainError("Give the reason, as in the procedures submitted to the Division (14.19(l)).",
                          field="reason")
    if target.pk == jackpot.pk:
        raise DomainError("Transfer to another bad beat payout.", field="target")
    locked = _lock(jackpot.pk, target.pk)
    source, target = locked[jackpot.pk], locked[target.pk]
    if target.casino_id != source.casino_id:
        raise DomainError("The other payout must be offered by the same casino.", field="target")
    if source.status == JackpotStatus.DISCONTINUED:
        raise DomainError("This payout is already discontinued.", field="jackpot")
    if source.status == JackpotStatus.PAYOUT_PENDING or source.claims.filter(status=ClaimStatus.VERIFIED).exists():
        raise DomainError("A payout is pending: pay it first.", field="jackpot")
    if target.status == JackpotStatus.DISCONTINUED or target.funded_from_primary:
        raise DomainError("Transfer to a live payout that holds its own funds.", field="target")
    if source.secondaries.filter(funding=Funding.PRIMARY_PORTION).exclude(
            status=JackpotStatus.DISCONTINUED).exists():
        raise DomainError("Discontinue the secondary payout funded from this one first.", field="jackpot")
    transfer = Transfer.objects.create(source=source, target=target, amount=source.balance,
                                       reset_amount=source.reset_reserve, reason=reason.strip()[:300],
                                       made_by=made_by)
    target.balance += source.balance
    target.reset_reserve += source.reset_reserve
    target.save(update_fields=["balance", "reset_reserve", "updated_at"])
    source.balance = source.reset_reserve = ZERO
    source.is_collecting, source.status = False, JackpotStatus.DISCONTINUED
    source.save(update_fields=["balance", "reset_reserve", "is_collecting", "status", "updated_at"])
    return transfer


# --- the hand feed's steps: contributions and the showdown check (14.19(c), (i)) --------------------------------

def lock_jackpots(*, rounds: Sequence[RoundOfPlay]) -> list[Jackpot]:
    """Row-lock every jackpot of the casinos of `rounds` whose game participates (14.19(b)), once, in primary-key
    order (concurrent writers lock them in the same order: no deadlock); the jackpots, locked until the commit, or
    none when no round participates. The contribution (`take_contributions`) and the showdown check
    (`check_showdowns`) of the same rounds read them from here: one query a batch, which also reads what the
    contribution needs beside them — each jackpot's contributions so far on each gaming day of the rounds (Decimal
    dollars, `jackpot.day_contributions[day]`, 14.19(p)) and the multi-casino system's terms
    (SharedPayoutSystem.contribution_terms: `funds_system`, `system_stops`; 14.20(c)1).

    The query's SQL is built by the ORM once for each shape (number of casinos and of gaming days, the registered
    system) and kept (apps.core.kept): every round recorded runs this query, and building it cost more than running it.
    """
    wanted = [r for r in rounds if _participates(r)]
    casino_ids = sorted({r.table.casino_id for r in wanted})
    if not casino_ids:
        return []
    days = sorted({r.gaming_day for r in wanted})
    system = shared_payout_system()
    jackpots = list(_LOCK(casino_ids, days, system=system))
    for jackpot in jackpots:
        jackpot.day_contributions = {day: getattr(jackpot, f"day_{index}") or ZERO for index, day in enumerate(days)}
    return jackpots


def _lock_query(casino_ids: list[int], days: list[date], *, system: SharedPayoutSystem | None):
    """The jackpots of the casinos, row-locked in primary-key order, each with its contributions on each of `days`
    (`day_0`, `day_1`, ...) and the system's terms."""
    return (Jackpot.objects.select_for_update(of=("self",)).filter(casino_id__in=casino_ids).order_by("pk")
            .annotate(**(system.contribution_terms() if system else {}), **{
                # one row at most (jackpot, gaming day are unique): no ordering, so no join to order by
                f"day_{index}": Subquery(GamingDayContributions.objects.filter(
                    jackpot=OuterRef("pk"), gaming_day=day).order_by().values("contributions")[:1])
                for index, day in enumerate(days)}))


_LOCK = KeptQuery(_lock_query)


def take_contributions(*, rounds: Sequence[RoundOfPlay], after_rake: Sequence[Decimal],
                       jackpots: Sequence[Jackpot] | None = None) -> list[Decimal]:
    """Segregate the bad beat contributions of rounds of play, from each pot after the rake (N.J.A.C.
    13:69F-14.19(c)); the total taken from each round (Decimal dollars), in the rounds' order.

    rounds: recorded rounds (pot_total, gaming_day, table, rotation_game set); after_rake: each round's pot less
    its rake. A round contributes when its game participates as posted (the table's, or its rotation game's
    bad beat eligibility, 14.19(b)) and its pot reaches each jackpot's minimum (14.19(b)2). For each collecting
    jackpot of the casino that takes its own contributions (a primary, and a secondary funded by contributions,
    14.19(m)1), primary first, a Contribution is recorded with its reset part (14.19(p)) and added to the balance.
    jackpots: the rounds' jackpots as `lock_jackpots` locked (and annotated) them in this transaction; locked here
    when not given.
    Every jackpot of the casinos concerned is row-locked once, in primary-key order, for the whole batch: call in
    the transaction that records the rounds and commit soon. Each jackpot's running totals are kept beside its
    records: of all time (`contributions_total`), of the gaming day (GamingDayContributions) and of each table's
    gaming day (TableDayContributions). A jackpot funding a multi-casino system takes nothing
    while the system is suspended here, unless its agreement says contributions continue (14.20(c)1, (e)4.i); the
    system records what it sends to its host in the same transaction (14.20(e)2).
    """
    taken = [ZERO] * len(rounds)
    wanted = [(index, r) for index, r in enumerate(rounds) if _participates(r)]
    if not wanted:
        return taken
    locked = lock_jackpots(rounds=rounds) if jackpots is None else jackpots
    collecting: dict[int, list[Jackpot]] = {}
    for jackpot in sorted(locked, key=lambda j: (j.kind != JackpotKind.PRIMARY, j.pk)):
        if jackpot.is_collecting and jackpot.status != JackpotStatus.DISCONTINUED and \
                jackpot.funding == Funding.CONTRIBUTIONS:
            collecting.setdefault(jackpot.casino_id, []).append(jackpot)
    # the multi-casino system's terms, read with the lock: jackpot id -> whether it takes contributions now (14.20)
    shared = {j.pk: not j.system_stops for js in collecting.values() for j in js if getattr(j, "funds_system", False)}
    accepting = {j.pk for jackpots in collecting.values() for j in jackpots if shared.get(j.pk, True)}
    # each jackpot's contributions of the gaming day so far, read with the lock (the reset part depends on them)
    day_totals = {(j.pk, day): total for js in collecting.values() for j in js
                  for day, total in j.day_contributions.items()}
    made: list[Contribution] = []
    for index, round_of_play in wanted:
        for jackpot in collecting.get(round_of_play.table.casino_id, []):
            if jackpot.pk not in accepting:
                continue  # the multi-casino system is suspended here and its agreement stops contributions (14.20)
            after = after_rake[index] - taken[index]
            amount, explanation = compute_contribution(jackpot=jackpot, pot_total=round_of_play.pot_total,
                                                       after_rake=after)
            if amount <= 0:
                continue
            key = (jackpot.pk, round_of_play.gaming_day)
            before = day_totals.get(key, ZERO)
            to_reset = reset_part(day_total_before=before, amount=amount, percentage=jackpot.reset_percentage)
            day_totals[key] = before + amount
            made.append(Contribution(jackpot=jackpot, round_of_play_id=round_of_play.pk, table_id=round_of_play.table_id,
                                     gaming_day=round_of_play.gaming_day, amount=amount, to_reset=to_reset,
                                     basis=after, explanation=explanation))
            jackpot.balance += amount - to_reset
            jackpot.reset_reserve += to_reset
            jackpot.contributions_total += amount
            taken[index] += amount
    if made:
        # the balances and the running totals of the day and of each table's day, then the contributions they sum:
        # in one round trip for a few
        insert_rows(Contribution, made, before=[
            *(update_statement(jackpot, ["balance", "reset_reserve", "contributions_total", "updated_at"])
              for jackpot in sorted({c.jackpot_id: c.jackpot for c in made}.values(), key=lambda j: j.pk)),
            totals_statement(TableDayContributions, key=("jackpot_id", "table_id", "gaming_day"), rows=[
                {"jackpot_id": c.jackpot_id, "table_id": c.table_id, "gaming_day": c.gaming_day, "amount": c.amount,
                 "count": 1} for c in made]),
            totals_statement(GamingDayContributions, key=("jackpot_id", "gaming_day"), rows=[
                {"jackpot_id": c.jackpot_id, "gaming_day": c.gaming_day, "contributions": c.amount,
                 "to_reset": c.to_reset, "count": 1} for c in made])])
        reported = [c for c in made if c.jackpot_id in shared]
        if reported:  # to the multi-casino system each funds, in their transaction (14.20(e)2)
            shared_payout_system().record_contributions(contributions=reported)
    return taken


def _participates(round_of_play: RoundOfPlay) -> bool:
    """Whether the game a round was dealt in contributes to the bad beat payout as posted (14.19(b))."""
    posting = round_of_play.rotation_game if round_of_play.rotation_game_id else round_of_play.table
    return bool(posting.bad_beat_participation) and not round_of_play.is_dead


def check_showdowns(*, settled: Sequence[tuple[RoundOfPlay, hands.Settlement]],
                    jackpots: Sequence[Jackpot] | None = None) -> list[Claim]:
    """Open a pending claim for each jackpot a round's showdown qualifies for (N.J.A.C. 13:69F-14.19(a), (i)),
    for a poker shift supervisor to verify; the claims opened.

    A quick look at the settled hands first: only when a hand at the showdown that won nothing of the main pot
    reaches some jackpot's qualifying hand is the round judged in full (players dealt in, both hole cards,
    14.19(b)3). Rounds whose game does not participate, or without a showdown, are passed over. jackpots: the
    rounds' jackpots as `lock_jackpots` locked them in this transaction (read here when not given).
    """
    candidates = [(r, s) for r, s in settled if r.went_to_showdown and s.pots and _participates(r)]
    if not candidates:
        return []
    casino_ids = {r.table.casino_id for r, _ in candidates}
    if jackpots is None:
        jackpots = Jackpot.objects.filter(casino_id__in=casino_ids)
    offered_at: dict[int, list[Jackpot]] = {}
    for jackpot in jackpots:
        if jackpot.casino_id in casino_ids and jackpot.status != JackpotStatus.DISCONTINUED:
            offered_at.setdefault(jackpot.casino_id, []).append(jackpot)
    claims: list[Claim] = []
    for round_of_play, settlement in candidates:
        offered = offered_at.get(round_of_play.table.casino_id, [])
        main = settlement.pots[0]
        winners = {seat for seat, amount in main.awards.items() if amount > ZERO}
        losing = [settlement.hands[s].high for s in main.pot.eligible
                  if s not in winners and s in settlement.hands and settlement.hands[s].high is not None]
        if any(qualifies_as_bad_beat(jackpot=j, losing=value) for j in offered for value in losing):
            claims += open_claims_for_round(round_of_play=round_of_play)
    return claims
