from apps.core.roles import role_label


def staff(request):
    """Expose the user's casino and roles to every template: `staff_roles`, the roles' labels as people read them
    ("Poker shift supervisor"), for the header's chip and the 403 page."""
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return {}
    return {"staff_casino": user.casino, "staff_roles": [role_label(name) for name in user.role_names()]}
