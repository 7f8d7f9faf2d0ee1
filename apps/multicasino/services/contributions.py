"""Contributions to a system's payout (N.J.A.C. 13:69F-14.20(d), (e)3, 14.20(e)2-complete, 14.20(e)2-identified): each
of this casino's contributions is reported to the host in the transaction that writes it; the host adds each once to the
system pool, keeping every casino's contributions apart."""
from __future__ import annotations

from collections.abc import Sequence
from decimal import Decimal

from django.db.models import Prefetch

from apps.badbeat.models import Contribution, Jackpot
from apps.core.money import ZERO, money

from ..models import BadBeatSystem, MessageKind, PoolEntry, Site
from .outbox import enqueue_many


def site_total(*, system: BadBeatSystem) -> Decimal:
    """This site's running total of contributions to the system's payout (Decimal dollars): its jackpot's
    contributions of all time, as kept beside them (`Jackpot.contributions_total`), not summed."""
    if system.jackpot_id is None:
        return ZERO
    return Jackpot.objects.filter(pk=system.jackpot_id).values_list("contributions_total", flat=True).first() or ZERO


def record_contributions(*, contributions: Sequence[Contribution]) -> None:
    """In the transaction that wrote `contributions` (each has its pk): for each, in primary-key order, a site
    writes one outbox message to the host; the host, which also runs a site, adds its own casino's contribution
    to the pool directly (14.20(d), 14.20(e)2-complete, 14.20(e)2-identified). Contributions of a jackpot that funds no
    system are left alone.

    Each message carries `site_total`, this casino's total after that contribution (as `site_total` sums it): the
    jackpot's running total of all its contributions (`Jackpot.contributions_total`, kept in their transaction) less
    the batch, then added to contribution by contribution. The systems of each jackpot, with their sites, are read
    once, and the messages are written together (`enqueue_many`): a batch costs the same few queries as one
    contribution. """
    ordered = sorted(contributions, key=lambda c: c.pk)
    if not ordered:
        return
    systems: dict[int, list[tuple[Site, Site]]] = {}
    kept: dict[int, Decimal] = {}  # each jackpot's contributions of all time, batch included (its running total)
    for system in (BadBeatSystem.objects.filter(jackpot_id__in={c.jackpot_id for c in ordered}).order_by("pk")
                   .select_related("jackpot").only("jackpot_id", "jackpot__contributions_total")
                   .prefetch_related(Prefetch("sites", queryset=Site.objects.select_related("link")))):
        sites = list(system.sites.all())  # in the sites' order, as self_site and host_site take the first
        me = next((s for s in sites if s.is_self), None)
        host = next((s for s in sites if s.is_host), None)
        jackpot = system.jackpot  # set: these are the systems of the contributions' jackpots
        if me is not None and host is not None and jackpot is not None:
            systems.setdefault(jackpot.pk, []).append((me, host))
            kept[jackpot.pk] = jackpot.contributions_total
    if not systems:
        return
    # the site's total before the batch: the jackpot's kept total less the batch (no sum over its history)
    running = dict(kept)
    for contribution in ordered:
        if contribution.jackpot_id in running:
            running[contribution.jackpot_id] -= contribution.amount
    messages = []
    for contribution in ordered:
        if contribution.jackpot_id not in systems:
            continue
        total = running.get(contribution.jackpot_id, ZERO) + contribution.amount
        running[contribution.jackpot_id] = total
        body = {"reference": str(contribution.pk), "amount": f"{contribution.amount:.2f}",
                "to_reset": f"{contribution.to_reset:.2f}",
                "gaming_day": contribution.gaming_day.isoformat(), "site_total": f"{total:.2f}"}
        for me, host in systems[contribution.jackpot_id]:
            if me.is_host:
                apply_contribution(site=me, body=body)
            else:
                messages.append((host.link, MessageKind.CONTRIBUTION, body))
    enqueue_many(messages=messages)


def apply_contribution(*, site: Site, body: dict) -> PoolEntry | None:
    """At the host: add a site's contribution to the system pool, once per site and reference, under the
    system's row lock; the entry keeps the casino identifiable (its site). Its reset part (14.19(p)-reset) goes to
    the reset reserve, the rest to the pool. None when already applied."""
    system = BadBeatSystem.objects.select_for_update().get(pk=site.system_id)
    entry, created = PoolEntry.objects.get_or_create(
        site=site, reference=str(body["reference"]),
        defaults={"system": system, "amount": money(body["amount"]), "gaming_day": body["gaming_day"],
                  "to_reset": money(body.get("to_reset", "0"))})
    if not created:
        return None
    system.pool += entry.amount - entry.to_reset
    system.reset_reserve += entry.to_reset
    system.save(update_fields=["pool", "reset_reserve", "updated_at"])
    if "site_total" in body:
        Site.objects.filter(pk=site.pk).update(reported_total=money(body["site_total"]))
    return entry
