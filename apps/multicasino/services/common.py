"""What every part of the multi-casino services needs: this deployment's own site, the host and the linked
peers of a system, the system a payout funds, and a person's name as the system's records keep it."""
from __future__ import annotations

from django.db.models import QuerySet

from apps.casinos.models import User
from apps.core.exceptions import DomainError

from ..models import BadBeatSystem, Site


def self_site(system: BadBeatSystem) -> Site | None:
    return system.sites.filter(is_self=True).first()


def host_site(system: BadBeatSystem) -> Site | None:
    return system.sites.filter(is_host=True).first()


def own_site(system: BadBeatSystem) -> Site:
    """This deployment's site of `system`; raises DomainError when it has none (the system is not set up here)."""
    if (me := self_site(system)) is None:
        raise DomainError(f"This casino is not a site of the {system.name}.", field="system")
    return me


def the_host(system: BadBeatSystem) -> Site:
    """The host's site of `system`; raises DomainError when it has none (the system is not set up here)."""
    if (host := host_site(system)) is None:
        raise DomainError(f"The {system.name} has no host casino here.", field="system")
    return host


def linked_peers(system: BadBeatSystem) -> QuerySet[Site]:
    """The other casinos this deployment exchanges messages with (a site links with the host only; it learns of
    the other participants from the host's heartbeats)."""
    return system.sites.filter(is_self=False, link__isnull=False).select_related("link")


def system_of(*, jackpot) -> BadBeatSystem | None:
    """The multi-casino system whose payout this deployment's `jackpot` funds, or None."""
    return BadBeatSystem.objects.filter(jackpot=jackpot, sites__is_self=True).first()


def funded_system(*, jackpot) -> BadBeatSystem:
    """The multi-casino system whose payout `jackpot` funds; raises DomainError when it funds none."""
    if (system := system_of(jackpot=jackpot)) is None:
        raise DomainError("This payout is not a multi-casino system's.", field="jackpot")
    return system


def person_name(user: User) -> str:
    """How a message and the system's records name a member of staff (150 characters at most)."""
    return (user.get_full_name() or user.username)[:150]
