"""Count pages (N.J.A.C. 13:69F-14.19(d)-place, 14.19(e)-cashier-counts, 14.19(f)) and accounting's reconciliation
screen, forms and Master Game Report, as pages, PDF (weasyprint) and CSV (14.19(h)-reconcile, 14.19(h)-revenue,
14.19(k)-official-record)."""
from datetime import date, timedelta

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import Http404
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.utils.cache import patch_vary_headers
from django.utils.formats import date_format

from apps.casinos.models import GamingDayClose
from apps.casinos.selectors import current_gaming_day, requested_gaming_day
from apps.core.charts import chart_span, span_links
from apps.core.exceptions import AlreadyRecorded, DomainError
from apps.core.history import history_response, is_history_tab, requested_record, tabs
from apps.core.money import dollars
from apps.core.pagination import keyset_page
from apps.core.policy import role_policy
from apps.core.spreadsheets import amount_cell
from apps.core.views import add_domain_error, csv_response, pdf_response

from . import services
from .charts import contributions_against_counts_chart
from .forms import CombineForm, CountForm, ReceiptForm, VerifyAggregateForm
from .history import count_sources
from .selectors import (
    container_of,
    containers_awaiting_verification,
    containers_for_casino,
    containers_full,
    counts_for_gaming_day,
    master_game_report,
    match_forms,
    reconciliation_days,
)


def _day(request, value: str | None = None) -> date:
    """The gaming day `value` names (YYYY-MM-DD), today's when empty; BadRequest (400) for a day no record can
    have."""
    return requested_gaming_day(casino=request.user.casino, text=value)


@role_policy(read="counts.view_counts", write="counts.record_count")
def counts(request):
    """The gaming day's counts and forms, the tables whose contribution container is full to its posted capacity (a
    count due now, `containers_full`), and the form to record one (14.19(d)-place, 14.19(e)-cashier-counts,
    14.19(f)). `?tab=history` (with `&count=ID`, one count's) shows how each count and form of the day was recorded and
    each part received: who, when, what (apps.counts.history)."""
    casino = request.user.casino
    gaming_day = _day(request, request.GET.get("day"))
    if is_history_tab(request):
        return history_response(
            request, title=f"Bad beat counts — gaming day {date_format(gaming_day)}", record_label="Counts",
            what="the gaming day's counts and forms", keep=("day",),
            sources=count_sources(casino=casino, gaming_day=gaming_day, count_id=requested_record(request, "count")))
    form = CountForm(request.POST or None, casino=casino, request=request)
    to_confirm = None
    if request.method == "POST":
        if form.is_valid():
            data = form.cleaned_data
            try:
                count = services.record_count(
                    table=data["table"], method=data["method"], reason=data["reason"], counted_by=data["counted_by"],
                    witness=data["witness"], witness_kind=data["witness_kind"],
                    surveillance_recorded=data["surveillance_recorded"], transported_by=data["transported_by"],
                    amount=data["amount"], chips=form.chips(), recorded_by=request.user, signed_in_person=True,
                    variance_confirmed=form.variance_confirmed())
            except services.VarianceToConfirm as exc:  # nothing recorded: the page asks them to confirm it
                to_confirm = exc
                form.ask_to_confirm(exc.variance)
            except DomainError as exc:
                add_domain_error(form, exc)
            else:
                label = f"Form {count.serial_number}" if count.serial_number else "Count"
                if count.variance:
                    messages.warning(request, f"{label} recorded with a variance of {dollars(count.variance)}: "
                                              f"{dollars(count.amount)} counted, {dollars(count.expected)} recorded.")
                else:
                    messages.success(request, f"{label} recorded: {dollars(count.amount)} counted, "
                                              f"{dollars(count.expected)} recorded, variance {dollars(count.variance)}.")
                return redirect("counts:counts")
    return render(request, "counts/counts.html", {
        "gaming_day": gaming_day, "counts": counts_for_gaming_day(casino=casino, gaming_day=gaming_day),
        "form": form if request.user.has_perm("counts.record_count") else None, "to_confirm": to_confirm,
        "close": GamingDayClose.objects.filter(casino=casino, gaming_day=gaming_day).first(),
        "containers_full": containers_full(casino=casino), "tabs": tabs(request, "Counts", keep=("day",))},
        status=400 if request.method == "POST" else 200)


