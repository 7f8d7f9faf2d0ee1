"""The two ways a page writes the room's facts (issue 34, items 6 and 8): amounts by the `money` filter ($2,675.00,
−$15.00; Babel's CLDR formats) and cards by the `cards` filter (suit symbols in their colours, the card's name kept
for screen readers)."""
from decimal import Decimal

import pytest
from django.template import Context, Template

from apps.core.money import dollars
from tests.support.cards import heard, seen


def render(text: str, **context) -> str:
    return Template("{% load pokerroom %}" + text).render(Context(context))


@pytest.mark.parametrize(("amount", "shown"), [
    (Decimal("2675"), "$2,675.00"), (Decimal("-15"), "\u2212$15.00"), (Decimal("0"), "$0.00"),
    (Decimal("0.5"), "$0.50"), (Decimal("1234567.891"), "$1,234,567.89"), ("45", "$45.00"), (7, "$7.00")])
def test_money_is_written_one_way(amount, shown):
    assert dollars(amount) == shown
    assert render("{{ a|money }}", a=amount) == shown


def test_money_of_nothing_and_of_text():
    assert render("{{ a|money }}", a=None) == "—"
    assert render("{{ a|money }}", a="n/a") == "n/a"


def test_money_follows_the_locale_setting(settings):
    settings.MONEY_LOCALE = "en_CA"
    assert dollars(Decimal("2675")) == "US$2,675.00"


def test_cards_show_their_suits_and_keep_their_names():
    html = render("{{ c|cards }}", c="9h Td As 2c")
    assert seen(html) == "9♥ 10♦ A♠ 2♣"
    assert heard(html) == "9 of hearts 10 of diamonds ace of spades 2 of clubs"
    assert html.count("suit-h") == 1 and html.count("suit-d") == 1  # red
    assert html.count("suit-s") == 1 and html.count("suit-c") == 1  # black


def test_cards_in_a_list_and_run_together():
    assert seen(render("{{ c|cards }}", c=["Kh", "Qh"])) == "K♥ Q♥"
    assert seen(render("{{ c|cards }}", c="AhKh")) == "A♥K♥"


def test_other_text_is_kept_and_escaped():
    assert render("{{ c|cards }}", c="??") == "??"
    assert render("{{ c|cards }}", c="stood pat") == "stood pat"
    assert render("{{ c|cards }}", c="<b>Kh</b>") .startswith("&lt;b&gt;")
    assert "Kh" not in seen(render("{{ c|cards }}", c="<b>Kh</b>"))
    assert render("{{ c|cards }}", c="Kings full") == "Kings full"
