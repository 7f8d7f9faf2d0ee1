"""Bad beat pages: the room's display, the posted rules, claims and their verification, payouts and the
accounting display adjustment (N.J.A.C. 13:69F-14.19)."""
from datetime import timedelta
from functools import wraps

from django.contrib import messages
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.cache import patch_vary_headers
from django.utils.formats import date_format

from apps.casinos.selectors import current_gaming_day
from apps.core.exceptions import DomainError
from apps.core.history import history_page, history_response, is_history_tab, requested_record, tabs
from apps.core.pagination import keyset_page
from apps.core.policy import role_policy
from apps.core.rotation import STOP_POLLING, tick_of
from apps.core.views import add_domain_error, may_access
from apps.rounds.models import RoundOfPlay

from . import services
from .display import jackpot_screen
from .forms import DisplayAdjustmentForm, OpenClaimForm, PayoutForm, RejectForm, RuleChangeForm, VerifyForm
from .history import claim_sources, rule_change_sources
from .models import Claim, ClaimStatus, DisplayReason, RuleChange, RuleChangeStatus
from .previews import payment_preview, verification_preview, written_fingerprint
from .selectors import (
    AdjustmentUponVerification,
    claims_for_casino,
    display_rows,
    displays_to_adjust_upon_verification,
    live_jackpots,
    open_notifications,
    payable_amount,
    posted_notices,
    round_seats,
    rule_history,
)


def _poll_keeps_to_the_screen(view):
    """A poll of the staff display (htmx) by a browser whose session has ended, or whose user may no longer read the
    display, is answered with a notice in place of the panels and stops polling (STOP_POLLING), never with the
    sign-in page swapped into the screen or a stale amount left up (14.19(k)2). A page load goes on to the view's
    role policy as always (sign in, or 403). Keeps the view's declared policy (functools.wraps copies it)."""
    @wraps(view)
    def guarded(request, *args, **kwargs):
        if request.htmx and not may_access(request.user, "badbeat.view_jackpot"):
            signed_in = request.user.is_authenticated
            response = render(request, "screens/_stopped.html", {
                "heading": "This display stopped" if signed_in else "Signed out: this display stopped",
                "message": ("The jackpot display is not for this account's role." if signed_in else
                            "The staff session of this screen ended. Sign in again, or open the screen with a "
                            "display link, which needs no sign-in.")}, status=STOP_POLLING)
            patch_vary_headers(response, ("HX-Request",))
            return response
        return view(request, *args, **kwargs)
    return guarded


@_poll_keeps_to_the_screen
@role_policy(read="badbeat.view_jackpot")
def display(request):
    """The jackpot display for the room's screens, at a staff session (display links open the same screen with no
    session: apps.screens): large type, whole dollars, refreshed every two seconds by htmx; shows "payout pending"
    as soon as a claim is verified (14.19(i)1), the qualifying requirements and shares (14.19(b)3-posted) and the
    posted notices of changes (14.19(q)-notice); fits the screen, turning pages when more payouts are offered
    (apps.badbeat.display). A poll after the session ended stops with a notice (_poll_keeps_to_the_screen)."""
    context = jackpot_screen(casino=request.user.casino, tick=tick_of(request)) | {
        "poll_url": reverse("badbeat:display")}
    response = render(request, "badbeat/_display.html" if request.htmx else "badbeat/display.html", context)
    patch_vary_headers(response, ("HX-Request",))
    return response


@role_policy(read="badbeat.view_jackpot", write="badbeat.change_rules")
def posted_rules(request):
    """The posted bad beat payout rules (14.19(b)1-posted, 14.19(b)2-posted, 14.19(b)3-posted, 14.19(b)4, 14.19(n),
    14.19(p)-posted), read by every role, with the notices of coming changes and their history (`_rules_page`);
    supervisors and administrators are offered the form that posts a change, which a POST is (`_post_rule_change`).
    The payable amount and the reset reserve are accounting's record (14.19(k)-official-record): shown to those who
    may read it (not dealers). A POST posts a notice of change (14.19(q)-notice)."""
    if request.method == "POST":
        return _post_rule_change(request)
    return _rules_page(request, form=_change_form(request), status=200)


def _change_form(request) -> RuleChangeForm | None:
    """The form that posts a notice of change on the rules page, for those who may post one (14.19(q)-notice):
    poker shift supervisors and administrators; None for the others."""
    return RuleChangeForm(casino=request.user.casino) if request.user.has_perm("badbeat.change_rules") else None


