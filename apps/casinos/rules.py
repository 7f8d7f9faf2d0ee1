"""Role predicates shared by every app (django-rules)."""
import rules

from apps.core.roles import Role, holds_role

is_supervisor = holds_role(Role.POKER_SHIFT_SUPERVISOR.value)
is_floorperson = holds_role(Role.FLOORPERSON.value)
is_dealer = holds_role(Role.DEALER.value)
is_accounting = holds_role(Role.ACCOUNTING.value)
is_security = holds_role(Role.SECURITY.value)
is_surveillance = holds_role(Role.SURVEILLANCE.value)
is_admin = holds_role(Role.ADMIN.value) | rules.is_superuser


@rules.predicate
def works_at_object_casino(user, obj) -> bool:
    """True when `obj` (with casino_id or a table; None for a role-level check) is at the user's casino."""
    if obj is None or user.is_superuser:
        return True
    casino_id = getattr(obj, "casino_id", None)
    if casino_id is None and getattr(obj, "table", None) is not None:  # rounds, rake records, contributions
        casino_id = obj.table.casino_id
    return casino_id is not None and casino_id == user.casino_id


floor_staff = is_supervisor | is_floorperson | is_admin
readers = floor_staff | is_dealer | is_accounting | is_security | is_surveillance
# Every reader but the dealers reads the room's money: jackpot balances and reserves, rake records, time charges,
# display adjustments. A dealer collects the rake and the contribution of the rounds dealt (14.10(e)8, 9) and sees
# what patrons see (the displayed amount, 14.19(b)), never accounting's record (14.19(k)).
money_readers = floor_staff | is_accounting | is_security | is_surveillance

rules.add_perm("casinos.view_casino", readers)
