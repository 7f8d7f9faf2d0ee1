import rules

from apps.casinos.rules import is_admin, is_supervisor, readers

# 14.20(e)1-3, (f): everyone at a participating casino may read the system's status; links, keys and rules
# are configured by administrators (the system's key employees are given the admin role) in the admin site.
rules.add_perm("multicasino.view_system", readers)
rules.add_perm("multicasino.configure_system", is_admin)
# A notice a suspended casino did not receive is delivered by other means by a supervisor or an administrator,
# who records it (14.20(e)4.i).
rules.add_perm("multicasino.record_notice_delivery", is_supervisor | is_admin)


@rules.predicate
def holds_key_employee_license(user) -> bool:
    """Whether `user` holds a casino key employee license: with the poker shift supervisor role, a designated key
    employee who proposes and approves the system's rules for the casino (14.20(c)1, 14.20(f))."""
    return getattr(user, "license_type", "") == "casino_key_employee"


# A casino's designated key employee proposes (at the host) and approves rule changes (14.20(c)1): an
# administrator, or a poker shift supervisor holding a casino key employee license.
rules.add_perm("multicasino.approve_rules", is_admin | (is_supervisor & holds_key_employee_license))
