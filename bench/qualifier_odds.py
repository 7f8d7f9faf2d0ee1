"""Bad beat odds by Monte Carlo (apps/hands/odds.py) and the Omaha batch it rests on: speed (make bench-odds).

Prints the machine's load, then deals per second of `bad_beat_odds` for nine-handed hold'em (target: 1,000,000
deals in 30 s or less) and Omaha, Omaha high hands per second of `fast.omaha_high_scores` (target: 1,000,000 or
more) against references measured in the same run (the former Omaha path: every one of the 60 two-plus-three
combinations scored by the general batch path; eval7's seven-card rate per hand), and the one-time cost of the
dense five-rank table. Speed is measured here, never in tests. Options: --deals, --omaha-deals, --hands.
"""
from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from apps.hands import FiveCardCategory, fast  # noqa: E402
from apps.hands.odds import BadBeatSpec, bad_beat_odds  # noqa: E402


def timed(fn, repeat: int = 1) -> tuple[float, object]:
    best, result = float("inf"), None
    for _ in range(repeat):
        start = time.perf_counter()
        result = fn()
        best = min(best, time.perf_counter() - start)
    return best, result


def former_omaha(hole: np.ndarray, board: np.ndarray) -> np.ndarray:
    """The Omaha path before issue 16: 60 five-card rows per hand through the general batch path."""
    cards = np.concatenate([np.asarray(hole, dtype=np.int64), np.asarray(board, dtype=np.int64)], axis=1)
    fives = cards[:, np.array(fast._OMAHA)]
    return fast.high_scores(fives.reshape(-1, 5)).reshape(len(cards), len(fast._OMAHA)).max(axis=1)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--deals", type=int, default=1_000_000, help="nine-handed hold'em deals")
    parser.add_argument("--omaha-deals", type=int, default=200_000, help="nine-handed Omaha deals")
    parser.add_argument("--hands", type=int, default=1_000_000, help="Omaha hands for the batch rate")
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args()
    load_before = os.getloadavg()

    fast._dense_five.cache_clear()
    fast._np_tables.cache_clear()
    build_s, _ = timed(fast._dense_five)  # includes the five-card rank table it is built from

    rng = np.random.default_rng(args.seed)
    deal = np.argsort(rng.random((args.hands, 52)), axis=1)[:, :9].astype(np.int8)
    hole, board = deal[:, :4], deal[:, 4:]
    omaha_s, ours = timed(lambda: fast.omaha_high_scores(hole, board), repeat=3)
    few = min(args.hands, 100_000)
    former_s, theirs = timed(lambda: former_omaha(hole[:few], board[:few]), repeat=2)
    assert np.array_equal(ours[:few], theirs)

    import eval7
    cards = [eval7.Card(f"{'23456789TJQKA'[c // 4]}{'cdhs'[c % 4]}") for c in range(52)]
    sevens = [[cards[c] for c in row] for row in deal[:200_000, :7].tolist()]
    eval7_s, _ = timed(lambda: [eval7.evaluate(h) for h in sevens], repeat=3)

    loose = BadBeatSpec("holdem", FiveCardCategory.FULL_HOUSE)
    bad_beat_odds(loose, players=9, deals=1000, seed=0)        # tables built before the clock starts
    holdem_s, holdem = timed(lambda: bad_beat_odds(loose, players=9, deals=args.deals, seed=args.seed))
    quads_both = BadBeatSpec("holdem", FiveCardCategory.FOUR_OF_A_KIND, both_hole_cards=True)
    quads_s, quads = timed(lambda: bad_beat_odds(quads_both, players=9, deals=args.deals, seed=args.seed))
    omaha_rule = BadBeatSpec("omaha", FiveCardCategory.FULL_HOUSE)
    omaha_deals_s, omaha = timed(lambda: bad_beat_odds(omaha_rule, players=9, deals=args.omaha_deals, seed=args.seed))
    load_after = os.getloadavg()

    omaha_rate, former_rate = args.hands / omaha_s, few / former_s
    eval7_rate = len(sevens) / eval7_s
    rows = [
        ("bad_beat_odds, hold'em, 9 players, full house or better", f"{args.deals:,}", holdem_s,
         args.deals / holdem_s, f"{holdem.probability:.5f} [{holdem.ci95[0]:.5f}, {holdem.ci95[1]:.5f}]"),
        ("bad_beat_odds, hold'em, 9 players, quads, both hole cards", f"{args.deals:,}", quads_s,
         args.deals / quads_s, f"{quads.probability:.2e} ({quads.hits} hits)"),
        ("bad_beat_odds, Omaha, 9 players, full house or better", f"{args.omaha_deals:,}", omaha_deals_s,
         args.omaha_deals / omaha_deals_s, f"{omaha.probability:.5f} [{omaha.ci95[0]:.5f}, {omaha.ci95[1]:.5f}]"),
    ]
    print(f"Python {sys.version.split()[0]}, NumPy {np.__version__}, {os.cpu_count()} cores; load average "
          f"(1, 5, 15 min) {', '.join(f'{x:.2f}' for x in load_before)} before, "
          f"{', '.join(f'{x:.2f}' for x in load_after)} after\n")
    print("| count | deals | seconds | deals/s | probability [95 % CI] |")
    print("|---|---:|---:|---:|---|")
    for name, deals, seconds, rate, result in rows:
        print(f"| {name} | {deals} | {seconds:.2f} | {rate:,.0f} | {result} |")
    print("\n| Omaha high batch | hands | hands/s | vs former path | vs eval7 (7 cards, per hand) |")
    print("|---|---:|---:|---:|---:|")
    print(f"| fast.omaha_high_scores (dense five-rank table) | {args.hands:,} | {omaha_rate:,.0f} | "
          f"{omaha_rate / former_rate:.1f}× | {omaha_rate / eval7_rate:.2f}× |")
    print(f"| former path (60 rows per hand through high_scores) | {few:,} | {former_rate:,.0f} | 1.0× | "
          f"{former_rate / eval7_rate:.2f}× |")
    print(f"| eval7.evaluate, 7 cards, per hand (reference) | {len(sevens):,} | {eval7_rate:,.0f} | | 1.00× |")
    print(f"\nDense five-rank table built in {build_s:.2f} s (with the five-card rank table it reads), once a process.")
    print("\n" + json.dumps({
        "load_before": load_before, "load_after": load_after, "table_build_s": round(build_s, 3),
        "holdem_9": {"deals": args.deals, "seconds": round(holdem_s, 2), "hits": holdem.hits},
        "holdem_9_quads_both": {"deals": args.deals, "seconds": round(quads_s, 2), "hits": quads.hits},
        "omaha_9": {"deals": args.omaha_deals, "seconds": round(omaha_deals_s, 2), "hits": omaha.hits},
        "omaha_hands_per_s": round(omaha_rate), "former_omaha_hands_per_s": round(former_rate),
        "eval7_7card_per_s": round(eval7_rate)}))


if __name__ == "__main__":
    main()