def _post_rule_change(request):
    """A notice of a change to the posted rules, posted from the rules page (14.19(q)-notice): the page again with
    the form's errors (400) when the change is refused, else back to the page with the notice posted."""
    form = RuleChangeForm(request.POST, casino=request.user.casino)
    if form.is_valid():
        try:
            change = services.propose_rule_change(jackpot=form.cleaned_data["jackpot"], changes=form.changes(),
                                                  effective_at=form.cleaned_data["effective_at"],
                                                  proposed_by=request.user, summary=form.cleaned_data["summary"])
        except DomainError as exc:
            add_domain_error(form, exc)
        except ValidationError as exc:  # e.g. letters where a whole number is wanted
            form.add_error(None, exc)
        else:
            messages.success(request, f"Notice posted: {change.summary} Takes effect "
                                      f"{date_format(timezone.localtime(change.effective_at), 'DATETIME_FORMAT')}.")
            return redirect("badbeat:rules")
    return _rules_page(request, form=form, status=400)


#: How long a failed rule change stays in the notice to supervisors and administrators on the rules page.
FAILED_NOTICE_DAYS = 7


def _rules_page(request, *, form, status: int, error: str | None = None):
    """The posted rules page: each payout's rules, the notices and their history (scheduled changes with a
    withdraw button for those who may propose one; failed ones with their reason) and, for supervisors and
    administrators, a notice of the changes that failed to take effect lately (14.19(q)-notice). `?tab=history` (with
    `&change=ID`, one notice's) shows the rule changes' history: who changed what, when, from what to what."""
    casino = request.user.casino
    if is_history_tab(request):  # who posted, withdrew or put into effect each notice, from what to what
        return history_response(
            request, title="Bad beat payout rules", record_label="Rules", what="the notices of rule changes",
            sources=rule_change_sources(casino=casino, change_id=requested_record(request, "change")))
    jackpots = list(live_jackpots(casino=casino).select_related("primary"))
    history = list(rule_history(casino=casino).select_related("withdrawn_by")[:50])
    since = timezone.now() - timedelta(days=FAILED_NOTICE_DAYS)
    failed = [c for c in history if c.status == RuleChangeStatus.FAILED and c.failed_at and c.failed_at >= since]
    return render(request, "badbeat/rules.html", {
        "jackpots": [(j, payable_amount(jackpot=j)) for j in jackpots], "notices": posted_notices(casino=casino),
        "history": history, "form": form, "failed": failed if form else [],  # its forms: {% may_post %}
        "withdraw_error": error, "reads_balance": request.user.has_perm("badbeat.view_balance"),
        "tabs": tabs(request, "Rules", path=reverse("badbeat:rules"))}, status=status)


@role_policy(write="badbeat.change_rules")
def withdraw_rule_change(request, pk: int):
    """Withdraw a notice of change not yet in effect, from the rules page (14.19(q)-notice): a POST from the row's
    confirmation (`confirm=yes`), by a poker shift supervisor or an administrator of the casino (others: 403). A
    change that is not scheduled, or a POST without the confirmation, answers the page with the error (400)."""
    change = get_object_or_404(RuleChange.objects.select_related("jackpot"), pk=pk, jackpot__casino=request.user.casino)
    if not request.user.has_perm("badbeat.change_rules", change.jackpot):
        raise PermissionDenied
    if request.POST.get("confirm") != "yes":
        error = "Confirm the withdrawal with the button under “Withdraw…”."
    else:
        try:
            services.withdraw_rule_change(change=change, withdrawn_by=request.user)
        except DomainError as exc:
            error = exc.message
        else:
            messages.success(request, f"Notice withdrawn: {change.summary}")
            return redirect("badbeat:rules")
    return _rules_page(request, form=RuleChangeForm(casino=request.user.casino), status=400,
                       error=f"Rule change {change.pk} was not withdrawn: {error}")


