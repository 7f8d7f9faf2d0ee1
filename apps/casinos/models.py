from datetime import date, time
from zoneinfo import ZoneInfo, available_timezones

import pgtrigger
from django.contrib.auth.models import AbstractUser
from django.core.exceptions import ValidationError
from django.db import models
from django.utils import timezone
from django.utils.functional import cached_property


def validate_time_zone(value: str) -> None:
    if value not in available_timezones():
        raise ValidationError(f"Unknown time zone {value!r}; use an IANA name such as America/New_York.")


class Casino(models.Model):
    """A casino licensee's poker room; each runs its own deployment (one may host a shared jackpot)."""

    code = models.SlugField(max_length=32, unique=True)
    name = models.CharField(max_length=120)
    licensee = models.CharField(max_length=200, help_text="The casino licensee, as licensed by the Commission.")
    address = models.CharField(max_length=300, blank=True)
    time_zone = models.CharField(max_length=64, default="America/New_York", validators=[validate_time_zone])
    gaming_day_starts_at = models.TimeField(default=time(6, 0), help_text="Local wall-clock time the gaming day starts.")
    records_kept_since = models.DateField(
        default=date(2000, 1, 1),
        help_text="The first gaming day the room keeps records of: nothing dated before it is recorded.")
    went_live_on = models.DateField(
        null=True, blank=True,
        help_text="The first gaming day this deployment recorded live. The close job closes every ended gaming day "
                  "from it on; empty: the first gaming day that holds a live record (not a backfill's).")

    class Meta:
        ordering = ["name"]

    def __str__(self) -> str:
        return self.name

    @property
    def zone(self) -> ZoneInfo:
        return ZoneInfo(self.time_zone)


class LicenseType(models.TextChoices):
    """The Commission's licenses a member of staff may hold."""

    CASINO_KEY_EMPLOYEE = "casino_key_employee", "Casino key employee license"
    CASINO = "casino", "Casino license"
    CASINO_EMPLOYEE = "casino_employee", "Casino employee license"
    NONE = "none", "No license"


class Department(models.TextChoices):
    POKER = "poker", "Poker"
    TABLE_GAMES = "table_games", "Table games"
    SECURITY = "security", "Security"
    SURVEILLANCE = "surveillance", "Surveillance"
    INTERNAL_AUDIT = "internal_audit", "Internal audit"
    ACCOUNTING = "accounting", "Accounting"
    CAGE = "cage", "Cashiers' cage"
    SLOTS = "slots", "Slot operations"
    OTHER = "other", "Other"


class User(AbstractUser):
    """A member of staff. Roles are Django groups named after apps.core.roles.Role."""

    casino = models.ForeignKey(Casino, on_delete=models.PROTECT, null=True, blank=True, related_name="staff")
    license_number = models.CharField(max_length=40, blank=True, help_text="Casino (key) employee license number.")
    license_type = models.CharField(max_length=24, choices=LicenseType.choices, default=LicenseType.CASINO_EMPLOYEE)
    department = models.CharField(max_length=16, choices=Department.choices, default=Department.POKER)
    works_on_casino_floor = models.BooleanField(default=True, help_text="The position requires presence on the "
                                                "casino floor (N.J.A.C. 13:69F-14.19(f)2.i).")
    approved_count_witness = models.BooleanField(default=False, help_text="Identified in the approved internal "
                                                 "controls as a witness of bad beat counts (14.19(f)2.ii).")

    def role_names(self) -> list[str]:
        return sorted(self.groups.values_list("name", flat=True))

    @cached_property
    def role_set(self) -> frozenset[str]:
        """The names of the user's roles (their groups), read once for this user object: what the role predicates
        (apps.core.roles.holds_role) check on every request. API token authentication sets it from the query that
        reads the token (apps.core.authentication)."""
        return frozenset(self.groups.values_list("name", flat=True))

    def has_role(self, *roles: str) -> bool:
        return self.groups.filter(name__in=[str(r) for r in roles]).exists()


