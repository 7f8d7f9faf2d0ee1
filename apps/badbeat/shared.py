"""The door from a bad beat payout to a multi-casino system that shares it (N.J.A.C. 13:69F-14.20), as a typed
interface.

The app that runs such a system (apps.multicasino) implements `SharedPayoutSystem` and registers it when Django
is ready (`register_shared_payout_system` in its AppConfig.ready). Badbeat calls the registered system by its
methods and never imports the app above it; nothing is found through a settings string. Calls go one way,
badbeat → system: badbeat does its own part first (the contribution written, the claim judged and verified, the
payout's shares recorded), then hands it to the system, in the same transaction; the system may use badbeat's
models and selectors, and calls badbeat's services only to apply what the host decided (freeze_shared_claim,
refuse_shared_claim, adopt_shared_rules) — at a site when the host's notice arrives, at the host's own casino at
once, within `submit_claim`.
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from django.db.models.expressions import BaseExpression

    from apps.casinos.models import Casino, User

    from .models import Claim, Contribution, Jackpot, Payout


class SharedPayoutSystem(Protocol):
    """What badbeat needs of a multi-casino bad beat system (14.20)."""

    def manages(self, *, jackpot: Jackpot) -> bool:
        """True when `jackpot`'s contributions belong to a multi-casino system this casino takes part in."""

    def contribution_terms(self) -> Mapping[str, BaseExpression]:
        """Annotations for a query of jackpots, so that their row lock reads the terms too (`lock_jackpots`): by
        name, a boolean expression — `funds_system`: the jackpot funds a multi-casino system this casino takes part
        in; `system_stops`: such a system is suspended at this casino and its agreement stops contributions then
        (14.20(c)1, 14.20(e)4-notify)."""

    def record_contributions(self, *, contributions: Sequence[Contribution]) -> None:
        """Called in the transaction that writes the contributions (each already has its pk): the system records
        what it must send for them to the host (its outbox, 14.20(e)2-complete, 14.20(e)2-identified), atomically with
        them. Contributions of a jackpot it does not manage are ignored."""

    def submit_claim(self, *, claim: Claim, supervisor: User) -> Claim:
        """A claim on a payout the system manages, which badbeat has just judged with the engine and verified
        here for `supervisor` (14.19(i)), in the transaction that calls this: the system sends it to the host,
        which decides and freezes the amount (14.20(e)4-two-claims). Returns the claim. Raises DomainError when the
        system cannot take it (e.g. suspended); the caller's transaction then rolls the verification back."""

    def record_payout(self, *, claim: Claim, method: str, location: str, delivered_by: User,
                      recorded_by: User) -> Payout | Claim:
        """The delivery of a payout the host froze (14.19(i)2, (j)), which badbeat has just recorded on the claim
        (its shares; paid) in the transaction that calls this: the system's pool pays it and the host is told.
        Returns the claim. Raises DomainError when the host has not confirmed this payout as pending."""

    def display_panels(self, *, casino: Casino) -> list[dict]:
        """Panels the room's bad beat display adds for the system (its pool, pending payouts, suspension)."""


_registered: SharedPayoutSystem | None = None


def register_shared_payout_system(system: SharedPayoutSystem | None) -> None:
    """Install the multi-casino system of this deployment (None removes it). Called from an AppConfig.ready()."""
    global _registered
    _registered = system


def shared_payout_system() -> SharedPayoutSystem | None:
    """The registered multi-casino system, or None when no such app is installed."""
    return _registered
