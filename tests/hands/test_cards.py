"""Card notation and its errors (the engine's input checks)."""
import pytest

from apps.hands import (
    Card,
    CardCountError,
    DuplicateCardError,
    Rank,
    Suit,
    UnknownCardError,
    check_distinct,
    format_cards,
    parse_cards,
)


def test_parses_spaced_concatenated_and_ten_forms():
    assert parse_cards("As Kd Th") == parse_cards("AsKdTh") == parse_cards("as,KD,10h")
    assert parse_cards("As")[0] == Card(Rank.ACE, Suit.SPADES)
    assert format_cards(parse_cards("AsKdTh")) == "As Kd Th"
    assert parse_cards("") == ()


@pytest.mark.parametrize(("text", "error", "words"), [
    ("Ax Kd", UnknownCardError, "Unknown card 'Ax'"),
    ("1s", UnknownCardError, "Unknown card '1s'"),
    ("AsK", UnknownCardError, "Unknown card 'AsK'"),
    ("As Kd As", DuplicateCardError, "Duplicate card 'As'"),
])
def test_bad_cards_raise_typed_errors_naming_the_token(text, error, words):
    with pytest.raises(error, match=words):
        parse_cards(text)


def test_wrong_count_and_duplicates_across_groups():
    with pytest.raises(CardCountError, match="Expected 2 cards, got 3"):
        parse_cards("As Kd Qh", count=2)
    with pytest.raises(DuplicateCardError, match="Kd"):
        check_distinct(parse_cards("As Kd"), parse_cards("2c Kd 3h"))
    assert issubclass(UnknownCardError, ValueError)
