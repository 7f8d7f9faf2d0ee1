"""The hand engine: pure Python, no Django. Cards, rankings under the New Jersey rule sets, game forms,
pots, side pots and their settlement (N.J.A.C. 13:69F-14.3, 14.7, 14.10; 20.3; 27.3)."""
from .cards import DECK, Card, Rank, Suit, check_distinct, format_cards, parse_cards
from .errors import CardCountError, CardError, DuplicateCardError, HandError, RuleSetError, UnknownCardError
from .games import SPLIT_GAMES, Game, ShowdownHand, best_hands, best_holdem, best_omaha, best_omaha_hilo8
from .rankings import (
                       FiveCardCategory,
                       HandValue,
                       LowCategory,
                       RuleSet,
                       evaluate,
                       evaluate_ace_to_five_low,
                       evaluate_five_card_high,
)
from .settlement import Pot, PotBuild, PotResult, Settlement, award_pots, build_pots, settle

__all__ = [
    "DECK", "SPLIT_GAMES", "Card", "CardCountError", "CardError", "DuplicateCardError", "FiveCardCategory", "Game",
    "HandError", "HandValue", "LowCategory", "Pot", "PotBuild", "PotResult", "Rank", "RuleSet", "RuleSetError",
    "Settlement", "ShowdownHand", "Suit", "UnknownCardError", "award_pots", "best_hands", "best_holdem",
    "best_omaha", "best_omaha_hilo8", "build_pots", "check_distinct", "evaluate", "evaluate_ace_to_five_low",
    "evaluate_five_card_high", "format_cards", "parse_cards", "settle",
]
