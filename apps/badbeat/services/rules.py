"""The posted rules of a bad beat payout and their changes (N.J.A.C. 13:69F-14.19(b)-rules-posted, 14.19(m), (n),
14.19(p)-posted, 14.19(q)-notice): a payout offered with its rules, a secondary payout, notices of a change posted
before it takes effect, withdrawn, put into effect by the scheduled job; a multi-casino system's rules adopted here
(14.20(c)1). Every value is checked in full against its Jackpot column and the model's constraints before anything is
written. """
from __future__ import annotations

import copy
import logging
import math
import re
import unicodedata
from datetime import datetime
from decimal import Decimal
from typing import Any

from django.core.exceptions import ValidationError as DjangoValidationError
from django.db import DatabaseError, DataError, IntegrityError, OperationalError, models, transaction
from django.db.models import CheckConstraint
from django.utils import timezone

from apps.casinos.models import Casino, User
from apps.core.exceptions import DomainError

from ..models import (
    RULE_FIELDS,
    BothQualifyRule,
    Funding,
    Jackpot,
    JackpotKind,
    JackpotStatus,
    MultipleLosersRule,
    QualifyingHand,
    RuleChange,
    RuleChangeStatus,
)
from ..selectors import has_been_won_since_rules, qualifying_rule
from .contributions import HUNDRED
from .locking import lock_jackpots_by_id

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


def _column(name: str) -> models.Field[Any, Any]:
    """The Jackpot column that holds the posted rule `name` (a RULE_FIELDS entry: a concrete field, not a relation's
    reverse side)."""
    column = Jackpot._meta.get_field(name)
    if not isinstance(column, models.Field):
        raise TypeError(f"Jackpot.{name} is not a column: it cannot hold a posted rule.")
    return column


def _fits_column(name: str, number: Decimal, *, too_big: str, too_fine: str) -> Decimal:
    """`number` quantized to its Jackpot column (max_digits, decimal_places) when it fits exactly; raises DomainError
    for more digits before the point than the column holds (a numeric overflow in the database) or for a value
    that is not a whole number of cents (hundredths)."""
    column = _column(name)
    if not isinstance(column, models.DecimalField):
        raise TypeError(f"Jackpot.{name} is not a decimal column: it cannot hold an amount or a percentage.")
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
    column = _column(name)
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
            whole = value
        elif isinstance(value, str) and _WHOLE_NUMBER_TEXT.fullmatch(value.strip()):
            whole = int(value.strip())
        elif isinstance(value, Decimal) and value.is_finite() and value == value.to_integral_value():
            whole = int(value)
        else:
            raise DomainError("Give a whole number.", field=name)
        if not low <= whole <= high:
            raise DomainError(message, field=name)
        return whole
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


def _check_contribution_terms(merged: dict) -> None:
    """The posted rules give the maximum contributed from each pot and how a contribution is calculated (N.J.A.C.
    13:69F-14.19(b)1-posted): `merged` (rule -> typed value, every rule) holds a fixed contribution or a
    percentage of the pot, one of them, above 0, and a maximum above $0.00. Raises DomainError naming the rule."""
    if (merged["contribution_amount"] is None) == (merged["contribution_percentage"] is None):
        raise DomainError("Give either a fixed contribution or a percentage, not both.", field="contribution_amount")
    if merged["contribution_percentage"] is not None and merged["contribution_percentage"] <= 0:
        raise DomainError("The percentage must be above 0.", field="contribution_percentage")
    if merged["contribution_amount"] is not None and merged["contribution_amount"] <= 0:
        raise DomainError("The contribution must be positive.", field="contribution_amount")
    if merged["maximum_contribution"] is None or merged["maximum_contribution"] <= 0:
        raise DomainError("The maximum contribution must be positive.", field="maximum_contribution")


def _check_minimum_pot(merged: dict) -> None:
    """The posted rules give the minimum pot for a contribution (N.J.A.C. 13:69F-14.19(b)2-posted): `merged` holds
    one, $0.00 or more. Raises DomainError naming the rule."""
    if merged["minimum_pot"] is None or merged["minimum_pot"] < 0:
        raise DomainError("The minimum pot may not be negative.", field="minimum_pot")


def _check_qualifying_terms(merged: dict) -> None:
    """The posted rules give the qualifying bad beat requirements and the payouts (N.J.A.C.
    13:69F-14.19(b)3-posted): in `merged`, a qualifying hand of QualifyingHand, a minimum rank within it of 2
    (deuces) to 14 (aces) or none, 2 to 10 players dealt in or none, and the losing, winning and table shares
    adding up to 100 %. Raises DomainError naming the rule."""
    if merged["qualifying_hand"] not in QualifyingHand.values:
        raise DomainError(f"Choose one of {', '.join(QualifyingHand.values)}.", field="qualifying_hand")
    if merged["qualifying_minimum_rank"] is not None and not (2 <= int(merged["qualifying_minimum_rank"]) <= 14):
        raise DomainError("A rank is 2 (deuces) to 14 (aces).", field="qualifying_minimum_rank")
    if merged["minimum_players_dealt"] is not None and not (2 <= int(merged["minimum_players_dealt"]) <= 10):
        raise DomainError("Between 2 and 10 players.", field="minimum_players_dealt")
    shares = [merged[n] for n in ("losing_share", "winning_share", "table_share")]
    if None not in shares and sum(Decimal(str(s)) for s in shares) != HUNDRED:
        raise DomainError("The losing, winning and table shares must add up to 100 %.", field="losing_share")


