"""Display links in Django's admin site: administrators issue one (the add form, through services.issue_display_link)
and revoke the selected ones (an action, through services.revoke_display_link), both in the audit trail; a link is
never edited nor deleted by hand (a revoked row stays as the record of the screen)."""
from django import forms
from django.contrib import admin, messages
from django.utils.html import format_html

from apps.core.exceptions import DomainError

from .models import DisplayLink
from .selectors import screen_path
from .services import issue_display_link, revoke_display_link


class IssueLinkForm(forms.ModelForm):
    class Meta:
        model = DisplayLink
        fields = ["kind", "name", "location"]


@admin.register(DisplayLink)
class DisplayLinkAdmin(admin.ModelAdmin):
    list_display = ["name", "kind", "location", "casino", "issued_by", "issued_at", "last_seen_at", "revoked_at",
                    "revoked_by"]
    list_filter = ["kind", "casino"]
    search_fields = ["name", "location"]
    actions = ["revoke"]
    readonly_fields = ["casino", "kind", "name", "location", "issued_by", "issued_at", "last_seen_at", "revoked_at",
                       "revoked_by", "screen_link"]

    def get_queryset(self, request):
        """An administrator sees the links of their own casino (a superuser of no casino, every casino's)."""
        links = super().get_queryset(request).select_related("casino", "issued_by", "revoked_by")
        return links if request.user.casino_id is None and request.user.is_superuser else links.filter(
            casino_id=request.user.casino_id)

    def get_form(self, request, obj=None, change=False, **kwargs):
        if obj is None:
            kwargs["form"] = IssueLinkForm
        return super().get_form(request, obj, change=change, **kwargs)

    def get_fields(self, request, obj=None):
        return ["kind", "name", "location"] if obj is None else self.readonly_fields

    def get_readonly_fields(self, request, obj=None):
        return () if obj is None else self.readonly_fields

    def has_add_permission(self, request):
        """A link is of the administrator's casino: an account of no casino issues none."""
        return request.user.casino_id is not None and super().has_add_permission(request)

    def has_delete_permission(self, request, obj=None):
        return False

    @admin.display(description="Link of the screen")
    def screen_link(self, obj):
        """The path of the link's screen (on this site), to open on the screen; none once revoked."""
        if obj.revoked_at is not None:
            return "Revoked: this link opens nothing."
        path = screen_path(obj)
        return format_html('<a href="{}" target="_blank" rel="noopener">{}</a>', path, path)

    def save_model(self, request, obj, form, change):
        """Only the add form saves: the link is issued by the service (its secret, its audit trail, the check that
        the user may issue it); the admin site's add permission is the service's (screens.add_displaylink)."""
        if change:
            return
        issued = issue_display_link(casino=request.user.casino, kind=obj.kind, name=obj.name, location=obj.location,
                                    issued_by=request.user)
        obj.pk, obj.secret, obj.issued_at, obj.issued_by, obj.casino = (
            issued.pk, issued.secret, issued.issued_at, issued.issued_by, issued.casino)

    @admin.action(description="Revoke the selected display links (their screens stop at the next refresh)",
                  permissions=["change"])
    def revoke(self, request, queryset):
        done = 0
        for link in queryset.order_by("pk"):
            try:
                revoke_display_link(link=link, revoked_by=request.user)
            except DomainError as exc:
                self.message_user(request, f"{link.name}: {exc.message}", messages.ERROR)
            else:
                done += 1
        if done:
            self.message_user(request, f"{done} display link(s) revoked.", messages.SUCCESS)