class GamingDay(models.Model):
    """A casino's gaming day as the writes of money see it: the row they lock, and who filled it.

    Money goes only into a casino's *open* gaming days: the current one and, until it is closed, the previous one
    (`apps.casinos.services.hold_open_gaming_days`). Every write that changes a gaming day's money holds this row
    with a share lock in its transaction; closing takes it exclusively, marks `closed_at` and writes the day's
    GamingDayClose, so it waits for writes in flight and no write lands in a day after it closed. `closed_at` is only
    the mark a waiting write sees; the close record, which the app's database login cannot change or delete, is what
    keeps a day closed. `backfill`: the administrator's backfill that filled this past day (empty for a live day).
    """

    casino = models.ForeignKey(Casino, on_delete=models.PROTECT, related_name="gaming_days")
    gaming_day = models.DateField()
    closed_at = models.DateTimeField(null=True, blank=True,
                                     help_text="Set when the day closes (GamingDayClose is the record of it).")
    backfill = models.ForeignKey("Backfill", on_delete=models.PROTECT, null=True, blank=True, related_name="days")

    class Meta:
        ordering = ["casino", "-gaming_day"]
        constraints = [models.UniqueConstraint(fields=["casino", "gaming_day"], name="one_gaming_day_row")]

    def __str__(self) -> str:
        return f"{self.casino} {self.gaming_day}{' (closed)' if self.closed_at else ''}"


class Backfill(models.Model):
    """An administrator's backfill of historic records into past gaming days that hold none (a room migrating from
    another system, a test set of hand histories): who ran it, when, from what. Append-only. Each past day it fills
    is its own (GamingDay.backfill) and is closed by it when it ends (`manage.py import_phh FOLDER --backfill`)."""

    casino = models.ForeignKey(Casino, on_delete=models.PROTECT, related_name="backfills")
    run_by = models.ForeignKey("User", on_delete=models.PROTECT, related_name="+")
    started_at = models.DateTimeField(default=timezone.now)
    source = models.CharField(max_length=300, help_text="What was backfilled, e.g. the command and its folder.")

    class Meta:
        ordering = ["-started_at", "-pk"]
        triggers = [pgtrigger.Protect(name="append_only", operation=pgtrigger.Update | pgtrigger.Delete)]

    def __str__(self) -> str:
        return f"Backfill {self.pk} of {self.casino} by {self.run_by}: {self.source}"


class GamingDayClose(models.Model):
    """The close of a gaming day's books (N.J.A.C. 13:69F-14.19(d)-daily, 14.19(h)-reconcile, 14.19(p)-documented,
    14.19(k)-official-record): who closed it (empty: the scheduled job), when, and the figures it closed with
    (`summary`, the daily count's findings). Written once a day, append-only: the app's database login may insert it,
    never update or delete it, so a closed day stays closed."""

    casino = models.ForeignKey(Casino, on_delete=models.PROTECT, related_name="gaming_day_closes")
    gaming_day = models.DateField()
    closed_at = models.DateTimeField(default=timezone.now)
    closed_by = models.ForeignKey("User", on_delete=models.PROTECT, null=True, blank=True,
                                  related_name="+", help_text="Empty when the scheduled job closed it.")
    backfill = models.ForeignKey(Backfill, on_delete=models.PROTECT, null=True, blank=True, related_name="closes",
                                 help_text="The backfill that filled the day and closed it.")
    summary = models.JSONField(default=dict)

    class Meta:
        ordering = ["-gaming_day"]
        constraints = [models.UniqueConstraint(fields=["casino", "gaming_day"], name="one_gaming_day_close")]
        triggers = [pgtrigger.Protect(name="append_only", operation=pgtrigger.Update | pgtrigger.Delete)]

    def __str__(self) -> str:
        return f"{self.casino} {self.gaming_day} closed"
