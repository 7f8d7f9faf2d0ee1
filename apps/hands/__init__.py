"""The hand engine: pure Python, no Django. Cards, rankings under the New Jersey rule sets, game forms,
pots, side pots and their settlement, stud betting order (N.J.A.C. 13:69F-14.3, 14.7, 14.9-14.13A; 20.3;
27.3). Bad beat odds by Monte Carlo (NumPy): apps.hands.odds. Command line: python -m apps.hands --help."""
from .cards import DECK, Card, Rank, Suit, check_distinct, format_cards, parse_cards
from .errors import (
                    CardCountError,
                    CardError,
                    DuplicateCardError,
                    HandError,
                    HandNameError,
                    OddsInputError,
                    RuleSetError,
                    UnknownCardError,
)
from .games import (
                    FORMS,
                    LOW_GAMES,
                    SPLIT_GAMES,
                    Game,
                    ShowdownHand,
                    best_hands,
                    best_holdem,
                    best_omaha,
                    best_omaha_hilo8,
)
from .rankings import (
                    QUALIFIED,
                    RULE_SETS,
                    BadugiCategory,
                    DeuceToSevenCategory,
                    FiveCardCategory,
                    FourCardCategory,
                    HandValue,
                    LowCategory,
                    RuleSet,
                    ThreeCardCategory,
                    ThreeCardPokerCategory,
                    evaluate,
                    evaluate_ace_to_five_low,
                    evaluate_badugi,
                    evaluate_deuce_to_seven_low,
                    evaluate_five_card_high,
                    evaluate_four_card_poker,
                    evaluate_three_card_high,
                    evaluate_three_card_low,
                    evaluate_three_card_poker,
)
from .settlement import (
                    Pot,
                    PotBuild,
                    PotResult,
                    Settlement,
                    award_pots,
                    award_runs,
                    build_pots,
                    settle,
                    showdown_hands,
                    split_runs,
                    verify_run_boards,
)
from .stud import first_to_act, forced_bet

__all__ = [
    "DECK", "FORMS", "LOW_GAMES", "QUALIFIED", "RULE_SETS", "SPLIT_GAMES", "BadugiCategory", "Card", "CardCountError",
    "CardError", "DeuceToSevenCategory", "DuplicateCardError", "FiveCardCategory", "FourCardCategory", "Game",
    "HandError", "HandNameError", "HandValue", "LowCategory", "OddsInputError", "Pot", "PotBuild", "PotResult",
    "Rank", "RuleSet", "RuleSetError",
    "Settlement", "ShowdownHand", "Suit", "ThreeCardCategory", "ThreeCardPokerCategory", "UnknownCardError",
    "award_pots", "award_runs", "best_hands", "best_holdem", "best_omaha", "best_omaha_hilo8", "build_pots", "check_distinct",
    "evaluate", "evaluate_ace_to_five_low", "evaluate_badugi", "evaluate_deuce_to_seven_low",
    "evaluate_five_card_high", "evaluate_four_card_poker", "evaluate_three_card_high", "evaluate_three_card_low",
    "evaluate_three_card_poker", "first_to_act", "forced_bet", "format_cards", "parse_cards", "settle",
    "showdown_hands", "split_runs", "verify_run_boards",
]