def _validated(values: dict, *, base: Jackpot | None) -> dict:
    """Check a set of posted-rule values in full, as a notice of their change is before it is posted (N.J.A.C.
    13:69F-14.19(q)-notice), and return them typed as the jackpot holds them: money as Decimal dollars that fit the
    column (at most 12 digits before the point, whole cents, finite, not negative), percentages 0-100 with at most
    2 places, whole numbers in range, texts without control characters and within their length, booleans, choices
    of their enums. The rules once merged with `base` (None: the model's defaults) must still give what (b)1-3 ask
    to be posted (`_check_contribution_terms` unless the payout is funded from a primary's portion,
    `_check_minimum_pot` likewise, `_check_qualifying_terms`), a rule for several qualifying hands at a table and
    for a round that qualifies for two payouts, and satisfy every Jackpot CheckConstraint (one of a fixed amount or a
    percentage, shares not negative). So a notice that is accepted can be put into effect.

    Raises DomainError naming the field at fault (an unknown rule names itself); writes nothing.
    """
    if not isinstance(values, dict):
        raise DomainError("Give the rules to change as an object of rule -> value.", field="changes")
    unknown = sorted(str(k) for k in set(values) - set(RULE_FIELDS))
    if unknown:
        raise DomainError(f"Not a posted rule: {', '.join(unknown)}.", field=unknown[0])
    out = {name: _typed_rule(name, value) for name, value in values.items()}

    def current(name):
        return getattr(base, name) if base is not None else _column(name).get_default()
    merged = {name: out[name] if name in out else current(name) for name in RULE_FIELDS}
    if not (base is not None and base.funding == Funding.PRIMARY_PORTION):
        _check_contribution_terms(merged)
        _check_minimum_pot(merged)
    _check_qualifying_terms(merged)
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
    """Offer a primary bad beat payout with its posted rules (N.J.A.C. 13:69F-14.19(b)-rules-posted), or set the
    rules of one that has taken no contribution yet. Once contributions are taken, rules change only through
    `propose_rule_change`, with a notice first (14.19(q)-notice). `more`: other RULE_FIELDS. Exactly one of
    contribution_amount / contribution_percentage. Raises DomainError naming the field. """
    values = {"name": name, "minimum_pot": minimum_pot, "maximum_contribution": maximum_contribution,
              "qualifying_hand": qualifying_hand, "contribution_amount": contribution_amount,
              "contribution_percentage": contribution_percentage, **more}
    existing = Jackpot.objects.select_for_update().filter(
        casino=casino, kind=JackpotKind.PRIMARY).exclude(status=JackpotStatus.DISCONTINUED).first()
    values = _validated(values, base=existing)
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


def _check_lesser_hand(*, primary: Jackpot, secondary: Jackpot) -> None:
    """A secondary payout is awarded to a lesser qualifying hand than the primary's (N.J.A.C.
    13:69F-14.19(m)-lesser-hand): the primary's qualifying requirement must be the harder of the two. Raises
    DomainError (field "qualifying_hand")."""
    if not qualifying_rule(jackpot=primary).is_harder_than(qualifying_rule(jackpot=secondary)):
        raise DomainError("A secondary payout is for a lesser qualifying hand than the primary (14.19(m)).",
                          field="qualifying_hand")


@transaction.atomic
def create_secondary_jackpot(*, primary: Jackpot, name: str, qualifying_hand: str, funding: str,
                             primary_portion_percentage: Decimal | None = None, **rules) -> Jackpot:
    """Offer a secondary bad beat payout: funded by its own contribution from each pot (`rules` then give
    contribution_amount or contribution_percentage) or by a portion of the primary (`primary_portion_percentage`),
    deducted from the primary when won; its qualifying hand lesser than the primary's (`_check_lesser_hand`). Raises
    DomainError naming the field."""
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
    _check_lesser_hand(primary=primary, secondary=base)
    base.rules_effective_at = timezone.now()
    base.save()
    return base


def _describe_change(jackpot: Jackpot, changes: dict) -> str:
    parts = []
    for name, value in changes.items():
        field = _column(name)
        old = getattr(jackpot, name)
        label = dict(field.choices).get(value, value) if field.choices else value
        old_label = dict(field.choices).get(old, old) if field.choices else old
        parts.append(f"{field.verbose_name}: {old_label} → {label}")
    return "; ".join(parts)


