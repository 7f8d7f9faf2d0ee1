"""Who may unlock a locked sign-in: administrators (the role, or a superuser)."""
import rules

from .roles import Role, holds_role

is_administrator = holds_role(Role.ADMIN.value) | rules.is_superuser

rules.add_perm("core.unlock_sign_in", is_administrator)
