"""What every part of the multi-casino services needs: this deployment's own site, the host and the linked
peers of a system, the system a payout funds, and a person's name as the system's records keep it."""
from __future__ import annotations

from django.db.models import QuerySet

from apps.casinos.models import User

from ..models import BadBeatSystem, Site


def self_site(system: BadBeatSystem) -> Site | None:
    return system.sites.filter(is_self=True).first()


def host_site(system: BadBeatSystem) -> Site | None:
    return system.sites.filter(is_host=True).first()


def linked_peers(system: BadBeatSystem) -> QuerySet[Site]:
    """The other casinos this deployment exchanges messages with (a site links with the host only; it learns of
    the other participants from the host's heartbeats)."""
    return system.sites.filter(is_self=False, link__isnull=False).select_related("link")


def system_of(*, jackpot) -> BadBeatSystem | None:
    """The multi-casino system whose payout this deployment's `jackpot` funds, or None."""
    return BadBeatSystem.objects.filter(jackpot=jackpot, sites__is_self=True).first()


def person_name(user: User) -> str:
    """How a message and the system's records name a member of staff (150 characters at most)."""
    return (user.get_full_name() or user.username)[:150]
