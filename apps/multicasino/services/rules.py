"""Rule changes of a multi-casino system (N.J.A.C. 13:69F-14.20(c)1 with 14.19(q)-notice): proposed at the host by a
designated key employee with the notice first, approved by every participating casino's, in effect at its time,
a harder qualifying hand only once the payout has been won; every casino then holds the same rules and hash."""
from __future__ import annotations

import uuid
from datetime import datetime

from django.db import transaction
from django.utils import timezone

from apps.badbeat import services as badbeat
from apps.casinos.models import User
from apps.core.exceptions import DomainError

from ..models import (
    ELIGIBILITY_DEFAULTS,
    BadBeatSystem,
    MessageKind,
    RuleApproval,
    RuleChangeStatus,
    Site,
    SystemClaimStatus,
    SystemRuleChange,
    TwoClaimsRule,
    with_eligibility_defaults,
)
from .common import linked_peers, own_site, person_name, self_site
from .outbox import enqueue, tell_host
from .setup import check_rule_keys, rules_hash


def may_approve_rules(user: User) -> bool:
    """A casino's designated key employee: an administrator, or a poker shift supervisor holding a casino key
    employee license (14.20(c)1, (f))."""
    return user.has_perm("multicasino.approve_rules")


def _qualifying(system: BadBeatSystem, rules: dict):
    from apps.badbeat.selectors import qualifying_rule

    rules = with_eligibility_defaults(rules)  # a rule set from before the terms of which pots qualify
    values = {k: rules[k] for k in ("qualifying_hand", "qualifying_minimum_rank", "both_hole_cards_must_play",
                                    "minimum_players_dealt", *ELIGIBILITY_DEFAULTS)}
    if system.jackpot is None:
        raise DomainError(f"The {system.name} has no payout at this casino.", field="system")
    return qualifying_rule(jackpot=system.jackpot, values=values)


def _won_since_rules(system: BadBeatSystem) -> bool:
    """Whether the system's payout was won since its qualifying requirements took effect (or nothing was taken
    under them): only then may they be made harder (14.19(q)-harder-after-won)."""
    paid = system.claims.filter(status=SystemClaimStatus.PAID)
    taken = system.pool_entries.all()
    if system.rules_effective_at is not None:
        paid, taken = paid.filter(paid_at__gt=system.rules_effective_at), taken.filter(
            applied_at__gt=system.rules_effective_at)
    return paid.exists() or not taken.exists()


def _check_system_harder_after_won(system: BadBeatSystem, rules: dict) -> bool:
    """Whether the proposed `rules` (the system's posted-rules document) make its qualifying hand harder (False for
    a system with no payout at this casino); raises DomainError (field rules) when they do and the payout has not
    been won since its current requirements took effect, or when they name no qualifying hand (N.J.A.C.
    13:69F-14.19(q)-harder-after-won)."""
    if system.jackpot is None:
        return False
    try:
        harder = _qualifying(system, rules).is_harder_than(_qualifying(system, system.rules))
    except (KeyError, ValueError) as exc:
        raise DomainError(f"Not a qualifying hand: {exc}", field="rules") from exc
    if harder and not _won_since_rules(system):
        raise DomainError("The qualifying hand may not be made harder until the payout has been won (14.19(q)).",
                          field="rules")
    return harder


def rule_change_document(change: SystemRuleChange) -> dict:
    return {"reference": change.reference, "rules": change.rules, "two_claims_rule": change.two_claims_rule,
            "rules_hash": change.rules_hash, "summary": change.summary,
            "makes_qualifying_harder": change.makes_qualifying_harder, "effective_at": change.effective_at.isoformat(),
            "proposed_by": change.proposed_by, "proposed_at": change.proposed_at.isoformat(), "status": change.status,
            "applied_at": change.applied_at.isoformat() if change.applied_at else None,
            "approvals": [{"site": a.site.code, "site_name": a.site.name, "approved_by": a.approved_by,
                           "approved_at": a.approved_at.isoformat()} for a in change.approvals.select_related("site")]}


def _broadcast_rule_change(change: SystemRuleChange) -> None:
    body = rule_change_document(change)
    for peer in linked_peers(change.system):
        enqueue(link=peer.link, kind=MessageKind.RULES, body=body)


