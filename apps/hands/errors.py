"""Typed errors of the hand engine. All are ValueError, so callers may catch either."""


class HandError(ValueError):
    """Anything wrong with cards, hands or rule sets."""


class CardError(HandError):
    """A card or a group of cards that cannot be used."""


class UnknownCardError(CardError):
    """A token that is not a card, e.g. 'Xx' or '1s'."""


class DuplicateCardError(CardError):
    """The same card twice: one deck has each card once (N.J.A.C. 13:69F-14.2(a)-one-deck)."""


class CardCountError(CardError):
    """The wrong number of cards for the rule set or the game."""


class RuleSetError(HandError):
    """A rule set or game that does not fit the request, e.g. comparing a low hand with a high hand."""


class OddsInputError(HandError):
    """A bad-beat odds request the engine refuses: an unknown hand name, too few or too many players, no deals
    or too many. `field` names the input at fault ("losing", "beaten_by", "players", "deals", "seed", ...)."""

    def __init__(self, message: str, *, field: str = "") -> None:
        super().__init__(message)
        self.field = field


class HandNameError(OddsInputError):
    """A hand name the qualifier parser does not know, e.g. 'five aces' or 'a big hand'."""
