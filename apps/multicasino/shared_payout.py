"""This deployment's multi-casino systems as the bad beat app sees them: the `SharedPayoutSystem` of
apps.badbeat.shared, registered in MulticasinoConfig.ready(). Badbeat calls it after doing its own part (the
contribution written, the claim judged and verified, the payout's shares recorded); it only does the system's part
and never calls badbeat back for that part (N.J.A.C. 13:69F-14.20(e))."""
from __future__ import annotations

from collections.abc import Sequence

from django.db.models import Exists, OuterRef

from apps.badbeat.models import Claim, Contribution, Jackpot
from apps.casinos.models import Casino, User

from . import selectors
from .models import Site, SystemStatus
from .services.claims import record_system_payout, submit_claim
from .services.common import system_of
from .services.contributions import record_contributions


class MulticasinoSystem:
    """The multi-casino systems this deployment takes part in, behind badbeat's typed interface."""

    def manages(self, *, jackpot: Jackpot) -> bool:
        """True when `jackpot` funds a multi-casino system this deployment belongs to."""
        return system_of(jackpot=jackpot) is not None

    def contribution_terms(self) -> dict[str, Exists]:
        """`funds_system` and `system_stops` of a jackpot, as Exists over this casino's own sites of the systems the
        jackpot funds (SharedPayoutSystem.contribution_terms): annotated on the jackpots' row lock, so that the
        contribution's path reads them with the jackpots (14.20(c)1, 14.20(e)4-notify)."""
        mine = Site.objects.filter(system__jackpot=OuterRef("pk"), is_self=True)
        return {"funds_system": Exists(mine),
                "system_stops": Exists(mine.filter(status=SystemStatus.SUSPENDED,
                                                   system__contributions_while_suspended=False))}

    def record_contributions(self, *, contributions: Sequence[Contribution]) -> None:
        """Report the contributions to the host in their transaction (services.contributions)."""
        record_contributions(contributions=contributions)

    def submit_claim(self, *, claim: Claim, supervisor: User) -> Claim:
        """Send the claim badbeat verified to the host (services.claims.submit_claim); returns the claim."""
        submit_claim(claim=claim, supervisor=supervisor)
        return claim

    def record_payout(self, *, claim: Claim, method: str, location: str, delivered_by: User,
                      recorded_by: User) -> Claim:
        """Report the payout badbeat recorded to the host (services.claims.record_system_payout); returns the
        claim."""
        record_system_payout(claim=claim, method=method, location=location, delivered_by=delivered_by,
                             recorded_by=recorded_by)
        return claim

    def display_panels(self, *, casino: Casino) -> list[dict]:
        """The system's panels on the room's display (selectors.display_panels)."""
        return selectors.display_panels(casino=casino)