@role_policy(read="counts.view_reconciliation")
def reconciliation(request):
    """Accounting's screen: the last fourteen gaming days, each reconciled or with its variances (14.19(h)-reconcile)
    — a past day with no form and, once closed, no count variance says it has nothing to reconcile — and a chart of
    the contributions recorded against the counts over the last 30 or 90 gaming days (?span=,
    apps.core.charts.chart_span)."""
    casino = request.user.casino
    today = current_gaming_day(casino=casino)
    span = chart_span(request.GET.get("span"))
    days = [today - timedelta(days=i) for i in range(14)]
    closes = {c.gaming_day: c for c in GamingDayClose.objects.filter(casino=casino, gaming_day__in=days)}
    rows = reconciliation_days(casino=casino, days=days)
    for row in rows:
        row["close"] = closes.get(row["gaming_day"])
    return render(request, "counts/reconciliation.html", {
        "rows": rows, "today": today, "span": span, "span_links": span_links(request, days=span),
        "chart": contributions_against_counts_chart(casino=casino, end=today, days=span)})


@role_policy(read="counts.view_reconciliation", write="counts.reconcile")
def reconciliation_day(request, day: str):
    """One gaming day: the forms and which parts arrived; accounting enters the serials of the originals from
    the count room and the duplicates from the locked box, then reconciles (14.19(h)-reconcile)."""
    casino = request.user.casino
    gaming_day = _day(request, day)
    form = ReceiptForm(request.POST if request.POST.get("action") == "receive" else None)
    error = None
    if request.method == "POST":
        try:
            if request.POST.get("action") == "receive" and form.is_valid():
                serials = form.serials()
                for serial in serials:
                    services.receive_form_part(casino=casino, serial_number=serial, part=form.cleaned_data["part"],
                                               received_by=request.user)
                messages.success(request, f"{len(serials)} {form.cleaned_data['part']}(s) received.")
                return redirect("counts:reconciliation-day", day=gaming_day.isoformat())
            if request.POST.get("action") == "reconcile":
                rec = services.reconcile_gaming_day(casino=casino, gaming_day=gaming_day, reconciled_by=request.user)
                messages.success(request, f"Gaming day {date_format(gaming_day)}: {rec.get_status_display().lower()}.")
                return redirect("counts:reconciliation-day", day=gaming_day.isoformat())
        except ValidationError as exc:
            form.add_error(None, exc)
        except DomainError as exc:
            if exc.field == "serial_number":
                form.add_error("serial_numbers", exc.message)
            else:
                error = exc.message
    match = match_forms(casino=casino, gaming_day=gaming_day)
    report = master_game_report(casino=casino, gaming_day=gaming_day)
    return render(request, "counts/reconciliation_day.html", {
        "gaming_day": gaming_day, "match": match, "report": report, "form": form, "error": error,
        "ended": gaming_day < current_gaming_day(casino=casino)}, status=400 if request.method == "POST" else 200)


@role_policy(read="counts.view_reconciliation")
def master_game_report_view(request, day: str, fmt: str = "html"):
    """The Master Game Report of a gaming day, as a page, PDF or CSV (14.19(h)-revenue)."""
    casino = request.user.casino
    gaming_day = _day(request, day)
    report = master_game_report(casino=casino, gaming_day=gaming_day)
    if fmt == "csv":
        response, writer = csv_response(f"master-game-report-{gaming_day}.csv")
        writer.writerow(["gaming_day", "table", "game", "rounds", "rake", "time_charges", "form_adjustments",
                         "poker_revenue", "bad_beat_contributions", "counted", "count_variance"])
        for r in report.rows:  # a table not counted this day: its counted and variance cells empty
            writer.writerow([gaming_day, r.table_number, r.game, r.rounds, *map(amount_cell, (
                r.rake, r.time_charges, r.adjustments, r.revenue, r.contributions)),
                *((amount_cell(r.counted), amount_cell(r.count_variance)) if r.counts else ("", ""))])
        t = report.totals
        writer.writerow([gaming_day, "total", "", sum(r.rounds for r in report.rows), *map(amount_cell, (
            t["rake"], t["time_charges"], t["adjustments"], t["revenue"], t["contributions"], t["counted"],
            t["count_variance"]))])
        for c in report.corrections_made + report.corrections_of_this_day:
            writer.writerow([gaming_day, f"late correction recorded {c.gaming_day} for {c.corrects_gaming_day}",
                             c.table.number if c.table else "", c.kind, amount_cell(c.amount), c.reason])
        return response
    context = {"report": report, "gaming_day": gaming_day, "casino": casino}
    if fmt == "pdf":
        return pdf_response(render_to_string("counts/mgr_print.html", context, request=request),
                            f"master-game-report-{gaming_day}.pdf")
    return render(request, "counts/mgr.html", context)


