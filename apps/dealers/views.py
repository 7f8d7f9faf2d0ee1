"""The shift's dealer rotation on one page, and the supervisor's form to plan it."""
from datetime import timedelta

from django.contrib import messages
from django.shortcuts import redirect, render
from django.utils import timezone

from apps.casinos.selectors import requested_moment
from apps.core.exceptions import DomainError
from apps.core.policy import role_policy
from apps.core.views import add_domain_error

from .forms import RotationPlanForm
from .selectors import shift_schedule
from .services import plan_rotation


@role_policy(read="dealers.view_rotation", write="dealers.plan_rotation")
def rotation(request):
    """The shift's dealer rotation; supervisors and administrators plan it (POST). A refused plan comes back with
    each error beside its field (400) and nothing written."""
    casino = request.user.casino
    now = timezone.localtime(timezone.now(), casino.zone)
    start = requested_moment(casino=casino, text=request.GET.get("start")) or now.replace(minute=0, second=0,
                                                                                         microsecond=0)
    status = 200
    if request.method == "POST":
        form = RotationPlanForm(request.POST, casino=casino)
        if form.is_valid():
            data = form.cleaned_data
            try:
                plan_rotation(casino=casino, dealers=list(data["dealers"]), tables=list(data["tables"]),
                              start=data["start"], hours=data["hours"], down_minutes=data["down_minutes"],
                              planned_by=request.user)
            except DomainError as exc:
                add_domain_error(form, exc)
            else:
                messages.success(request, "Rotation planned.")
                return redirect(f"{request.path}?start={data['start']:%Y-%m-%dT%H:%M}")
        status = 400
    else:
        form = RotationPlanForm(casino=casino, initial={"start": f"{start:%Y-%m-%dT%H:%M}"})
        form.initial |= {"dealers": list(form.fields["dealers"].queryset), "tables": list(form.fields["tables"].queryset)}
    return render(request, "dealers/rotation.html", {
        "schedule": shift_schedule(casino=casino, start=start, end=start + timedelta(hours=12)), "start": start,
        "form": form}, status=status)  # its form shown to who may post it ({% may_post %})
