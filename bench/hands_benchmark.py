"""Hand-engine speed against the known evaluators, on the same random hands in one run (make bench).

Prints a markdown table of evaluations per second: five-card and seven-card high for treys, eval7,
phevaluator, pokerkit and our engine (per hand in pure Python, and the NumPy batch path), then the batch
paths for Omaha and the lows, and the command line's lines per minute. Speed is measured here, never in tests.
"""
from __future__ import annotations

import argparse
import json
import random
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from apps.hands import (
    evaluate,  # noqa: E402
    fast,  # noqa: E402
)


def rate(fn, items, repeat: int = 1) -> float:
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        fn(items)
        best = min(best, time.perf_counter() - start)
    return len(items) / best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--hands", type=int, default=200_000)
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    ids = np.array([rng.sample(range(52), 7) for _ in range(args.hands)], dtype=np.int64)
    names = [f"{'23456789TJQKA'[i // 4]}{'cdhs'[i % 4]}" for i in range(52)]
    small = ids[: min(args.hands, 20_000)]
    rows: list[tuple[str, str, float]] = []

    import treys
    ev = treys.Evaluator()
    treys_cards = [[treys.Card.new(names[c]) for c in hand] for hand in ids.tolist()]
    rows.append(("treys", "7", rate(lambda hs: [ev.evaluate(h[:2], h[2:]) for h in hs], treys_cards)))
    rows.append(("treys", "5", rate(lambda hs: [ev.evaluate(h[:2], h[2:5]) for h in hs], treys_cards)))

    import eval7
    e7 = [[eval7.Card(names[c]) for c in hand] for hand in ids.tolist()]
    rows.append(("eval7", "7", rate(lambda hs: [eval7.evaluate(h) for h in hs], e7)))
    rows.append(("eval7", "5", rate(lambda hs: [eval7.evaluate(h[:5]) for h in hs], e7)))

    from phevaluator import evaluate_cards
    ph = [[names[c] for c in hand] for hand in ids.tolist()]
    rows.append(("phevaluator", "7", rate(lambda hs: [evaluate_cards(*h) for h in hs], ph)))
    rows.append(("phevaluator", "5", rate(lambda hs: [evaluate_cards(*h[:5]) for h in hs], ph)))

    from pokerkit import StandardHighHand
    pk = ["".join(names[c] for c in hand) for hand in small[:4000].tolist()]
    rows.append(("pokerkit", "7", rate(lambda hs: [StandardHighHand.from_game(h[:4], h[4:]) for h in hs], pk)))
    rows.append(("pokerkit", "5", rate(lambda hs: [StandardHighHand(h[:10]) for h in hs], pk)))

    from apps.hands.cards import parse_cards
    objects = [parse_cards("".join(names[c] for c in hand)) for hand in small[:5000].tolist()]
    rows.append(("pokerroom evaluate() (readable core)", "7",
                 rate(lambda hs: [evaluate("five_card_high", h) for h in hs], objects)))
    tuples = [tuple(h) for h in ids.tolist()]
    seven = fast.seven_card_high
    rows.append(("pokerroom fast, per hand (pure Python)", "7", rate(lambda hs: [seven(*h) for h in hs], tuples, 3)))
    fives = [h[:5] for h in tuples]
    rows.append(("pokerroom fast, per hand (pure Python)", "5",
                 rate(lambda hs: [fast.high_score(h) for h in hs], fives, 3)))
    rows.append(("pokerroom batch (NumPy)", "7", rate(fast.high_scores, ids, 3)))
    rows.append(("pokerroom batch (NumPy)", "5", rate(fast.high_scores, ids[:, :5].copy(), 3)))

    omaha = ids[:, :4].copy(), np.array([rng.sample(range(52), 5) for _ in range(len(ids))])
    # boards drawn apart from the hole cards
    boards = np.array([[c for c in rng.sample(range(52), 9) if c not in set(h)][:5] for h in ids[:, :4].tolist()])
    omaha = (ids[:, :4].copy(), boards)
    # best of 3: the first call also builds the dense five-rank table (see bench/qualifier_odds.py for its cost)
    rows.append(("pokerroom batch (NumPy), Omaha high", "4+5", rate(lambda _: fast.omaha_high_scores(*omaha), ids, 3)))
    rows.append(("pokerroom batch (NumPy), A-5 low 8", "5",
                 rate(lambda x: fast.ace_to_five_low_scores(x, qualifier=8), ids[:, :5].copy(), 3)))
    rows.append(("pokerroom batch (NumPy), 2-7 low", "5", rate(fast.deuce_to_seven_scores, ids[:, :5].copy(), 3)))

    treys7 = next(r for n, k, r in rows if n == "treys" and k == "7")
    eval7_7 = next(r for n, k, r in rows if n == "eval7" and k == "7")
    print(f"{len(ids):,} random hands, seed {args.seed}, Python {sys.version.split()[0]}\n")
    print("| evaluator | cards | evaluations/s | vs treys (7) | vs eval7 (7) |")
    print("|---|---|---:|---:|---:|")
    for name, cards, r in rows:
        print(f"| {name} | {cards} | {r:,.0f} | {r / treys7:.2f}× | {r / eval7_7:.2f}× |")

    lines = [json.dumps({"rules": "five_card_high", "hands": [" ".join(names[c] for c in h[:5]) for h in pair]})
             for pair in zip(ids[:20000:2].tolist(), ids[1:20000:2].tolist(), strict=True)]
    start = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "apps.hands"], input="\n".join(lines), capture_output=True, text=True,
                          cwd=Path(__file__).resolve().parents[1], check=True)
    elapsed = time.perf_counter() - start
    assert done.stdout.count("\n") == len(lines)
    print(f"\npython -m apps.hands: {len(lines) / elapsed * 60:,.0f} lines a minute "
          f"({len(lines):,} two-hand lines, start-up included)")


if __name__ == "__main__":
    main()