@role_policy(read="counts.view_reconciliation")
def forms_export(request, day: str, fmt: str):
    """The day's Bad Beat Payout Contribution Forms (14.19(f)3-two-parts, 14.19(f)3-contents) as PDF or CSV, with the
    parts received."""
    casino = request.user.casino
    gaming_day = _day(request, day)
    match = match_forms(casino=casino, gaming_day=gaming_day)
    if fmt == "csv":
        response, writer = csv_response(f"bad-beat-forms-{gaming_day}.csv")
        writer.writerow(["serial_number", "gaming_day", "counted_at", "table", "reason", "chips", "amount",
                         "expected", "variance", "dealer", "witness", "witness_kind", "original_received",
                         "duplicate_received"])
        for f in match.forms:
            writer.writerow([f.serial_number, gaming_day, f.counted_at.isoformat(), f.table.number, f.reason,
                             " ".join(f"{n}x${d}" for d, n in f.chips.items()), amount_cell(f.amount),
                             amount_cell(f.expected), amount_cell(f.variance),
                             f.counted_by.username, f.witness.username, f.witness_kind,
                             f.serial_number in match.originals, f.serial_number in match.duplicates])
        return response
    return pdf_response(render_to_string("counts/forms_print.html", {"match": match, "gaming_day": gaming_day,
                                                                     "casino": casino}, request=request),
                        f"bad-beat-forms-{gaming_day}.pdf")


@role_policy(read="counts.view_counts", write="counts.combine_counts")
def containers(request):
    """Containers of combined counts (requirement 14.19(e)-aggregate): the counts made at closed tables that are in
    no container yet, with the form a poker shift supervisor records a locked container of their contents with (and
    the representative of security who carries it to the cage); the containers
    awaiting the cashier's verification at the cage (for htmx polling, that part alone); and every container, newest
    first in keyset pages. A refused container comes back (400) with the form as posted and the error beside its
    field."""
    casino = request.user.casino
    form = None  # offered to who may combine (a POST without the permission is refused before the view: 403)
    if request.method == "POST" or request.user.has_perm("counts.combine_counts"):
        form = CombineForm(request.POST if request.method == "POST" else None, casino=casino)
    if request.method == "POST" and form is not None and form.is_valid():
        try:
            container = services.combine_counts(
                casino=casino, count_ids=[c.pk for c in form.cleaned_data["counts"]], combined_by=request.user,
                transported_by=form.cleaned_data["transported_by"])
        except DomainError as exc:
            add_domain_error(form, exc)
        else:
            messages.success(request, f"Container {container.pk} recorded: {container.entries.count()} count(s), "
                                      f"aggregate {dollars(container.aggregate)}, for the cashier to verify at the cage.")
            return redirect("counts:container", pk=container.pk)
    awaiting = containers_awaiting_verification(casino=casino)
    if request.htmx and request.method == "GET":
        response = render(request, "counts/_containers_awaiting.html", {"awaiting": awaiting})
    else:
        response = render(request, "counts/containers.html", {
            "form": form, "awaiting": awaiting,
            "page": keyset_page(request, containers_for_casino(casino=casino), ordering=("-sealed_at", "-id"),
                                page_size=25)}, status=400 if request.method == "POST" else 200)
    patch_vary_headers(response, ("HX-Request",))  # caches must not mix page and partial
    return response


@role_policy(read="counts.view_counts", write="counts.verify_aggregate_count")
def container(request, pk: int):
    """One container of combined counts: its counts, its aggregate and the cashier's verification; accounting (the
    cage cashier) records the amount counted at the cage, verifying the aggregate count (requirement
    14.19(e)-aggregate). An amount that differs from the aggregate comes back (400, nothing recorded) asking to
    confirm the variance; confirmed, it is recorded with it."""
    found = container_of(casino=request.user.casino, pk=pk)
    if found is None:
        raise Http404("No such container at this casino.")
    form = VerifyAggregateForm(request.POST if request.method == "POST" else None)
    to_confirm, refused = None, None
    if request.method == "POST" and form.is_valid():
        try:
            verification = services.verify_aggregate_count(
                container=found, amount=form.cleaned_data["amount"], verified_by=request.user,
                variance_confirmed=form.variance_confirmed())
        except services.AggregateVarianceToConfirm as exc:  # nothing recorded: the page asks to confirm it
            to_confirm = exc
            form.ask_to_confirm(exc.variance)
        except AlreadyRecorded as exc:  # verified meanwhile: the page shows that verification
            refused = exc.message
        except DomainError as exc:
            add_domain_error(form, exc)
        else:
            text = (f"Container {found.pk} verified: {dollars(verification.amount)} counted at the cage, aggregate "
                    f"{dollars(found.aggregate)}, variance {dollars(verification.variance)}.")
            (messages.warning if verification.variance else messages.success)(request, text)
            return redirect("counts:container", pk=found.pk)
    if refused:
        found = container_of(casino=request.user.casino, pk=pk) or found
    verified = getattr(found, "verification", None)  # none yet: the reverse one-to-one's AttributeError
    return render(request, "counts/container.html", {
        "container": found, "verification": verified, "form": None if verified else form,
        "to_confirm": to_confirm, "refused": refused}, status=400 if request.method == "POST" else 200)
