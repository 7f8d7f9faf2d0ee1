"""Reads of the multi-casino system: its status as every display shows it, and the host's reconciliation."""
from dataclasses import dataclass
from decimal import Decimal

from django.db.models import Sum

from apps.core.money import ZERO, dollars

from .models import (
    BadBeatSystem,
    Notice,
    NoticeKind,
    PoolMovementKind,
    RejectedMessage,
    RuleChangeStatus,
    Site,
    SystemClaim,
    SystemClaimStatus,
    SystemStatus,
    UndeliveredNotice,
)


@dataclass(frozen=True)
class SiteLedger:
    site: Site
    pooled: Decimal          # what the host applied from this site
    reported: Decimal | None  # the site's own running total, as last reported

    @property
    def agrees(self) -> bool:
        return self.reported is not None and self.reported == self.pooled


def site_ledgers(*, system: BadBeatSystem) -> list[SiteLedger]:
    """At the host: each casino's contributions as pooled against the site's own running total (the host's report)."""
    pooled = dict(system.pool_entries.values("site").annotate(t=Sum("amount")).values_list("site", "t"))
    return [SiteLedger(site=s, pooled=pooled.get(s.pk, ZERO), reported=s.reported_total)
            for s in system.sites.all()]


@dataclass(frozen=True)
class CasinoRole:
    """One participating casino's part in the conduct of the payout, as the system agreement describes it
    (14.20(c)): each text stripped, "" where the agreement's description is not recorded."""

    site: Site
    role: str
    authority: str
    responsibilities: str

    @property
    def missing(self) -> list[str]:
        """Which of "role", "authority", "responsibilities" are not recorded, in that order."""
        return [name for name in ("role", "authority", "responsibilities") if not getattr(self, name)]


def casino_roles(*, system: BadBeatSystem) -> list[CasinoRole]:
    """Each participating casino of `system` (the host first, then by code) with its role, authority and
    responsibilities in the conduct of the multi-casino bad beat payout as the agreement describes them
    (N.J.A.C. 13:69F-14.20(c)); a casino whose description is not recorded is listed with "" (shown as missing)."""
    return [CasinoRole(site=s, role=s.role.strip(), authority=s.authority.strip(),
                       responsibilities=s.responsibilities.strip()) for s in system.sites.all()]


def systems_for_display() -> list[BadBeatSystem]:
    return list(BadBeatSystem.objects.prefetch_related("sites"))


def recent_rejections(limit: int = 50):
    return RejectedMessage.objects.all()[:limit]


def display_panels(*, casino) -> list[dict]:
    """The panels the room's display adds for each multi-casino system this deployment belongs to: the host's
    official pool and this casino's status (14.20(e)4-notify); `casino` is the display's casino."""
    panels = []
    for system in BadBeatSystem.objects.prefetch_related("sites"):
        me = next((s for s in system.sites.all() if s.is_self), None)
        if me is None:
            continue
        host = next((s for s in system.sites.all() if s.is_host), None)
        pending = list(system.claims.filter(status=SystemClaimStatus.PENDING).select_related("site")
                       .order_by("arrival"))
        panels.append({"title": f"{system.name} — multi-casino", "amount": system.pool,
                       "suspended": me.status == SystemStatus.SUSPENDED, "reason": me.status_reason,
                       "pending": [f"{dollars(c.amount or ZERO)} at {c.site.name}, table {c.table_number}" for c in pending],
                       "notices": list(system.notices.exclude(kind=NoticeKind.PENDING)[:3]) if not pending else [],
                       "rule_notices": list(system.rule_changes.filter(status=RuleChangeStatus.PROPOSED)),
                       "note": f"Host: {host.name if host else system.host_name}. Participating: "
                               + ", ".join(s.name for s in system.sites.all()) + "."})
    return panels


def contributions_by_casino_and_day(*, system: BadBeatSystem):
    """At the host: contributions pooled, by casino and gaming day (14.20(d)1-information reports)."""
    return (system.pool_entries.values("site__code", "site__name", "gaming_day")
            .annotate(total=Sum("amount"), to_reset=Sum("to_reset")).order_by("gaming_day", "site__code"))


def claims(*, system: BadBeatSystem):
    """Every claim on the system's payout as this deployment knows it, latest first, with its casino."""
    return system.claims.select_related("site").order_by("-verified_at")


def notices(*, system: BadBeatSystem, limit: int = 20):
    return Notice.objects.filter(system=system).select_related("claim__site")[:limit]


def undelivered_notices(*, system: BadBeatSystem):
    """At the host: notices a suspended casino did not receive, for delivery by other means (14.20(e)4-notify)."""
    return UndeliveredNotice.objects.filter(notice__system=system).select_related("notice", "site", "delivered_by")


def payouts(*, system: BadBeatSystem):
    """Paid claims: the documentation of each payout (14.20(e)4-document)."""
    return system.claims.filter(status=SystemClaimStatus.PAID).select_related("site").order_by("-paid_at")


#: How many payouts the posting lists, the newest first (14.20(d)1-information).
POSTED_PAYOUTS = 5


def posted_payouts(*, system: BadBeatSystem) -> list[SystemClaim]:
    """The payouts the posting lists (N.J.A.C. 13:69F-14.20(d)1-information): the POSTED_PAYOUTS most recent paid
    claims of `system`, newest first, with their casino."""
    return list(payouts(system=system)[:POSTED_PAYOUTS])


def host_report(*, system: BadBeatSystem) -> dict:
    """The host's report: each casino's role, authority and responsibilities under the agreement (`casino_roles`,
    with `roles_missing` true when any is not recorded), contributions by casino and gaming day,
    payouts, reset amounts seeded, the ledger check (pool + reset reserve = contributions - payouts, to the cent)
    and every site's ledger against the host's."""
    contributions = system.pool_entries.aggregate(t=Sum("amount", default=ZERO))["t"]
    paid = system.movements.filter(kind=PoolMovementKind.PAYOUT).aggregate(t=Sum("amount", default=ZERO))["t"]
    held = system.pool + system.reset_reserve
    roles = casino_roles(system=system)
    return {"system": system, "casino_roles": roles, "roles_missing": any(r.missing for r in roles),
            "by_day": contributions_by_casino_and_day(system=system),
            "payouts": list(payouts(system=system)),
            "resets": list(system.movements.filter(kind=PoolMovementKind.RESET_SEED).select_related("claim__site")),
            "ledgers": site_ledgers(system=system), "contributions": contributions, "paid": paid, "held": held,
            "balanced": held == contributions - paid}


def rule_changes(*, system: BadBeatSystem, limit: int = 10) -> list[dict]:
    """Rule changes with their approvals: which casinos approved, which are still awaited (14.20(c)1)."""
    sites = list(system.sites.all())
    out = []
    for change in system.rule_changes.prefetch_related("approvals__site")[:limit]:
        approved = {a.site_id: a for a in change.approvals.all()}
        out.append({"change": change, "approvals": list(approved.values()),
                    "awaited": [s for s in sites if s.pk not in approved],
                    "approved_here": any(s.is_self and s.pk in approved for s in sites)})
    return out
