"""python -m apps.hands — rank hands and judge showdowns from JSON Lines, for audits and scripted checks.

Each line of standard input is one JSON object; each gets one JSON line on standard output, in order.

  {"rules": RULE_SET, "hands": ["As Ks Qs Js Ts", "2c 3d 4h 5s 7c"]}
      -> {"categories": [...], "order": [[0], [1]]}       groups of equal hands, best first
         (with "qualifies": [...] for a rule set with a qualifier; a hand of more cards than the rule set
         holds is ranked by its best combination)
  {"game": GAME, "board": "5h Jd Kc 5s Ts", "players": ["4d 8s", "Kd 5c"]}
      -> {"players": [{"high": {...}, "low": {...}}, ...], "high_winners": [...], "low_winners": [...]}

A bad line gets {"error": "..."} and the next line is processed.

Rule sets: five_card_high, three_card_high, three_card_poker, four_card_poker, ace_to_five_low,
ace_to_five_low_8, three_card_low_6, deuce_to_seven_low, badugi.
Games: holdem, omaha, omaha_hilo8, stud, stud_low, stud_hilo, stud_hilo8, five_card_stud, draw_high, draw_low,
triple_draw_27, badugi, mambo_stud.
"""
from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterable, Iterator
from typing import Any

from .cards import format_cards, parse_cards
from .errors import HandError
from .games import LOW_GAMES, best_hands
from .rankings import QUALIFIED, HandValue, RuleSet, evaluate


def _groups(values: list[HandValue]) -> list[list[int]]:
    order = sorted(range(len(values)), key=lambda i: values[i], reverse=True)
    groups: list[list[int]] = []
    for i in order:
        if groups and values[groups[-1][0]] == values[i]:
            groups[-1].append(i)
        else:
            groups.append([i])
    return groups


def _hand(value: HandValue | None) -> dict[str, Any] | None:
    if value is None:
        return None
    return {"category": value.category.label, "cards": format_cards(value.cards)}


def rank_line(request: dict[str, Any]) -> dict[str, Any]:
    """Answer one request object (see the module docstring). Raises HandError or ValueError for bad input."""
    if "rules" in request:
        hands = request.get("hands")
        if not isinstance(hands, list) or not hands:
            raise ValueError("'hands' must be a non-empty list of card strings.")
        rule_set = RuleSet(request["rules"]) if request["rules"] in RuleSet._value2member_map_ else None
        if rule_set is None:
            raise ValueError(f"Unknown rule set {request['rules']!r}.")
        values = [evaluate(rule_set, parse_cards(str(text))) for text in hands]
        answer: dict[str, Any] = {"categories": [v.category.label for v in values], "order": _groups(values)}
        if rule_set in QUALIFIED:
            answer["qualifies"] = [v.qualifies for v in values]
        return answer
    if "game" in request:
        players = request.get("players")
        if not isinstance(players, list) or not players:
            raise ValueError("'players' must be a non-empty list of card strings.")
        board = parse_cards(str(request.get("board", "")))
        holes = [parse_cards(str(text)) for text in players]
        from .cards import check_distinct

        check_distinct(board, *holes)
        showdown = [best_hands(request["game"], hole, board) for hole in holes]
        highs = [s.high for s in showdown]
        lows = [s.low for s in showdown]
        answer = {"players": [{"high": _hand(s.high), "low": _hand(s.low)} for s in showdown]}
        made_high = [i for i, v in enumerate(highs) if v is not None]
        made_low = [i for i, v in enumerate(lows) if v is not None]
        best_high = max((v for v in highs if v is not None), default=None)
        best_low = max((v for v in lows if v is not None), default=None)
        answer["high_winners"] = [i for i in made_high if highs[i] == best_high]
        answer["low_winners"] = [i for i in made_low if lows[i] == best_low]
        if request["game"] in LOW_GAMES:
            answer["high_winners"] = []
        return answer
    raise ValueError("A line needs 'rules' and 'hands', or 'game' and 'players'.")


def run(lines: Iterable[str]) -> Iterator[str]:
    """One JSON answer per input line; a bad line answers {"error": ...}; blank lines are skipped."""
    for line in lines:
        if not line.strip():
            continue
        try:
            try:
                request = json.loads(line)
            except json.JSONDecodeError as exc:
                raise ValueError(f"Not JSON: {exc}.") from exc
            if not isinstance(request, dict):
                raise ValueError("Each line must be a JSON object.")
            answer = rank_line(request)
        except (HandError, ValueError, KeyError, TypeError) as exc:
            answer = {"error": str(exc)}
        yield json.dumps(answer, separators=(",", ":"))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m apps.hands", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.parse_args(argv)
    out = sys.stdout
    for answer in run(sys.stdin):
        out.write(answer + "\n")
    out.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
