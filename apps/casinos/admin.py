from django.contrib import admin
from django.contrib.auth.admin import UserAdmin

from apps.core.admin import AppendOnlyAdmin

from .models import Backfill, Casino, GamingDayClose, User


@admin.register(Casino)
class CasinoAdmin(admin.ModelAdmin):
    list_display = ["name", "code", "licensee", "time_zone", "gaming_day_starts_at", "went_live_on"]


@admin.register(GamingDayClose)
class GamingDayCloseAdmin(AppendOnlyAdmin):
    list_display = ["casino", "gaming_day", "closed_at", "closed_by", "backfill"]


@admin.register(Backfill)
class BackfillAdmin(AppendOnlyAdmin):
    list_display = ["casino", "started_at", "run_by", "source"]


@admin.register(User)
class StaffAdmin(UserAdmin):
    list_display = ["username", "first_name", "last_name", "casino", "is_active"]
    fieldsets = (*(UserAdmin.fieldsets or ()), ("Casino", {"fields": ("casino", "license_number")}))
