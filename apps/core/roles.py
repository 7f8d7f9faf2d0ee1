"""The staff roles of the poker room, kept as Django groups."""
from enum import StrEnum


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
        return self.value.replace("_", " ").capitalize()
