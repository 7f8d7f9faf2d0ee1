"""Writes about casinos and staff."""
from django.contrib.auth.models import Group
from django.db import transaction

from apps.core.roles import Role

from .models import Casino, User


def ensure_role_groups() -> None:
    """Create one Django group per staff role (idempotent; runs after every migrate)."""
    for role in Role:
        Group.objects.get_or_create(name=role.value)


@transaction.atomic
def create_staff_member(*, casino: Casino, username: str, password: str, roles: list[Role],
                        first_name: str = "", last_name: str = "", license_number: str = "",
                        **profile) -> User:
    """Create (or update) a staff user of `casino` with exactly `roles`; `profile`: license_type, department,
    works_on_casino_floor, approved_count_witness."""
    ensure_role_groups()
    user, _ = User.objects.update_or_create(
        username=username,
        defaults={"casino": casino, "first_name": first_name, "last_name": last_name,
                  "license_number": license_number, "is_staff": Role.ADMIN in roles, **profile},
    )
    user.set_password(password)
    user.save()
    user.groups.set(Group.objects.filter(name__in=[r.value for r in roles]))
    return user
