from axes.admin import AccessAttemptAdmin, AccessFailureLogAdmin, AccessLogAdmin
from axes.models import AccessAttempt, AccessFailureLog, AccessLog
from django.contrib import admin, messages
from django.db.models import Model, QuerySet
from django.http import HttpRequest

from .models import SignInUnlock


class AppendOnlyAdmin(admin.ModelAdmin):
    """Admin for append-only records: they are read, never changed or deleted (a correction is a new row)."""

    def has_change_permission(self, request: HttpRequest, obj: Model | None = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Model | None = None) -> bool:
        return False


# Sign-in lockouts (django-axes): administrators see the attempts, the failures and the sign-ins, and unlock with an
# action that records who unlocked whom; nothing is deleted by hand (that would unlock without a record).
# (settings.AXES_ENABLE_ADMIN is off: these registrations replace axes' own.)
class AdministratorsOnly:
    """Visible to administrators (core.unlock_sign_in), read-only."""

    def has_module_permission(self, request: HttpRequest) -> bool:
        return request.user.has_perm("core.unlock_sign_in")

    def has_view_permission(self, request: HttpRequest, obj: Model | None = None) -> bool:
        return request.user.has_perm("core.unlock_sign_in")

    def has_add_permission(self, request: HttpRequest, obj: Model | None = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Model | None = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Model | None = None) -> bool:
        return False


class LockoutAttemptAdmin(AdministratorsOnly, AccessAttemptAdmin):
    actions = ["unlock"]

    @admin.action(description="Unlock: clear the failed sign-ins of these user names and addresses")
    def unlock(self, request: HttpRequest, queryset: QuerySet[AccessAttempt]) -> None:
        from .services import unlock_sign_in

        unlocks = unlock_sign_in(attempts=queryset, unlocked_by=request.user)
        names = ", ".join(" / ".join(filter(None, [u.username, u.ip_address])) for u in unlocks)
        self.message_user(request, f"Unlocked {names or 'nothing (already cleared)'}.", messages.SUCCESS)


class FailureLogAdmin(AdministratorsOnly, AccessFailureLogAdmin):
    pass


class SignInLogAdmin(AdministratorsOnly, AccessLogAdmin):
    pass


@admin.register(SignInUnlock)
class SignInUnlockAdmin(AdministratorsOnly, admin.ModelAdmin):
    list_display = ["created_at", "username", "ip_address", "failures", "last_failure_at", "unlocked_by"]
    search_fields = ["username", "ip_address"]


for model, model_admin in ((AccessAttempt, LockoutAttemptAdmin), (AccessFailureLog, FailureLogAdmin),
                           (AccessLog, SignInLogAdmin)):
    if admin.site.is_registered(model):
        admin.site.unregister(model)
    admin.site.register(model, model_admin)
