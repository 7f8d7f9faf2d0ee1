"""A casino's public feed in Django's admin site: an administrator turns the feed and page of their own casino on or
off (through services.set_published, in the audit trail); a row is never deleted (turning off is the record)."""
from django.contrib import admin

from .models import PublicFeed
from .services import set_published


@admin.register(PublicFeed)
class PublicFeedAdmin(admin.ModelAdmin):
    list_display = ["casino", "published", "changed_at", "changed_by"]
    list_filter = ["published"]
    fields = ["published", "changed_at", "changed_by"]
    readonly_fields = ["changed_at", "changed_by"]

    def get_queryset(self, request):
        """An administrator sees their own casino's row (a superuser of no casino, every casino's)."""
        feeds = super().get_queryset(request).select_related("casino", "changed_by")
        return feeds if request.user.casino_id is None and request.user.is_superuser else feeds.filter(
            casino_id=request.user.casino_id)

    def has_add_permission(self, request):
        """One row per casino, of the administrator's own casino."""
        casino_id = request.user.casino_id
        return (casino_id is not None and not PublicFeed.objects.filter(casino_id=casino_id).exists()
                and super().has_add_permission(request))

    def has_delete_permission(self, request, obj=None):
        return False

    def save_model(self, request, obj, form, change):
        """Saved by the service (its row lock, who and when, the check that the user may)."""
        casino = obj.casino if change else request.user.casino
        saved = set_published(casino=casino, published=obj.published, changed_by=request.user)
        obj.pk, obj.casino, obj.changed_at, obj.changed_by = saved.pk, saved.casino, saved.changed_at, saved.changed_by
