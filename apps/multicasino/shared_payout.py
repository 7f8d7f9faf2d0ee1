"""The bad beat app's door into the multi-casino system (settings.BAD_BEAT_SHARED_PAYOUT): a claim on a payout
shared with other casinos is verified here and decided by the host (N.J.A.C. 13:69F-14.20(e)4)."""
from . import services
from .models import Site, SystemStatus


def manages(*, jackpot) -> bool:
    """True when `jackpot` funds a multi-casino system this deployment belongs to."""
    return services.system_of(jackpot=jackpot) is not None


def accepts_contributions(*, jackpot) -> bool:
    """False while the system is suspended at this casino and its agreement stops contributions then; True for a
    jackpot of no system (one query on the contribution's path)."""
    me = (Site.objects.filter(system__jackpot=jackpot, is_self=True).select_related("system")
          .only("status", "system__contributions_while_suspended").first())
    return me is None or me.system.contributions_while_suspended or me.status != SystemStatus.SUSPENDED


def verify(*, claim, supervisor):
    """Verify with the engine and send to the host (see services.submit_claim)."""
    return services.submit_claim(claim=claim, supervisor=supervisor)


def record_payout(*, claim, method, location, delivered_by, recorded_by):
    """Deliver a payout the host confirmed pending (see services.record_system_payout)."""
    return services.record_system_payout(claim=claim, method=method, location=location, delivered_by=delivered_by,
                                         recorded_by=recorded_by)
