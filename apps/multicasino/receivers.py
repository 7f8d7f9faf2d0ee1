"""The bad beat app tells us of each contribution, inside its transaction."""
from .services import report_contribution as _report


def report_contribution(sender, *, contribution, **kwargs) -> None:
    """Report a contribution to the system's payout to the host, atomically with it (14.20(e)2)."""
    _report(contribution=contribution)
