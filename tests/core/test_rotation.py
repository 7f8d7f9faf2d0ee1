"""The pages of a room screen (apps.core.rotation): each page stays its polls, the last turns back to the first,
and a tick the screen could not have sent is a 400 naming it."""
import pytest
from django.core.exceptions import BadRequest
from django.test import RequestFactory

from apps.core.rotation import MAX_TICK, rotate, tick_of


def test_pages_turn_every_few_polls_and_wrap_round():
    items = list(range(5))  # 3 pages of 2
    shown = [rotate(items, per_page=2, tick=tick, ticks_per_page=2) for tick in range(7)]
    assert [r.items for r in shown] == [[0, 1], [0, 1], [2, 3], [2, 3], [4], [4], [0, 1]]
    assert [(r.page, r.pages) for r in shown[:3]] == [(1, 3), (1, 3), (2, 3)]
    assert [r.next_tick for r in shown] == [1, 2, 3, 4, 5, 0, 1]


def test_what_fits_on_one_page_never_turns():
    for items in ([], [1], [1, 2]):
        rotation = rotate(items, per_page=2, tick=MAX_TICK, ticks_per_page=5)
        assert (rotation.items, rotation.page, rotation.pages) == (items, 1, 1)
        assert rotation.next_tick < 5


@pytest.mark.parametrize("query, tick", [("", 0), ("?tick=0", 0), ("?tick=17", 17), (f"?tick={MAX_TICK}", MAX_TICK)])
def test_the_tick_of_a_poll(query, tick):
    assert tick_of(RequestFactory().get(f"/screens/x/{query}")) == tick


@pytest.mark.parametrize("value", ["-1", "10000", "1.5", "abc", "%00", "%C2%B2", "%EF%BC%91", " 1"])
def test_a_tick_no_screen_sends_is_a_400_naming_it(value):
    with pytest.raises(BadRequest, match="tick"):
        tick_of(RequestFactory().get(f"/screens/x/?tick={value}"))