@transaction.atomic
def propose_system_rules(*, system: BadBeatSystem, rules: dict, effective_at: datetime, proposed_by: User,
                         two_claims_rule: str | None = None, now: datetime | None = None) -> SystemRuleChange:
    """At the host: propose a new rule set for every participating casino (14.20(c)1). Its notice is posted at
    once, before it takes effect (14.19(q)-notice); it takes effect at `effective_at` once every casino's designated
    key employee has approved it; a harder qualifying hand is refused until the payout has been won
    (`_check_system_harder_after_won`). Raises DomainError naming the field."""
    now = now or timezone.now()
    me = self_site(system)
    if me is None or not me.is_host:
        raise DomainError("Rule changes are proposed at the host casino.", field="system")
    if not may_approve_rules(proposed_by):
        raise DomainError("Only a designated key employee proposes a rule change (14.20(c)1).", field="proposed_by")
    if timezone.is_naive(effective_at) or effective_at <= now:
        raise DomainError("A notice is posted before the change takes effect: choose a later time (14.19(q)).",
                          field="effective_at")
    check_rule_keys(rules)
    rules = with_eligibility_defaults(rules)  # a term of which pots qualify left out: its default, said in the notice
    badbeat.validate_posted_rules(values=rules, jackpot=system.jackpot)
    two_claims_rule = two_claims_rule or system.two_claims_rule
    if two_claims_rule not in TwoClaimsRule.values:
        raise DomainError(f"Choose one of {', '.join(TwoClaimsRule.values)}.", field="two_claims_rule")
    system = BadBeatSystem.objects.select_for_update().get(pk=system.pk)
    new_hash = rules_hash(rules=rules, two_claims_rule=two_claims_rule,
                          contributions_while_suspended=system.contributions_while_suspended)
    if new_hash == system.rules_hash:
        raise DomainError("Nothing would change.", field="rules")
    harder = _check_system_harder_after_won(system, rules)
    held = system.posted_rules
    changed = [k for k in sorted(rules) if rules[k] != held.get(k)]
    summary = "; ".join(f"{k.replace('_', ' ')}: {held.get(k)} → {rules[k]}" for k in changed)
    if two_claims_rule != system.two_claims_rule:
        summary = "; ".join(filter(None, [summary, f"two claims: {TwoClaimsRule(two_claims_rule).label}"]))
    change = SystemRuleChange.objects.create(
        system=system, reference=f"rc_{uuid.uuid4().hex}", rules=rules, two_claims_rule=two_claims_rule,
        rules_hash=new_hash, summary=summary, makes_qualifying_harder=harder, effective_at=effective_at,
        proposed_by=person_name(proposed_by), proposed_at=now)
    _broadcast_rule_change(change)
    return change


@transaction.atomic
def approve_system_rules(*, change: SystemRuleChange, user: User, now: datetime | None = None) -> SystemRuleChange:
    """This casino's designated key employee approves a proposed rule change (14.20(c)1); the approval goes to
    the host. Raises DomainError for someone else, or a change no longer proposed or already approved here."""
    now = now or timezone.now()
    if not may_approve_rules(user):
        raise DomainError("Only this casino's designated key employee approves a rule change (14.20(c)1).",
                          field="user")
    change = SystemRuleChange.objects.select_for_update().get(pk=change.pk)
    me = own_site(change.system)
    if change.status != RuleChangeStatus.PROPOSED:
        raise DomainError(f"This change is {change.get_status_display().lower()}.", field="status")
    if change.approvals.filter(site=me).exists():
        raise DomainError("This casino has already approved it.", field="status")
    body = {"reference": change.reference, "approved_by": person_name(user), "approved_at": now.isoformat()}
    if not me.is_host:  # the site keeps its own approval too; the host records it when applying
        RuleApproval.objects.create(change=change, site=me, approved_by=body["approved_by"], approved_at=now)
    tell_host(system=change.system, me=me, kind=MessageKind.APPROVAL, body=body, now=now,
              apply_at_host=apply_approval)
    return change


