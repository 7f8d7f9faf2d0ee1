from django.contrib import admin

from .models import ImportJob


@admin.register(ImportJob)
class ImportJobAdmin(admin.ModelAdmin):
    list_display = ["id", "casino", "name", "hands", "processed", "status", "created_at", "finished_at"]
    list_filter = ["status", "casino"]
    readonly_fields = [f.name for f in ImportJob._meta.fields]
    exclude = ["text"]

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False