def _check_harder_after_won(*, jackpot: Jackpot, values: dict) -> bool:
    """Whether the changed `values` ({rule: typed value}, each differing from the payout's) make the qualifying hand
    requirements harder; raises DomainError, named by the qualifying term changed (qualifying_hand when it is among
    them), when they do and the payout has not been won since its current rules took effect (N.J.A.C.
    13:69F-14.19(q)-harder-after-won; a payout that has taken no contribution under them counts as won)."""
    harder = qualifying_rule(jackpot=jackpot, values=values).is_harder_than(qualifying_rule(jackpot=jackpot))
    if harder and not has_been_won_since_rules(jackpot=jackpot):
        field = "qualifying_hand" if "qualifying_hand" in values else next(iter(values))
        raise DomainError("The qualifying hand requirements may not be made harder until this payout has been "
                          "won (14.19(q)).", field=field)
    return harder


@transaction.atomic
def propose_rule_change(*, jackpot: Jackpot, changes: dict, effective_at: datetime, proposed_by: User,
                        summary: str = "") -> RuleChange:
    """Post the notice of a change to the posted rules; it takes effect at `effective_at` (N.J.A.C.
    13:69F-14.19(q)-notice). The notice must come first: `effective_at` must be in the future. A change that makes
    the qualifying requirements harder is refused until the payout has been won (`_check_harder_after_won`). The
    change is validated in full here (`_validated`: every value fits its column, the rules it leaves satisfy every
    Jackpot constraint), so a notice accepted can take effect. `summary`: the notice to patrons (at most 2,000
    characters, no control characters); empty, it is written from the change. Raises DomainError naming the field; nothing is written then."""
    jackpot = lock_jackpots_by_id(jackpot.pk)[jackpot.pk]
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
    harder = _check_harder_after_won(jackpot=jackpot, values=values)
    stored = {k: (str(v) if isinstance(v, Decimal) else v) for k, v in values.items()}
    return RuleChange.objects.create(jackpot=jackpot, changes=stored, makes_qualifying_harder=harder,
                                     summary=summary.strip() or _describe_change(jackpot, values),
                                     effective_at=effective_at, proposed_by=proposed_by)


@transaction.atomic
def withdraw_rule_change(*, change: RuleChange, withdrawn_by: User) -> RuleChange:
    """Withdraw the notice of a rule change that has not taken effect (N.J.A.C. 13:69F-14.19(q)-notice): it never
    takes effect and its notice leaves the rules page's notices and the displays. Withdrawn by whoever may propose a
    rule change of the payout (`badbeat.change_rules`: a poker shift supervisor or an administrator of its casino);
    recorded on the row (withdrawn_by, withdrawn_at) and in its history (pghistory).

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
    """Put into effect every scheduled rule change whose time has come (N.J.A.C. 13:69F-14.19(q)-notice); idempotent.

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
    """Put one due rule change into effect under the row locks of the change and its payout (14.19(q)-notice); 1 when
    it took effect, 0 when it is no longer scheduled or is a harder qualifying hand still waiting for the payout to
    be won. Call in a transaction. Raises DomainError (values refused by `_validated`) or a DatabaseError."""
    change = RuleChange.objects.select_for_update().get(pk=change_id)
    if change.status != RuleChangeStatus.SCHEDULED:
        return 0
    jackpot = lock_jackpots_by_id(change.jackpot_id)[change.jackpot_id]
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
    """Mark a scheduled rule change failed with the reason (14.19(q)-notice), in a transaction of its own so the mark
    stays once the failed attempt is rolled back; a change withdrawn meanwhile is left as it is."""
    with transaction.atomic():
        change = RuleChange.objects.select_for_update().get(pk=change_id)
        if change.status != RuleChangeStatus.SCHEDULED:
            return
        change.status, change.failed_at = RuleChangeStatus.FAILED, now
        change.failure_reason = reason[:FAILURE_REASON_MAX_LENGTH]
        change.save(update_fields=["status", "failed_at", "failure_reason"])


def validate_posted_rules(*, values: dict, jackpot: Jackpot | None) -> dict:
    """Posted-rule values (14.19(b)1-posted, 14.19(b)2-posted, 14.19(b)3-posted, 14.19(b)4) checked in full
    (`_validated`) and typed as the jackpot would hold them (Decimal dollars and percentages that fit their
    columns, whole numbers, texts, choices; the merged rules satisfy every Jackpot constraint), as for a notice of
    change (14.19(q)-notice) — the multi-casino system's rule changes (14.20(c)1) use it. Raises DomainError naming
    the field."""
    return _validated(values, base=jackpot)


def adopt_shared_rules(*, jackpot: Jackpot, rules: dict, summary: str, now: datetime) -> RuleChange | None:
    """A multi-casino system's rule change took effect (14.20(c)1): this casino's payout takes the same rules,
    kept as an applied rule change. `rules` holds the system's rule keys, all of them Jackpot fields. Raises
    DomainError for a value that is not a rule. None when nothing changes here."""
    jackpot = lock_jackpots_by_id(jackpot.pk)[jackpot.pk]
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
