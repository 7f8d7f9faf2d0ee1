"""Setting up a multi-casino bad beat system (N.J.A.C. 13:69F-14.20(b), (c)): the agreement with its one rule set
and that set's hash, and the participating casinos with the links (secrets) to the peers."""
from __future__ import annotations

import hashlib

from django.db import models, transaction

from apps.core.exceptions import DomainError

from ..models import ELIGIBILITY_DEFAULTS, BadBeatSystem, Link, Site, TwoClaimsRule, with_eligibility_defaults
from ..signing import canonical

#: The rule fields every participating casino must hold identically (14.20(a), (c)1): the qualifying hand, which pots
#: can be a bad beat (14.19(b)3: straddled pots, bomb pots, hands run more than once — ELIGIBILITY_DEFAULTS when a
#: rule set leaves them out), the contribution, the reset and the shares.
RULE_KEYS = ("qualifying_hand", "qualifying_minimum_rank", "both_hole_cards_must_play", "minimum_players_dealt",
             *ELIGIBILITY_DEFAULTS,
             "contribution_amount", "contribution_percentage", "minimum_pot", "maximum_contribution",
             "reset_percentage", "losing_share", "winning_share", "table_share")


def rules_hash(*, rules: dict, two_claims_rule: str, contributions_while_suspended: bool) -> str:
    """SHA-256 of the system's one rule set in canonical JSON: equal at every casino, or the casino is suspended.
    A term of which pots qualify at its default is left out of it, as a rule set from before those terms reads it
    (ELIGIBILITY_DEFAULTS): the same rules hash the same at a casino whose rule set holds the term and at one whose
    does not, and a term set otherwise changes the hash."""
    kept = {k: v for k, v in rules.items() if k not in ELIGIBILITY_DEFAULTS or v != ELIGIBILITY_DEFAULTS[k]}
    text = canonical({"rules": kept, "two_claims_rule": two_claims_rule,
                      "contributions_while_suspended": contributions_while_suspended})
    return hashlib.sha256(text.encode()).hexdigest()


def check_rule_keys(rules: dict) -> None:
    """Every rule of the system and nothing else (14.20(a), (c)1); a term of which pots qualify may be left out, for
    its default (ELIGIBILITY_DEFAULTS). Raises DomainError: a missing rule names `rules`, an unknown one names
    itself."""
    missing = [k for k in RULE_KEYS if k not in with_eligibility_defaults(rules)]
    if missing:
        raise DomainError(f"Rules missing: {', '.join(missing)}.", field="rules")
    unknown = sorted(set(rules) - set(RULE_KEYS))
    if unknown:
        raise DomainError(f"Not a rule of the system: {', '.join(unknown)}.", field=unknown[0])


@transaction.atomic
def set_up_system(*, code: str, name: str, host_name: str, host_address: str, rules: dict,
                  two_claims_rule: str = TwoClaimsRule.FIRST_RECEIVED, contributions_while_suspended: bool = False,
                  jackpot=None, funds_and_fees: str | None = None,
                  records_kept_by: str | None = None) -> BadBeatSystem:
    """Record the bad beat system agreement (14.20(b), (c)) with its one rule set and that set's hash; run again, it
    changes what is given. `funds_and_fees` (14.20(c)2) and `records_kept_by` (14.20(c)3): None keeps what is
    recorded (blank for a new system), so that a configuration run without them does not erase terms recorded on
    the system's admin page. Raises DomainError for a rule set missing a required rule or with an unknown one
    (`check_rule_keys`). The rules are stored as given: a term of which pots qualify left out reads as its default
    (BadBeatSystem.posted_rules)."""
    check_rule_keys(rules)
    if two_claims_rule not in TwoClaimsRule.values:
        raise DomainError(f"Choose one of {', '.join(TwoClaimsRule.values)}.", field="two_claims_rule")
    system, _ = BadBeatSystem.objects.update_or_create(code=code, defaults={
        "name": name, "host_name": host_name, "host_address": host_address, "rules": rules,
        "two_claims_rule": two_claims_rule, "contributions_while_suspended": contributions_while_suspended,
        "jackpot": jackpot, **_given(funds_and_fees=funds_and_fees, records_kept_by=records_kept_by),
        "rules_hash": rules_hash(rules=rules, two_claims_rule=two_claims_rule,
                                 contributions_while_suspended=contributions_while_suspended)})
    return system


def _longest(name: str) -> int:
    """The longest text a casino's field `name` takes (its max_length), in characters."""
    field_ = Site._meta.get_field(name)
    if not isinstance(field_, models.Field) or field_.max_length is None:
        raise ValueError(f"Site.{name} is not a text of bounded length")
    return field_.max_length


def _given(**texts: str | None) -> dict[str, str]:
    """The texts given (not None), stripped: what a configuration run changes."""
    return {name: value.strip() for name, value in texts.items() if value is not None}


def _roles(**texts: str | None) -> dict[str, str]:
    """A casino's role, authority and responsibilities as the system agreement describes them (N.J.A.C.
    13:69F-14.20(c)-roles): the texts given (`_given`: None keeps what is recorded), stripped, each within its field
    (`_longest`). Raises DomainError naming the field of a text too long."""
    given = _given(**texts)
    for name, value in given.items():
        limit = _longest(name)
        if len(value) > limit:
            raise DomainError(f"At most {limit:,} characters ({len(value):,} given).", field=name)
    return given


def add_site(*, system: BadBeatSystem, code: str, name: str, address: str = "", is_host: bool = False,
             is_self: bool = False, inbox_url: str = "", outbound_secrets: list[str] | None = None,
             inbound_secrets: list[str] | None = None, role: str | None = None, authority: str | None = None,
             responsibilities: str | None = None) -> Site:
    """Add a participating casino (run again, change it); a peer (not this deployment) gets a link with its secrets.
    `role`, `authority`, `responsibilities`: the casino's under the system agreement (`_roles`); None keeps what is
    recorded (blank for a new casino). Raises DomainError (field-level) for a text longer than its field."""
    given = _roles(role=role, authority=authority, responsibilities=responsibilities)
    site, _ = Site.objects.update_or_create(system=system, code=code, defaults={
        "name": name, "address": address, "is_host": is_host, "is_self": is_self, "inbox_url": inbox_url, **given})
    if not is_self:
        Link.objects.update_or_create(peer=site, defaults={"outbound_secrets": outbound_secrets or [],
                                                           "inbound_secrets": inbound_secrets or []})
    return site
