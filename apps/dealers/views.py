"""The shift's dealer rotation on one page, and the supervisor's form to plan it."""
from datetime import timedelta

from django.contrib import messages
from django.core.exceptions import BadRequest
from django.shortcuts import redirect, render
from django.utils import timezone

from apps.casinos.models import User
from apps.casinos.selectors import requested_moment
from apps.core.exceptions import DomainError
from apps.core.policy import role_policy
from apps.core.roles import Role
from apps.tables.models import PokerTable

from .selectors import shift_schedule
from .services import plan_rotation


@role_policy(read="dealers.view_rotation", write="dealers.plan_rotation")
def rotation(request):
    """The shift's dealer rotation; supervisors and administrators plan it (POST)."""
    casino = request.user.casino
    status = 200
    if request.method == "POST":
        try:
            start = requested_moment(casino=casino, text=request.POST.get("start", ""))
            hours, minutes = int(request.POST.get("hours", "8")), int(request.POST.get("down_minutes", "30"))
            if start is None:
                raise ValueError
        except (BadRequest, ValueError):
            messages.error(request, "Give a start time, hours and the length of a down.")
            status = 400
        else:
            dealers = list(User.objects.filter(casino=casino, pk__in=request.POST.getlist("dealers")).order_by("username"))
            tables = list(PokerTable.objects.filter(casino=casino, pk__in=request.POST.getlist("tables")))
            try:
                plan_rotation(casino=casino, dealers=dealers, tables=tables, start=start, hours=hours,
                              down_minutes=minutes, planned_by=request.user)
            except DomainError as exc:
                messages.error(request, exc.message)
                status = 400
            else:
                messages.success(request, "Rotation planned.")
                return redirect(f"{request.path}?start={start:%Y-%m-%dT%H:%M}")
    now = timezone.localtime(timezone.now(), casino.zone)
    start = requested_moment(casino=casino, text=request.GET.get("start")) or now.replace(minute=0, second=0,
                                                                                         microsecond=0)
    return render(request, "dealers/rotation.html", {
        "schedule": shift_schedule(casino=casino, start=start, end=start + timedelta(hours=12)), "start": start,
        "dealers": User.objects.filter(casino=casino, groups__name=Role.DEALER.value).order_by("username"),
        "tables": PokerTable.objects.filter(casino=casino, is_open=True).order_by("number"),
        "can_plan": request.user.has_perm("dealers.plan_rotation")}, status=status)
