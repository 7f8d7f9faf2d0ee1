"""Typed errors of the hand engine. All are ValueError, so callers may catch either."""


class HandError(ValueError):
    """Anything wrong with cards, hands or rule sets."""


class CardError(HandError):
    """A card or a group of cards that cannot be used."""


class UnknownCardError(CardError):
    """A token that is not a card, e.g. 'Xx' or '1s'."""


class DuplicateCardError(CardError):
    """The same card twice: one deck has each card once (N.J.A.C. 13:69F-14.2(a))."""


class CardCountError(CardError):
    """The wrong number of cards for the rule set or the game."""


class RuleSetError(HandError):
    """A rule set or game that does not fit the request, e.g. comparing a low hand with a high hand."""
