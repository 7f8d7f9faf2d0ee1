from django.contrib import admin

from apps.core.admin import AppendOnlyAdmin

from .models import BadBeatSystem, InboxMessage, Link, OutboxMessage, PoolEntry, RejectedMessage, Site


class AdminOnly(admin.ModelAdmin):
    """Links, keys and rules: administrators only (14.20(e)1-3); every change is in the audit trail."""

    def has_module_permission(self, request):
        return request.user.has_perm("multicasino.configure_system")

    def has_view_permission(self, request, obj=None):
        return request.user.has_perm("multicasino.configure_system")

    has_change_permission = has_add_permission = has_view_permission


@admin.register(BadBeatSystem)
class BadBeatSystemAdmin(AdminOnly):
    list_display = ["code", "name", "host_name", "pool", "rules_hash"]
    readonly_fields = ["rules_hash", "pool"]


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
