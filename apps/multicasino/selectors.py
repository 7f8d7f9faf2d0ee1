"""Reads of the multi-casino system: its status as every display shows it, and the host's reconciliation."""
from dataclasses import dataclass
from decimal import Decimal

from django.db.models import Sum

from apps.core.money import ZERO

from .models import BadBeatSystem, RejectedMessage, Site


@dataclass(frozen=True)
class SiteLedger:
    site: Site
    pooled: Decimal          # what the host applied from this site
    reported: Decimal | None  # the site's own running total, as last reported

    @property
    def agrees(self) -> bool:
        return self.reported is not None and self.reported == self.pooled


def site_ledgers(*, system: BadBeatSystem) -> list[SiteLedger]:
    """At the host: each casino's contributions as pooled against the site's own running total (14.20(e)3)."""
    pooled = dict(system.pool_entries.values("site").annotate(t=Sum("amount")).values_list("site", "t"))
    return [SiteLedger(site=s, pooled=pooled.get(s.pk, ZERO), reported=s.reported_total)
            for s in system.sites.all()]


def systems_for_display() -> list[BadBeatSystem]:
    return list(BadBeatSystem.objects.prefetch_related("sites"))


def recent_rejections(limit: int = 50):
    return RejectedMessage.objects.all()[:limit]


def display_panels(*, casino) -> list[dict]:
    """The panels the room's display adds for each multi-casino system this deployment belongs to: the host's
    official pool and this casino's status (14.20(e)4.i); `casino` is the display's casino."""
    panels = []
    for system in BadBeatSystem.objects.prefetch_related("sites"):
        me = next((s for s in system.sites.all() if s.is_self), None)
        if me is None:
            continue
        host = next((s for s in system.sites.all() if s.is_host), None)
        panels.append({"title": f"{system.name} — multi-casino", "amount": system.pool,
                       "suspended": me.status == "suspended", "reason": me.status_reason,
                       "note": f"Host: {host.name if host else system.host_name}. Participating: "
                               + ", ".join(s.name for s in system.sites.all()) + "."})
    return panels


def contributions_by_casino_and_day(*, system: BadBeatSystem):
    """At the host: contributions pooled, by casino and gaming day (14.20(d)1 reports)."""
    return (system.pool_entries.values("site__code", "site__name", "gaming_day")
            .annotate(total=Sum("amount")).order_by("gaming_day", "site__code"))
