"""The bad beat app's door into the multi-casino system (settings.BAD_BEAT_SHARED_PAYOUT): a claim on a payout
shared with other casinos is verified here and decided by the host (N.J.A.C. 13:69F-14.20(e)4)."""
from . import services


def manages(*, jackpot) -> bool:
    """True when `jackpot` funds a multi-casino system this deployment belongs to."""
    return services.system_of(jackpot=jackpot) is not None


def accepts_contributions(*, jackpot) -> bool:
    """False while the system is suspended at this casino and its agreement stops contributions then."""
    system = services.system_of(jackpot=jackpot)
    if system is None or system.contributions_while_suspended:
        return True
    me = services.self_site(system)
    return me is None or me.status != "suspended"


def verify(*, claim, supervisor):
    """Verify with the engine and send to the host (see services.submit_claim)."""
    return services.submit_claim(claim=claim, supervisor=supervisor)


def record_payout(*, claim, method, location, delivered_by, recorded_by):
    """Deliver a payout the host confirmed pending (see services.record_system_payout)."""
    return services.record_system_payout(claim=claim, method=method, location=location, delivered_by=delivered_by,
                                         recorded_by=recorded_by)
