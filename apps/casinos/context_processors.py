def staff(request):
    """Expose the user's casino and role names to every template."""
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return {}
    return {"staff_casino": user.casino, "staff_roles": user.role_names()}
