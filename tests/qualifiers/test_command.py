"""python manage.py qualifier_odds: one JSON object (probability, ci95, deals, hits), a readable summary without
--json, the history's figures with --jackpot, and a CommandError naming the option for bad input."""
import io
import json

import pytest
from django.core.management import CommandError, call_command

ODDS = ["--game", "holdem", "--losing", "full house", "--players", "9", "--deals", "5000", "--seed", "3"]


def run(*args: str) -> str:
    out = io.StringIO()
    call_command("qualifier_odds", *args, stdout=out)
    return out.getvalue()


def test_json_is_one_object_with_the_engines_count_and_a_fixed_seed_reproduces_it():
    first = json.loads(run(*ODDS, "--json"))
    assert {"probability", "ci95", "deals", "hits"} <= set(first)
    assert first["deals"] == 5000 and first["hits"] > 0 and first["probability"] == first["hits"] / 5000
    low, high = first["ci95"]
    assert low < first["probability"] < high
    again = json.loads(run(*ODDS, "--json"))
    assert {k: v for k, v in again.items() if k != "seconds"} == {k: v for k, v in first.items() if k != "seconds"}


def test_14_19_b_3_both_hole_cards_and_beaten_by_narrow_the_rule():
    loose = json.loads(run(*ODDS, "--json"))
    narrow = json.loads(run(*ODDS, "--both-hole-cards", "--beaten-by", "four of a kind", "--json"))
    assert narrow["hits"] < loose["hits"]


def test_without_json_a_readable_summary():
    text = run(*ODDS)
    assert "Texas hold 'em: full house" in text and "hits in 5,000 deals at 9 players" in text and "95 % CI" in text


@pytest.mark.parametrize(("args", "option"), [
    (["--losing", "five aces"], "--losing"),
    (["--players", "1"], "--players"),
    (["--deals", "0"], "--deals"),
    (["--deals", str(10**9)], "--deals"),
    (["--game", "stud"], "--game"),
    (["--beaten-by", "a monster"], "--beaten-by"),
])
def test_bad_input_is_a_command_error_naming_the_option(args, option):
    values = dict(zip(ODDS[::2], ODDS[1::2], strict=True)) | dict(zip(args[::2], args[1::2], strict=True))
    with pytest.raises(CommandError) as refused:
        run(*[part for pair in values.items() for part in pair])
    assert str(refused.value).startswith(f"{option}:")


@pytest.mark.django_db
def test_14_19_p_with_a_jackpot_the_history_figures_too(room):
    result = json.loads(run(*ODDS, "--jackpot", str(room.pk), "--json"))
    assert result["history"]["rounds"] == 3 and result["rounds_per_day"] == 3.0
    assert result["jackpot"]["id"] == room.pk and result["expected_jackpot_at_next_hit"] is not None
    assert {"probability", "ci95", "deals", "hits"} <= set(result)


@pytest.mark.django_db
def test_an_unknown_jackpot_is_a_command_error():
    with pytest.raises(CommandError, match="--jackpot: No such jackpot"):
        run(*ODDS, "--jackpot", "999999")
