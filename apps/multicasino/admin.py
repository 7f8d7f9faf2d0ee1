from django.contrib import admin

from apps.core.admin import AppendOnlyAdmin

from .models import BadBeatSystem, InboxMessage, Link, OutboxMessage, PoolEntry, RejectedMessage, Site


class AdminOnly(admin.ModelAdmin):
    """Links, keys and rules: administrators only (14.20(e)1, 14.20(e)3); every change is in the audit trail."""

    def has_module_permission(self, request):
        return request.user.has_perm("multicasino.configure_system")

    def has_view_permission(self, request, obj=None):
        return request.user.has_perm("multicasino.configure_system")

    has_change_permission = has_add_permission = has_view_permission


class CasinoRolesInline(admin.StackedInline):
    """Each participating casino's role, authority and responsibilities in the conduct of the multi-casino bad beat
    payout, as the system agreement describes them (N.J.A.C. 13:69F-14.20(c)), recorded and changed with the
    agreement's other terms ((c)1-3) by administrators only; each text is optional here (an agreement recorded
    before them stays valid) and at most its field's length (role 200, authority and responsibilities 2,000
    characters; longer is an error on that field). Casinos are added and configured on their own page (SiteAdmin).
    Every change is in the audit trail (SiteEvent)."""

    model = Site
    fields = ["name", "is_host", "role", "authority", "responsibilities"]
    readonly_fields = ["name", "is_host"]
    extra = 0
    can_delete = False
    verbose_name = "participating casino's role, authority and responsibilities (14.20(c))"
    verbose_name_plural = "participating casinos' roles, authority and responsibilities (14.20(c))"

    def has_view_permission(self, request, obj=None):
        return request.user.has_perm("multicasino.configure_system")

    has_change_permission = has_view_permission

    def has_add_permission(self, request, obj=None):
        return False


@admin.register(BadBeatSystem)
class BadBeatSystemAdmin(AdminOnly):
    list_display = ["code", "name", "host_name", "pool", "rules_hash"]
    readonly_fields = ["rules_hash", "pool"]
    inlines = [CasinoRolesInline]


@admin.register(Site)
class SiteAdmin(AdminOnly):
    list_display = ["system", "code", "name", "is_host", "is_self", "status", "last_heard_at"]
    readonly_fields = ["status", "status_reason", "status_changed_at", "last_heard_at", "reported_rules_hash",
                       "reported_total"]


@admin.register(Link)
class LinkAdmin(AdminOnly):
    list_display = ["peer", "keys_fingerprint", "next_out_sequence", "next_in_sequence"]
    readonly_fields = ["keys_fingerprint"]


for model in (OutboxMessage, InboxMessage, RejectedMessage, PoolEntry):
    admin.site.register(model, type(f"{model.__name__}Admin", (AppendOnlyAdmin,), {}))
