from django.conf import settings
from django.db import models

from apps.casinos.models import Casino
from apps.tables.models import PokerTable


class DealerDown(models.Model):
    """A dealer's down: dealing at a table, or on break (table empty), from starts_at to ends_at."""

    casino = models.ForeignKey(Casino, on_delete=models.PROTECT, related_name="dealer_downs")
    dealer = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="downs")
    table = models.ForeignKey(PokerTable, on_delete=models.PROTECT, null=True, blank=True, related_name="downs")
    starts_at = models.DateTimeField(db_index=True)
    ends_at = models.DateTimeField()
    planned_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")

    class Meta:
        ordering = ["starts_at", "dealer__username"]
        constraints = [
            models.UniqueConstraint(fields=["dealer", "starts_at"], name="one_down_per_dealer_at_a_time"),
            models.UniqueConstraint(fields=["table", "starts_at"], name="one_dealer_per_table_at_a_time"),
            models.CheckConstraint(condition=models.Q(ends_at__gt=models.F("starts_at")), name="down_ends_after_start"),
        ]

    def __str__(self) -> str:
        where = f"table {self.table.number}" if self.table is not None else "break"
        return f"{self.dealer} {where} {self.starts_at:%H:%M}"
