from django.contrib import admin


class AppendOnlyAdmin(admin.ModelAdmin):
    """Admin for append-only records: they are read, never changed or deleted (a correction is a new row)."""

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False
