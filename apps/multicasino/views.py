"""The multi-casino system's pages: the posting for patrons (14.20(d)1) and the status and host reports."""
from django.shortcuts import get_object_or_404, render

from apps.core.views import csv_response, page_access

from .models import BadBeatSystem
from .selectors import contributions_by_casino_and_day, recent_rejections, site_ledgers


def posting(request):
    """What each poker room posts: the payout information, every participating casino, the host's name and
    address (N.J.A.C. 13:69F-14.20(d)1)."""
    if denied := page_access(request, "multicasino.view_system"):
        return denied
    return render(request, "multicasino/posting.html", {"systems": BadBeatSystem.objects.prefetch_related("sites")})


def status(request):
    """Links and their status, and at the host the reconciliation of every site's ledger against the pool."""
    if denied := page_access(request, "multicasino.view_system"):
        return denied
    systems = [(s, site_ledgers(system=s), contributions_by_casino_and_day(system=s))
               for s in BadBeatSystem.objects.prefetch_related("sites")]
    return render(request, "multicasino/status.html", {"systems": systems, "rejections": recent_rejections(20)})


def contributions_csv(request, code: str):
    """At the host: contributions pooled by casino and gaming day, as CSV."""
    if denied := page_access(request, "multicasino.view_system"):
        return denied
    system = get_object_or_404(BadBeatSystem, code=code)
    response, writer = csv_response(f"{code}-contributions.csv")
    writer.writerow(["gaming_day", "casino", "contributions"])
    for row in contributions_by_casino_and_day(system=system):
        writer.writerow([row["gaming_day"], row["site__code"], row["total"]])
    return response
