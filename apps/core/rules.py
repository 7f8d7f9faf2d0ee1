"""Who may unlock a locked sign-in: administrators (the role, or a superuser); to whom the header offers the API's
documentation."""
import rules

from .roles import Role, holds_role

is_administrator = holds_role(Role.ADMIN.value) | rules.is_superuser

rules.add_perm("core.unlock_sign_in", is_administrator)

# The API's documentation (open to any signed-in user, who reads it with a token of their own) is offered in the
# header to the roles that work with the API: the poker shift supervisor and accounting, who read and export the
# room's records through it, and administrators, who connect the room's systems to it (apps.core.navigation).
rules.add_perm("core.use_api", holds_role(Role.POKER_SHIFT_SUPERVISOR.value) | holds_role(Role.ACCOUNTING.value)
               | is_administrator)
