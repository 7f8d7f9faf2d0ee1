"""Contributions to a system's payout (N.J.A.C. 13:69F-14.20(d), (e)3, 14.20(e)2-complete, 14.20(e)2-identified): each
of this casino's contributions is reported to the host in the transaction that writes it; the host adds each once to the
system pool, keeping every casino's contributions apart."""
from __future__ import annotations

import logging
from collections.abc import Sequence
from datetime import date
from decimal import Decimal, InvalidOperation
from typing import Any

from django.db.models import Prefetch

from apps.badbeat.models import Contribution, Jackpot
from apps.core.money import ZERO, money

from ..models import BadBeatSystem, MessageKind, PoolEntry, RejectedMessage, Site
from ..signing import body_hash, canonical
from .outbox import enqueue_many

log = logging.getLogger(__name__)
#: No amount of a message reaches $1,000,000,000,000.00: a money column (numeric(14, 2)) holds less.
MAX_AMOUNT = Decimal("1000000000000")


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


def apply_peer_contribution(*, site: Site, body: Any) -> PoolEntry | None:
    """At the host: a contribution message from the site `site` (the inbox's CONTRIBUTION kind), applied by
    `apply_contribution` once its body is checked (`contribution_body`).

    A body that is not a contribution (no reference, an amount that is not positive dollars and cents, a reset part
    below zero or above the amount, a gaming day that is not a date, a running total that is not dollars and cents)
    changes nothing: the message is recorded as a RejectedMessage with the reason (the host's log of messages it
    refused, which operators read) and logged as an error; the message still counts as received in its link's
    sequence, so the messages after it are applied. So is one that would take the pool or the reset reserve to
    `MAX_AMOUNT` (under the system's row lock). The host's pool never takes an amount a casino did not contribute.
    Returns the pool entry, or None when refused or already applied."""
    try:
        checked = contribution_body(body)
        system = BadBeatSystem.objects.select_for_update().get(pk=site.system_id)
        if max(system.pool + checked["amount"] - checked["to_reset"],
               system.reset_reserve + checked["to_reset"]) >= MAX_AMOUNT:
            raise ValueError("amount: more than the pool can hold")
    except ValueError as exc:
        reference = str(body.get("reference", "")) if isinstance(body, dict) else ""
        RejectedMessage.objects.create(sender=site.code[:40], message_id=reference[:64],
                                       reason=f"Contribution refused: {exc}"[:300],
                                       body_hash=body_hash(canonical(body if isinstance(body, dict) else {"body": body})))
        log.error("multicasino: contribution %r from %s refused: %s", reference, site.code, exc)
        return None
    return apply_contribution(site=site, body=checked)


def contribution_body(body: Any) -> dict:
    """A contribution message's body as `apply_contribution` takes it: {"reference": str (1 to 64 characters),
    "amount": Decimal dollars with cents > 0, "to_reset": Decimal dollars with cents, 0 <= to_reset <= amount
    (0.00 when absent), "gaming_day": ISO date string, and "site_total": Decimal dollars with cents >= 0 when
    present}. Raises ValueError naming the field that is missing or wrong."""
    if not isinstance(body, dict):
        raise ValueError("the body is not an object")
    reference = body.get("reference")
    if not isinstance(reference, str | int) or isinstance(reference, bool) or not 1 <= len(str(reference)) <= 64:
        raise ValueError("reference: 1 to 64 characters")
    amount = _cents(body, "amount")
    to_reset = _cents({"to_reset": body.get("to_reset", "0.00")}, "to_reset")
    if amount <= 0:
        raise ValueError("amount: must be more than $0.00")
    if not ZERO <= to_reset <= amount:
        raise ValueError("to_reset: from $0.00 to the amount")
    day = body.get("gaming_day")
    try:
        date.fromisoformat(day if isinstance(day, str) else "")
    except ValueError:
        raise ValueError("gaming_day: a date (YYYY-MM-DD)") from None
    checked: dict[str, Any] = {"reference": str(reference), "amount": amount, "to_reset": to_reset,
                               "gaming_day": day}
    if "site_total" in body:
        total = _cents(body, "site_total")
        if total < 0:
            raise ValueError("site_total: must not be negative")
        checked["site_total"] = total
    return checked


def _cents(body: dict, field: str) -> Decimal:
    """`body[field]` as Decimal dollars: a string or an integer holding an amount in whole cents below
    `MAX_AMOUNT` either way (what a money column holds). Raises ValueError naming the field."""
    value = body.get(field)
    try:
        if isinstance(value, bool) or not isinstance(value, str | int):
            raise InvalidOperation
        amount = Decimal(value)
        if not amount.is_finite() or abs(amount) >= MAX_AMOUNT or amount != money(amount):
            raise InvalidOperation
    except (InvalidOperation, ValueError):
        raise ValueError(f"{field}: dollars and cents, as a string") from None
    return money(amount)