@role_policy(read="badbeat.view_claim", write="badbeat.verify_claim")
def claim_list(request):
    """Claims of the casino, newest first; a supervisor opens a claim on a recorded round (14.19(i))."""
    casino = request.user.casino
    form = OpenClaimForm(request.POST or None, casino=casino)
    if request.method == "POST":
        if form.is_valid():
            round_of_play = RoundOfPlay.objects.filter(pk=form.cleaned_data["round_of_play"],
                                                       table__casino=casino).select_related("table").first()
            if round_of_play is None:
                form.add_error("round_of_play", "No round of play with that number at this casino.")
            else:
                try:
                    claim = services.open_claim(jackpot=form.cleaned_data["jackpot"], round_of_play=round_of_play,
                                                opened_by=request.user)
                except DomainError as exc:
                    add_domain_error(form, exc)
                else:
                    return redirect("badbeat:claim", pk=claim.pk)
    return render(request, "badbeat/claims.html", {
        "claims": keyset_page(request, claims_for_casino(casino=casino), ordering=("-id",)), "form": form,
        "notifications": open_notifications(casino=casino)}, status=400 if request.method == "POST" else 200)


class FiguresChanged(Exception):
    """The amount or the shares written are not those the person confirmed: the decision is rolled back."""


FIGURES_CHANGED = ("The amounts changed since the page was shown: nothing was written. Check the amount and the shares "
                   "shown now and confirm again.")
#: The permission each action on a claim needs (the claim's jackpot as the object).
CLAIM_ACTIONS = {"verify": "badbeat.verify_claim", "reject": "badbeat.verify_claim", "payout": "badbeat.record_payout"}


@role_policy(read="badbeat.view_claim", write="badbeat.act_on_claim")
def claim_detail(request, pk: int):
    """A claim with the cards and the engine's verdict: the checks, the losing and winning hands as ranked and
    which cards played; the supervisor verifies or rejects it (14.19(i)); security or accounting records the payout
    (14.19(i)2, (j)). Each decision is confirmed: the page shows the amount and each player's share it pays
    (apps.badbeat.previews) and the form is written only with its "I have checked" box ticked, and only if the
    figures written are those shown (else it is rolled back and the page shows the new ones); a rejection says why.
    A POST whose action the user may not take (or no action) is refused: 403. `?tab=history` shows the claim's
    history (who changed what, when, from what to what; read-only)."""
    casino = request.user.casino
    claim = get_object_or_404(Claim.objects.select_related("jackpot__primary", "round_of_play__table", "decided_by"),
                              pk=pk, jackpot__casino=casino)
    action = request.POST.get("action", "") if request.method == "POST" else ""
    verify_form = VerifyForm(request.POST if action == "verify" else None, auto_id="verify-%s")
    reject_form = RejectForm(request.POST if action == "reject" else None, auto_id="reject-%s")
    payout_form = PayoutForm(request.POST if action == "payout" else None, casino=casino)
    posted = {"verify": verify_form, "reject": reject_form, "payout": payout_form}.get(action)
    if request.method == "POST":
        needed = CLAIM_ACTIONS.get(action)
        if needed is None or posted is None or not request.user.has_perm(needed, claim.jackpot):
            raise PermissionDenied
        form = posted
        if form.is_valid():
            try:
                with transaction.atomic():
                    done = _decide(request, claim, action, form)
            except DomainError as exc:
                add_domain_error(form, exc)
            except FiguresChanged:
                form.add_error("confirm", FIGURES_CHANGED)
            else:
                messages.success(request, done)
                return redirect("badbeat:claim", pk=claim.pk)
        claim.refresh_from_db()
    may_verify = request.user.has_perm("badbeat.verify_claim", claim.jackpot) and claim.status == ClaimStatus.PENDING
    may_pay = request.user.has_perm("badbeat.record_payout", claim.jackpot) and claim.status == ClaimStatus.VERIFIED
    shown = may_pay if action == "payout" else may_verify
    error = None
    if posted is not None and not shown:  # the form is gone from the page: say why here
        error = " ".join(map(str, posted.non_field_errors())) or (
            f"Nothing was written: this claim is {claim.get_status_display().lower()}.")
    history_tab = is_history_tab(request)
    board, seats = round_seats(round_of_play=claim.round_of_play)
    return render(request, "badbeat/claim.html", {
        "claim": claim, "seats": seats, "board": " ".join(map(str, board)),
        "evaluation": claim.evaluation, "shares": claim.shares.all(), "payout": getattr(claim, "payout", None),
        "verify_form": verify_form, "reject_form": reject_form, "payout_form": payout_form, "error": error,
        "may_verify": may_verify, "may_pay": may_pay,
        "verify_preview": verification_preview(claim=claim) if may_verify and not history_tab else None,
        "payment_preview": payment_preview(claim=claim) if may_pay and not history_tab else None,
        "tab": "history" if history_tab else "claim", "tabs": tabs(request, "Claim"),
        "history": history_page(request, claim_sources(claim=claim)) if history_tab else None,
    }, status=400 if request.method == "POST" else 200)


