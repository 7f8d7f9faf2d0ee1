"""The staff roles of the poker room, kept as Django groups."""
from enum import StrEnum

import rules


class Role(StrEnum):
    POKER_SHIFT_SUPERVISOR = "poker_shift_supervisor"
    FLOORPERSON = "floorperson"
    DEALER = "dealer"
    ACCOUNTING = "accounting"
    SECURITY = "security"
    SURVEILLANCE = "surveillance"
    ADMIN = "admin"

    @property
    def label(self) -> str:
        """The role as people say it: "Poker shift supervisor", "Administrator"."""
        return "Administrator" if self is Role.ADMIN else self.value.replace("_", " ").capitalize()


def role_label(name: str) -> str:
    """The label of a role from its group name ("floorperson" -> "Floorperson"); a group that is no role of the
    poker room keeps its name."""
    try:
        return Role(name).label
    except ValueError:
        return name


def holds_role(role: str) -> rules.Predicate:
    """A django-rules predicate: the user holds `role` (a group of that name), read from the user's `role_set`
    (casinos.User.role_set: the names read once a user object); an anonymous user holds none."""

    def check(user: object) -> bool:
        return role in getattr(user, "role_set", frozenset())

    predicate: rules.Predicate = rules.predicate(check, name=f"holds_role:{role}")
    return predicate
