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
