"""What the room's bad beat jackpot display shows, for the staff page (views.display) and for the screens opened by
a display link (apps.screens): each live payout's displayed amount in large whole dollars (the cents smaller beside
them, so the screen still shows exactly the amount accounting adjusted it to, N.J.A.C. 13:69F-14.19(k)2), "payout
pending" once a claim is verified and "pending adjustment" once it is paid, until accounting adjusts the display
(14.19(i)1, (o), 14.19(k)2: `selectors.display_status`), its qualifying requirements and shares (14.19(b)3-posted),
whether it is funded from the primary (`Panel.funding`), the posted notices of changes (14.19(q)-notice), and the
panels of a multi-casino system (14.20).

The panels are laid out to fit one screen (1920×1080, 1366×768) without scrolling: at most PANELS_PER_PAGE side by
side; a room with more payouts turns through pages of them, one page every TICKS_PER_PAGE polls (apps.core.rotation).
A panel shows at most NOTICES_SHOWN notices and says how many more are posted with the rules."""
from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from decimal import ROUND_DOWN, Decimal

from django.utils import timezone
from django.utils.formats import date_format

from apps.casinos.models import Casino
from apps.casinos.selectors import current_gaming_day
from apps.core.rotation import Rotation, rotate

from .selectors import DisplayRow, display_rows
from .shared import shared_payout_system

#: Panels shown side by side on one page of the display.
PANELS_PER_PAGE = 2
#: The display polls every POLL_SECONDS; a page stays TICKS_PER_PAGE polls (10 s).
POLL_SECONDS = 2
TICKS_PER_PAGE = 5
#: Notices of a change (14.19(q)) shown in a panel; the others are counted ("and 2 more notices...").
NOTICES_SHOWN = 2


@dataclass(frozen=True)
class Amount:
    """An amount as the display shows it: whole dollars with thousands separators, and the cents."""

    dollars: str
    cents: str


def shown_amount(value: Decimal) -> Amount:
    """`value` (Decimal dollars) split into whole dollars and cents, never rounded up: $1,234.56 is "1,234" and
    "56" (the display never shows more than the amount, 14.19(o))."""
    value = Decimal(value).quantize(Decimal("0.01"), rounding=ROUND_DOWN)
    whole = value.to_integral_value(rounding=ROUND_DOWN)
    return Amount(dollars=f"{whole:,.0f}", cents=f"{abs(value - whole) * 100:02.0f}")


@dataclass(frozen=True)
class Panel:
    """One panel of the display: a payout of this casino (`row`) or a multi-casino system's (`system`, the dict of
    SharedPayoutSystem.display_panels); its amount as shown, the notices shown and how many more there are."""

    amount: Amount
    row: DisplayRow | None = None
    system: dict | None = None
    notices: list[str] = field(default_factory=list)
    more_notices: int = 0

    @property
    def payout_pending(self) -> bool:
        """Whether the panel says "payout pending" (14.19(i)1): this casino's payout as `selectors.display_status`
        decides it (a verified claim, or the payout's own status), or a claim verified anywhere in its multi-casino
        system."""
        if self.row is not None:
            return self.row.display.payout_pending
        return bool(self.system and self.system.get("pending"))

    @property
    def pending_adjustment(self) -> bool:
        """Whether the panel says "pending adjustment" (14.19(i)1, 14.19(k)1): this casino's payout was paid and
        accounting has not adjusted its display since (`selectors.display_status`); the amount shown is the one
        displayed before, never lowered until accounting adjusts it (14.19(o))."""
        return self.row is not None and self.row.display.pending_adjustment

    @property
    def funding(self) -> str:
        """The signage of a secondary payout funded from a portion of the primary: that it is funded from the
        primary and deducted from it when won (14.19(m)2-signage), e.g. "Funded from the Big one and deducted from it
        if won"; "" for a payout funded by its own contributions, and for a multi-casino system's panel."""
        jackpot = self.row.jackpot if self.row is not None else None
        primary = jackpot.primary if jackpot is not None and jackpot.funded_from_primary else None
        return f"Funded from the {primary.name} and deducted from it if won" if primary is not None else ""


def _when(moment: datetime, casino: Casino) -> str:
    """`moment` in the casino's zone, as every page writes a date and time ("Nov 24, 2026 09:55")."""
    return date_format(timezone.localtime(moment, casino.zone), "DATETIME_FORMAT")


def _panels(casino: Casino) -> list[Panel]:
    panels = []
    for row in display_rows(casino=casino, gaming_day=current_gaming_day(casino=casino)):
        notices = [f"Notice: from {_when(n.effective_at, casino)} — {n.summary}" for n in row.notices]
        panels.append(Panel(amount=shown_amount(row.displayed), row=row, notices=notices[:NOTICES_SHOWN],
                            more_notices=max(0, len(notices) - NOTICES_SHOWN)))
    system = shared_payout_system()
    for panel in system.display_panels(casino=casino) if system else []:
        notices = [n.text for n in panel["notices"]] + [
            f"Notice: from {_when(c.effective_at, casino)}, once every casino approves — {c.summary}"
            for c in panel["rule_notices"]]
        panels.append(Panel(amount=shown_amount(panel["amount"]), system=panel, notices=notices[:NOTICES_SHOWN],
                            more_notices=max(0, len(notices) - NOTICES_SHOWN)))
    # a payout pending, then a display pending adjustment, is shown on the first page, at the next poll, not when
    # the rotation comes round to it
    return sorted(panels, key=lambda panel: (not panel.payout_pending, not panel.pending_adjustment))


def jackpot_screen(*, casino: Casino, tick: int, now: datetime | None = None) -> dict:
    """The display's template context at poll number `tick`: the page of panels shown (`rotation`), how often the
    screen polls (`poll_seconds`) and when it was read (`updated_at`: HH:MM:SS, the casino's local time)."""
    rotation: Rotation = rotate(_panels(casino), per_page=PANELS_PER_PAGE, tick=tick, ticks_per_page=TICKS_PER_PAGE)
    return {"casino": casino, "rotation": rotation, "poll_seconds": POLL_SECONDS,
            "updated_at": f"{timezone.localtime(now or timezone.now(), casino.zone):%H:%M:%S}"}