def _decide(request, claim: Claim, action: str, form) -> str:
    """Take a confirmed decision on a claim, in the caller's transaction; returns the message to show. Raises
    FiguresChanged when the amount or the shares are not those the person confirmed (the fingerprint posted back
    from the page, `checked`), so that the caller's transaction rolls the decision back; DomainError from the
    services."""
    checked = form.cleaned_data["checked"]
    if action == "reject":
        services.reject_claim(claim=claim, supervisor=request.user, note=form.cleaned_data["note"])
        return "Claim rejected; nothing is paid."
    if action == "verify":
        preview = verification_preview(claim=claim)
        if preview is not None and preview.fingerprint != checked:
            raise FiguresChanged
        verified = services.verify_claim(claim=claim, supervisor=request.user)
        if preview is not None and not preview.decided_elsewhere and written_fingerprint(verified) != checked:
            raise FiguresChanged
        return ("Verified: the display shows the payout pending; security and accounting are notified to deliver it, "
                "and accounting to adjust the display now.")
    preview = payment_preview(claim=claim)
    if preview is not None and preview.fingerprint != checked:
        raise FiguresChanged
    services.record_payout(claim=claim, recorded_by=request.user, **form.payout())
    if preview is not None and written_fingerprint(claim) != checked:
        raise FiguresChanged
    return "Payout recorded."


@role_policy(read="badbeat.view_display_adjustments", write="badbeat.adjust_display")
def adjust_display(request):
    """Accounting adjusts the displayed amounts in a poker supervisor's presence and the app checks them
    against accounting's record (14.19(k)1); never lower unless paid (14.19(o)). Both sign in person: the accounting
    representative submitting with their password, the poker supervisor present (chosen) with theirs; a wrong one
    is an error beside its field and nothing is written (14.19(k)1). The page shows accounting's record and the
    adjustments: not for dealers (403). First come the displays still to adjust upon a supervisor's verification of a
    bad beat (14.19(k)-upon-verification, `displays_to_adjust_upon_verification`): which display, which claim,
    verified when, by whom and how long ago; the form is then pre-set to the reason "after a verified bad beat" and
    to one of those displays (`_upon_verification_initial`)."""
    casino = request.user.casino
    may_adjust = request.user.has_perm("badbeat.adjust_display")
    awaited = displays_to_adjust_upon_verification(casino=casino)
    form = DisplayAdjustmentForm(request.POST or None, casino=casino, user=request.user, request=request,
                                 initial=_upon_verification_initial(request, awaited))
    if request.method == "POST":
        if form.is_valid():
            try:
                services.adjust_display(adjusted_by=request.user, **form.adjustment())
            except DomainError as exc:
                add_domain_error(form, exc)
            else:
                messages.success(request, "Display adjusted and verified against accounting's record.")
                return redirect("badbeat:adjust-display")
    rows = display_rows(casino=casino, gaming_day=current_gaming_day(casino=casino))
    history = [a for row in rows for a in row.jackpot.display_adjustments.select_related(
        "adjusted_by", "supervisor_present")[:10]]
    return render(request, "badbeat/adjust_display.html",
                  {"rows": rows, "form": form if may_adjust else None, "awaited": awaited,
                   "history": sorted(history, key=lambda a: a.created_at, reverse=True)},
                  status=400 if request.method == "POST" else 200)


def _upon_verification_initial(request, awaited: list[AdjustmentUponVerification]) -> dict:
    """The display adjustment form's initial values while a verified bad beat awaits the adjustment of a display
    (14.19(k)-upon-verification): the reason "after a verified bad beat" and that display — the one `?jackpot=ID`
    names among them, else the newest verification's; {} when none awaits (the form's defaults)."""
    if not awaited:
        return {}
    chosen = next((item.jackpot for item in awaited if str(item.jackpot.pk) == request.GET.get("jackpot")),
                  awaited[0].jackpot)
    return {"reason": DisplayReason.AFTER_VERIFICATION, "jackpot": chosen.pk}
