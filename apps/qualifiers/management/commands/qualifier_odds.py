"""python manage.py qualifier_odds --game holdem --losing "four of a kind" [--both-hole-cards] --players 9
[--beaten-by "..."] [--minimum-players N] --deals N --seed S [--jackpot ID] [--json]

How often a proposed bad beat qualifying rule hits: the engine's Monte Carlo over full
deals (apps.hands.odds), with its 95 % confidence interval. With --jackpot, also the figures from the jackpot's
casino's history and its posted contribution and reset (apps.qualifiers.designer: rounds and days between hits, the
chance of a hit within 30, 90 and 365 days, the jackpot at the hit). --json prints one JSON object
(at least probability, ci95, deals and hits); without it, a readable summary. Bad input: a CommandError naming the
option, exit status 1. Up to the engine's MAX_DEALS deals (a page or the API stops at REQUEST_MAX_DEALS).
"""
import json
import time

from django.core.management.base import BaseCommand, CommandError

from apps.badbeat.models import Jackpot
from apps.core.exceptions import DomainError
from apps.hands import OddsInputError
from apps.hands import odds as engine
from apps.qualifiers.designer import (
    DEFAULT_PLAYERS,
    DEFAULT_SEED,
    GAMES,
    Candidate,
    check_candidate,
    check_players,
    check_run,
    compare,
)

#: The command's option for each field the designer may name.
OPTIONS = {"game": "--game", "losing": "--losing", "beaten_by": "--beaten-by", "players": "--players",
           "minimum_players_dealt": "--minimum-players", "deals": "--deals", "seed": "--seed", "jackpot": "--jackpot"}


def _option(field: str | None) -> str:
    name = (field or "").rsplit(".", 1)[-1]
    return OPTIONS.get(name, name or "input")


class Command(BaseCommand):
    help = "The odds of a bad beat qualifying rule by the engine's Monte Carlo (14.19(b)3); --json for one object."

    def add_arguments(self, parser):
        parser.add_argument("--game", required=True, help=f"one of: {', '.join(GAMES)}")
        parser.add_argument("--losing", required=True, help='the weakest qualifying losing hand, e.g. "four eights"')
        parser.add_argument("--both-hole-cards", action="store_true", help="hold 'em: both hole cards must play")
        parser.add_argument("--beaten-by", default="", help="the least winning hand (default: any better hand)")
        parser.add_argument("--minimum-players", type=int, default=2, help="players dealt in to qualify (default 2)")
        parser.add_argument("--players", type=int, default=None,
                            help=f"players dealt in each deal (default {DEFAULT_PLAYERS}; with --jackpot, the room's "
                                 "most common number)")
        parser.add_argument("--deals", type=int, required=True, help=f"deals, 1,000 to {engine.MAX_DEALS:,}")
        parser.add_argument("--seed", type=int, default=DEFAULT_SEED, help="the same seed deals the same cards")
        parser.add_argument("--jackpot", type=int, default=None,
                            help="a jackpot's id: add the figures from its casino's history and posted contribution")
        parser.add_argument("--json", action="store_true", help="print one JSON object")

    def handle(self, *args, **options):
        candidate = Candidate(game=options["game"], losing=options["losing"],
                              both_hole_cards=options["both_hole_cards"], beaten_by=options["beaten_by"],
                              minimum_players_dealt=options["minimum_players"])
        started = time.perf_counter()
        try:
            if options["jackpot"] is not None:
                result = self._with_history(candidate, options)
            else:
                result = self._odds_only(candidate, options)
        except DomainError as exc:
            raise CommandError(f"{_option(exc.field)}: {exc.message}") from exc
        result["seconds"] = round(time.perf_counter() - started, 3)
        if options["json"]:
            self.stdout.write(json.dumps(result))
        else:
            self._summary(result)

    def _odds_only(self, candidate: Candidate, options: dict) -> dict:
        spec = check_candidate(candidate)
        players = DEFAULT_PLAYERS if options["players"] is None else options["players"]
        check_run(deals=options["deals"], seed=options["seed"], players=players, maximum=engine.MAX_DEALS)
        check_players(candidate, players)
        try:
            odds = engine.bad_beat_odds(spec, players=players, deals=options["deals"], seed=options["seed"])
        except OddsInputError as exc:
            raise DomainError(str(exc), field=exc.field or None) from exc
        return {"game": candidate.game, "losing": candidate.losing, "both_hole_cards": candidate.both_hole_cards,
                "beaten_by": candidate.beaten_by, "minimum_players_dealt": candidate.minimum_players_dealt,
                "description": candidate.describe(), "players": odds.players, "deals": odds.deals, "hits": odds.hits,
                "seed": odds.seed, "probability": odds.probability, "ci95": list(odds.ci95)}

    def _with_history(self, candidate: Candidate, options: dict) -> dict:
        jackpot = Jackpot.objects.select_related("casino").filter(pk=options["jackpot"]).first()
        if jackpot is None:
            raise DomainError("No such jackpot.", field="jackpot")
        comparison = compare(casino=jackpot.casino, candidates=[candidate], jackpot=jackpot, deals=options["deals"],
                             seed=options["seed"], players=options["players"], maximum_deals=engine.MAX_DEALS)
        figures = comparison.results[0]
        return figures.as_json() | {"history": comparison.as_json()["history"][candidate.game],
                                    "jackpot": comparison.as_json()["jackpot"]}

    def _summary(self, result: dict) -> None:
        low, high = result["ci95"]
        self.stdout.write(result["description"])
        self.stdout.write(f"  {result['hits']:,} hits in {result['deals']:,} deals at {result['players']} players "
                          f"(seed {result['seed']}, {result['seconds']} s)")
        self.stdout.write(f"  probability per round of play: {result['probability']:.6%} "
                          f"(95 % CI {low:.6%} – {high:.6%})")
        if result["probability"]:
            self.stdout.write(f"  about 1 in {1 / result['probability']:,.0f} rounds of play")
        if "history" in result:
            history = result["history"]
            self.stdout.write(f"  the room: {history['rounds_per_day']:,.1f} rounds a gaming day "
                              f"({history['first_day']} – {history['last_day']})")
            days = result["days_between_hits"]
            self.stdout.write(f"  gaming days between hits: {'unknown' if days is None else f'{days:,.1f}'}")
            for span, chance in result["chance_within_days"].items():
                self.stdout.write(f"  chance of a hit within {span} days: "
                                  f"{'unknown' if chance is None else f'{chance:.2%}'}")
            if result["expected_jackpot_at_next_hit"] is not None:
                self.stdout.write(f"  expected jackpot at the next hit: ${result['expected_jackpot_at_next_hit']}")
