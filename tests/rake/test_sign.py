"""What a table's sign may post of its rake (N.J.A.C. 13:69F-14.14(c)-sign): the method and its terms, amounts that are
not negative and an increment above zero, a rotation game's own rake only at its own table. Nothing is written for a
structure refused."""
from decimal import Decimal

import pytest

from apps.core.exceptions import DomainError
from apps.rake.models import RakeMethod, RakeStructure
from apps.rake.services import post_rake_structure
from apps.tables.models import BettingStructure, Game, PokerTable, RotationGame
from apps.tables.services import create_table
from tests.factories import PokerTableFactory

D = Decimal
LEVELS = [{"pot": "20", "take": "1"}, {"pot": "60", "take": "2"}]
TERMS = {"percentage": D("10"), "maximum": D("5.00"), "minimum_pot": D("0.00"), "increment": D("1.00")}
pytestmark = pytest.mark.django_db


#: What a sign's amount out of bounds is refused with, by field.
REFUSED = {"maximum": "The posted maximum rake may not be negative.",
           "minimum_pot": "The minimum pot may not be negative.",
           "increment": "The rake increment must be positive."}


@pytest.mark.proves("14.14(c)-sign")
@pytest.mark.parametrize(("field", "value"), [
    ("maximum", None), ("maximum", D("-0.01")), ("maximum", D("-0.50")), ("maximum", D("-5.00")),
    ("minimum_pot", D("-0.01")), ("minimum_pot", D("-0.50")), ("minimum_pot", D("-20.00")),
    ("increment", D("0.00")), ("increment", D("-0.50")), ("increment", D("-1.00")),
])
def test_14_14_c_a_negative_amount_or_an_increment_of_nothing_is_not_posted(field, value):
    table = PokerTableFactory()
    with pytest.raises(DomainError) as refused:
        post_rake_structure(table=table, **(TERMS | {field: value}))
    assert (refused.value.field, refused.value.message) == (field, REFUSED[field])
    assert not RakeStructure.objects.filter(table=table).exists()


@pytest.mark.proves("14.14(c)-sign")
@pytest.mark.parametrize(("field", "value", "posted"), [
    ("maximum", D("0.00"), "10% of each pot, maximum $0.00 per pot"),
    ("maximum", D("0.50"), "10% of each pot, maximum $0.50 per pot"),
    ("minimum_pot", D("0.50"), "10% of each pot of $0.50 or more, maximum $5.00 per pot"),
    ("minimum_pot", D("20.00"), "10% of each pot of $20.00 or more, maximum $5.00 per pot"),
    ("increment", D("0.01"), "10% of each pot, maximum $5.00 per pot"),
    ("increment", D("0.50"), "10% of each pot, maximum $5.00 per pot"),
])
def test_14_14_c_the_signs_amounts_from_nothing_up_are_posted_as_given(field, value, posted):
    table = PokerTableFactory()
    structure = post_rake_structure(table=table, **(TERMS | {field: value}))
    stored = RakeStructure.objects.get(table=table)
    assert getattr(stored, field) == value and stored.label == posted and structure.pk == stored.pk


@pytest.mark.proves("14.14(c)-sign")
@pytest.mark.parametrize("method", ["alpha", "tiered", "zzz", "", "PERCENTAGE"])
def test_14_14_c_a_method_other_than_a_percentage_or_incremental_levels_is_not_posted(method):
    """Whatever else the structure gives (a percentage, levels), a method the sign cannot describe is refused."""
    table = PokerTableFactory()
    with pytest.raises(DomainError) as refused:
        post_rake_structure(table=table, method=method, levels=LEVELS, **TERMS)
    assert (refused.value.field, refused.value.message) == ("method", f"Unknown rake method {method!r}.")
    assert not RakeStructure.objects.filter(table=table).exists()


@pytest.mark.proves("14.14(c)-sign")
def test_14_14_c_the_method_as_text_posts_its_own_terms_only():
    """The method as the API and the forms give it (text, not the enum): a percentage rake keeps its percentage and no
    levels; an incremental one its levels and no percentage, though one was given."""
    table = PokerTableFactory()
    percentage = post_rake_structure(table=table, method="percentage", **TERMS)
    assert (percentage.method, percentage.percentage, percentage.levels) == ("percentage", D("10"), [])
    incremental = post_rake_structure(table=table, method="incremental", levels=LEVELS, **TERMS)
    stored = RakeStructure.objects.get(table=table)
    assert stored.pk == percentage.pk == incremental.pk  # the table's sign changed, not a second one
    assert (stored.method, stored.percentage) == (RakeMethod.INCREMENTAL, None)
    assert stored.levels == [{"pot": "20.00", "take": "1.00"}, {"pot": "60.00", "take": "2.00"}]
    assert stored.label == "Incremental: $1.00 at $20.00, $2.00 at $60.00; maximum $5.00 per pot"


def _mixed(casino, number: int) -> PokerTable:
    return create_table(casino=casino, number=number, seats=8, rotation_name="Hold 'em and stud", rounds_per_game=8,
                        rotation=[{"game": Game.HOLDEM, "betting_structure": BettingStructure.NO_LIMIT, "small_blind": "1",
                                   "big_blind": "2", "minimum_wager": "2"},
                                  {"game": Game.STUD, "betting_structure": BettingStructure.FIXED_LIMIT, "ante": "1",
                                   "bring_in": "2", "minimum_wager": "5", "maximum_wager": "10"}])


@pytest.mark.proves("14.14(c)-sign")
def test_14_14_c_a_rotation_games_rake_is_posted_at_its_own_table_only(casino):
    """Each of two mixed-game tables refuses the other's hold 'em as one of its games, whichever was made first; its
    own is posted, and the sign shows it for that game (the table's own rake otherwise)."""
    first, second = _mixed(casino, 1), _mixed(casino, 2)
    for table, other in ((first, second), (second, first)):
        with pytest.raises(DomainError) as refused:
            post_rake_structure(table=table, rotation_game=other.rotation.get(game=Game.HOLDEM), **TERMS)
        assert refused.value.field == "rotation_game"
    assert not RakeStructure.objects.exists()
    holdem = RotationGame.objects.get(table=first, game=Game.HOLDEM)
    posted = post_rake_structure(table=first, rotation_game=holdem, **TERMS)
    assert RakeStructure.objects.get(table=first, rotation_game=holdem) == posted


@pytest.mark.proves("14.14(c)-sign")
def test_14_14_c_a_rotation_game_is_known_by_its_tables_number_not_the_object_holding_it(casino):
    """Ids past the small numbers Python keeps one object of: the game's table id and the table's, read from the
    database apart, are equal numbers, not one object."""
    table = PokerTableFactory(id=900_001, casino=casino, rotation_name="Hold 'em", game=Game.HOLDEM)
    RotationGame.objects.create(table=table, position=1, game=Game.HOLDEM, betting_structure=BettingStructure.NO_LIMIT,
                                small_blind=D("1"), big_blind=D("2"), minimum_wager=D("2"))
    table = PokerTable.objects.get(pk=900_001)
    holdem = RotationGame.objects.get(table=table)
    posted = post_rake_structure(table=table, rotation_game=holdem, **TERMS)
    assert (posted.table_id, posted.rotation_game_id) == (900_001, holdem.pk)