def apply_approval(*, site: Site, body: dict, now: datetime) -> RuleApproval | None:
    """At the host: a casino's approval of a rule change, once; every casino is told how many have approved."""
    change = SystemRuleChange.objects.select_for_update().filter(reference=body["reference"]).first()
    if change is None or change.status != RuleChangeStatus.PROPOSED:
        return None
    approval, created = RuleApproval.objects.get_or_create(change=change, site=site, defaults={
        "approved_by": str(body["approved_by"])[:150], "approved_at": datetime.fromisoformat(body["approved_at"])})
    if created:
        _broadcast_rule_change(change)
    return approval


def apply_due_system_rules(*, now: datetime | None = None) -> int:
    """At the host (every heartbeat): put in effect each proposed change whose time has come and which every
    participating casino has approved; every casino then holds the new rules and hash (14.20(c)1). A harder
    qualifying hand still waits for the payout to be won. Returns how many took effect."""
    now = now or timezone.now()
    done = 0
    for change in SystemRuleChange.objects.filter(status=RuleChangeStatus.PROPOSED, effective_at__lte=now,
                                                  system__sites__is_self=True, system__sites__is_host=True):
        with transaction.atomic():
            change = SystemRuleChange.objects.select_for_update().get(pk=change.pk)
            system = BadBeatSystem.objects.select_for_update().get(pk=change.system_id)
            approved = set(change.approvals.values_list("site_id", flat=True))
            if change.status != RuleChangeStatus.PROPOSED or set(system.sites.values_list("pk", flat=True)) - approved:
                continue
            if change.makes_qualifying_harder and not _won_since_rules(system):
                continue
            change.status, change.applied_at = RuleChangeStatus.IN_EFFECT, now
            change.save(update_fields=["status", "applied_at"])
            _adopt(system, change, now)
            _broadcast_rule_change(change)
            done += 1
    return done


def _adopt(system: BadBeatSystem, change: SystemRuleChange, now: datetime) -> None:
    """This casino now holds the change's rules: the system's rule set and hash, and its own payout's rules."""
    qualifying_changed = system.jackpot is not None and (
        _qualifying(system, change.rules) != _qualifying(system, system.rules))
    system.rules, system.two_claims_rule, system.rules_hash = change.rules, change.two_claims_rule, change.rules_hash
    if qualifying_changed or system.rules_effective_at is None:
        system.rules_effective_at = now
    system.save(update_fields=["rules", "two_claims_rule", "rules_hash", "rules_effective_at", "updated_at"])
    if system.jackpot is not None:
        badbeat.adopt_shared_rules(jackpot=system.jackpot, rules=with_eligibility_defaults(change.rules),
                                   summary=change.summary, now=now)


def apply_rule_change(*, host: Site, body: dict, now: datetime) -> SystemRuleChange:
    """At a site: the host's proposal, its approvals and its status; once in effect, this casino adopts the new
    rules (its hash then matches the host's again). Idempotent. The rules are kept as the host sent them: a term of
    which pots qualify that they do not hold (a host whose software predates it) reads as its default, here and in
    the payout's rules adopted (`_adopt`), and the hash is the same either way (setup.rules_hash)."""
    system = BadBeatSystem.objects.select_for_update().get(pk=host.system_id)
    change, _ = SystemRuleChange.objects.update_or_create(reference=body["reference"], defaults={
        "system": system, "rules": body["rules"], "two_claims_rule": body["two_claims_rule"],
        "rules_hash": body["rules_hash"], "summary": body["summary"],
        "makes_qualifying_harder": body["makes_qualifying_harder"],
        "effective_at": datetime.fromisoformat(body["effective_at"]), "proposed_by": body["proposed_by"],
        "proposed_at": datetime.fromisoformat(body["proposed_at"]), "status": body["status"],
        "applied_at": datetime.fromisoformat(body["applied_at"]) if body.get("applied_at") else None})
    for approval in body.get("approvals", []):
        site, _ = Site.objects.get_or_create(system=system, code=approval["site"],
                                             defaults={"name": approval["site_name"]})
        RuleApproval.objects.get_or_create(change=change, site=site, defaults={
            "approved_by": approval["approved_by"], "approved_at": datetime.fromisoformat(approval["approved_at"])})
    if change.status == RuleChangeStatus.IN_EFFECT and system.rules_hash != change.rules_hash:
        _adopt(system, change, now)
    return change
