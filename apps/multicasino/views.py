"""The multi-casino system's pages: the posting for patrons (14.20(d)1-information, 14.20(d)1-participants), the status
with claims and notices (14.20(e)4-document), and the host's reports by page, CSV and PDF."""
from django.contrib import messages
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string

from apps.core.exceptions import DomainError
from apps.core.policy import role_policy
from apps.core.spreadsheets import amount_cell
from apps.core.views import add_domain_error, csv_response, pdf_response

from . import selectors
from .forms import SystemRulesForm
from .models import BadBeatSystem, SystemRuleChange, UndeliveredNotice
from .services.claims import record_notice_delivered
from .services.rules import approve_system_rules, propose_system_rules


@role_policy(read="multicasino.view_system")
def posting(request):
    """What each poker room posts: the payout information, every participating casino, the host's name and
    address (N.J.A.C. 13:69F-14.20(d)1-information, 14.20(d)1-participants); the payouts listed are
    `selectors.posted_payouts`."""
    systems = [(s, selectors.posted_payouts(system=s)) for s in BadBeatSystem.objects.prefetch_related("sites")]
    return render(request, "multicasino/posting.html", {"systems": systems})


@role_policy(read="multicasino.view_system")
def status(request):
    """Links and their status, claims and notices, notices to deliver by other means, and at the host the
    reconciliation of every site's ledger against the pool."""
    may_approve = request.user.has_perm("multicasino.approve_rules")
    systems = []
    for s in BadBeatSystem.objects.prefetch_related("sites"):
        hosting = any(site.is_self and site.is_host for site in s.sites.all())
        systems.append({
            "system": s, "ledgers": selectors.site_ledgers(system=s), "claims": selectors.claims(system=s)[:20],
            "notices": selectors.notices(system=s), "undelivered": selectors.undelivered_notices(system=s),
            "hosting": hosting, "rule_changes": selectors.rule_changes(system=s),
            "rules_form": SystemRulesForm(initial={**s.posted_rules, "two_claims_rule": s.two_claims_rule},
                                          prefix=s.code) if hosting and may_approve else None})
    return render(request, "multicasino/status.html", {
        "systems": systems, "rejections": selectors.recent_rejections(20)})  # its forms: {% may_post %}


@role_policy(write="multicasino.approve_rules")
def propose_rules(request, code: str):
    """At the host: a designated key employee proposes a new rule set (14.20(c)1 with 14.19(q)-notice)."""
    system = get_object_or_404(BadBeatSystem, code=code)
    form = SystemRulesForm(request.POST, prefix=system.code)
    if form.is_valid():
        try:
            propose_system_rules(system=system, rules=form.rules(), proposed_by=request.user,
                                 effective_at=form.cleaned_data["effective_at"],
                                 two_claims_rule=form.cleaned_data["two_claims_rule"])
            messages.success(request, "The notice of the change is posted; every casino must approve it.")
            return redirect("multicasino:status")
        except DomainError as exc:
            add_domain_error(form, exc)
    return render(request, "multicasino/propose_rules.html", {"system": system, "form": form}, status=400)


@role_policy(write="multicasino.approve_rules")
def approve_rules(request, pk: int):
    """This casino's designated key employee approves a rule change (14.20(c)1)."""
    change = get_object_or_404(SystemRuleChange, pk=pk)
    try:
        approve_system_rules(change=change, user=request.user)
        messages.success(request, "Approved for this casino.")
    except DomainError as exc:
        messages.error(request, exc.message)
    return redirect("multicasino:status")


@role_policy(write="multicasino.record_notice_delivery")
def notice_delivered(request, pk: int):
    """Record that a notice a suspended casino did not receive was delivered by other means (14.20(e)4-notify)."""
    undelivered = get_object_or_404(UndeliveredNotice, pk=pk)
    try:
        record_notice_delivered(undelivered=undelivered, user=request.user, means=request.POST.get("means", ""))
        messages.success(request, f"Delivery to {undelivered.site.name} recorded.")
    except DomainError as exc:
        messages.error(request, exc.message)
    return redirect("multicasino:status")


@role_policy(read="multicasino.view_system")
def report(request, code: str, fmt: str = "html"):
    """The host's report: contributions by casino and gaming day, payouts with their documentation, reset
    amounts, the agreement's terms as set_up_system recorded them (how funds and fees are kept, who keeps the
    records), and every site's ledger reconciled against the host's — as a page, CSV or PDF."""
    system = get_object_or_404(BadBeatSystem, code=code)
    context = selectors.host_report(system=system)
    if fmt == "csv":
        return _report_csv(system, context)
    if fmt == "pdf":
        return pdf_response(render_to_string("multicasino/report_print.html", context, request=request),
                            f"{code}-report.pdf")
    return render(request, "multicasino/report.html", context)


def _report_csv(system: BadBeatSystem, context: dict):
    response, writer = csv_response(f"{system.code}-report.csv")
    writer.writerow(["section", "gaming_day_or_time", "casino", "amount", "detail"])
    for row in context["by_day"]:
        writer.writerow(["contributions", row["gaming_day"], row["site__code"], amount_cell(row["total"]),
                         f"reset part {amount_cell(row['to_reset'])}"])
    for claim in context["payouts"]:
        writer.writerow(["payout", claim.paid_at.isoformat(), claim.site.code, amount_cell(claim.amount),
                         f"table {claim.table_number}; losing {claim.losing_hand} {claim.losing_cards}; winning "
                         f"{claim.winning_hand} {claim.winning_cards}; verified by {claim.verified_by}; authorised by "
                         f"{claim.authorised_by}; delivered by {claim.delivered_by}"])
    for movement in context["resets"]:
        writer.writerow(["reset_seed", movement.recorded_at.isoformat(), "", amount_cell(movement.amount),
                         f"after the payout of claim {movement.claim.reference} at {movement.claim.site.code}"])
    for ledger in context["ledgers"]:
        writer.writerow(["site_ledger", "", ledger.site.code, amount_cell(ledger.pooled),
                         f"site's own total {amount_cell(ledger.reported) or 'not reported'}; "
                         f"{'agree' if ledger.agrees else 'differ'}"])
    return response


@role_policy(read="multicasino.view_system")
def contributions_csv(request, code: str):
    """At the host: contributions pooled by casino and gaming day, as CSV."""
    system = get_object_or_404(BadBeatSystem, code=code)
    response, writer = csv_response(f"{code}-contributions.csv")
    writer.writerow(["gaming_day", "casino", "contributions"])
    for row in selectors.contributions_by_casino_and_day(system=system):
        writer.writerow([row["gaming_day"], row["site__code"], amount_cell(row["total"])])
    return response
