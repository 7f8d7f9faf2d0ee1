from django.contrib import admin
from django.contrib.auth.admin import UserAdmin

from .models import Casino, User


@admin.register(Casino)
class CasinoAdmin(admin.ModelAdmin):
    list_display = ["name", "code", "licensee", "time_zone", "gaming_day_starts_at"]


@admin.register(User)
class StaffAdmin(UserAdmin):
    list_display = ["username", "first_name", "last_name", "casino", "is_active"]
    fieldsets = UserAdmin.fieldsets + (("Casino", {"fields": ("casino", "license_number")}),)
