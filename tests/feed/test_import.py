"""PHH imports: real hands and hands of every variant, routed to the tables that deal them, per-variant summaries,
refusals, idempotence, and no lock held across the batches of a long import."""
import random
import threading
from decimal import Decimal
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command
from django.db import connection, connections
from django.db.models import Sum
from django.utils import timezone

from apps.badbeat.models import Contribution, Jackpot
from apps.badbeat.selectors import day_totals_agree, ledger
from apps.core.roles import Role
from apps.feed.phh import parse_phh
from apps.feed.services import ImportSummary, PlayerIn, RoundIn, import_phh, record_round_of_play
from apps.rake.models import RakeRecord
from apps.rounds.models import PotAward, RoundOfPlay, RoundPlayer
from apps.tables.models import BettingStructure, Game
from apps.tables.services import create_table, open_table
from tests.factories import JackpotFactory, PokerTableFactory, RakeStructureFactory
from tests.support.phh_hands import random_file

PHH_DIR = Path(__file__).resolve().parents[2].parent / "shared" / "data" / "phh"
PLURIBUS = PHH_DIR / "pluribus"
D = Decimal
pytestmark = pytest.mark.django_db

BAD_CARD_PHH = """variant = 'NT'
antes = [0, 0]
blinds_or_straddles = [1, 2]
min_bet = 2
starting_stacks = [200, 200]
actions = ['d dh p1 AsXd', 'd dh p2 7c2d', 'p2 f']
"""
DUPLICATE_CARD_PHH = BAD_CARD_PHH.replace("AsXd", "AsKd").replace("7c2d", "As2d")


@pytest.fixture
def table():
    table = RakeStructureFactory(table__small_blind=D("50"), table__big_blind=D("100"), table__seats=6,
                                 maximum=D("15.00"), minimum_pot=D("10.00")).table
    JackpotFactory(casino=table.casino, minimum_pot=D("20.00"), contribution_amount=D("1.00"))
    return table


def import_quietly(*paths, table=None, casino=None, backfill_by=None):
    """import_phh of `paths`, its output; `backfill_by`: an administrator's backfill (for hands dated in the past)."""
    out = StringIO()
    options = ["--table", str(table.number)] if table is not None else ["--casino", casino.code]
    if backfill_by is not None:
        options += ["--backfill", "--by", backfill_by.username]
    call_command("import_phh", *map(str, paths), *options, "--no-progress", stdout=out)
    return out.getvalue()


def snapshot():
    return (RoundOfPlay.objects.count(), RoundPlayer.objects.count(), PotAward.objects.count(),
            RakeRecord.objects.count(), Contribution.objects.count(), Jackpot.objects.get().balance)


@pytest.mark.slow
@pytest.mark.django_db(transaction=True)  # committed batch by batch, as the command runs
def test_all_10000_pluribus_hands_import_conserve_chips_and_match_the_recorded_winners(table):
    """Every round: put in = returned + awarded + rake + contribution; the engine's winners are the PHH's; the
    jackpot's balance and the gaming day's running total equal their records (14.19(c), (p))."""
    output = import_quietly(PLURIBUS, table=table)
    assert "Imported 10000 rounds" in output and "NT     imported  10000" in output
    assert RoundOfPlay.objects.count() == 10000

    put_in = RoundPlayer.objects.aggregate(t=Sum("contributed"))["t"]
    returned = RoundPlayer.objects.aggregate(t=Sum("returned"))["t"]
    awarded = PotAward.objects.aggregate(t=Sum("amount"))["t"]
    rake = RakeRecord.objects.aggregate(t=Sum("amount"))["t"]
    contributions = Contribution.objects.aggregate(t=Sum("amount"))["t"]
    assert put_in == returned + awarded + rake + contributions
    jackpot = Jackpot.objects.get()
    assert jackpot.balance + jackpot.reset_reserve == contributions
    assert (ledger(jackpot=jackpot).balance, day_totals_agree(jackpot=jackpot)) == (jackpot.balance, [])

    stored = {r.source_name: r for r in RoundOfPlay.objects.prefetch_related("players", "pots__awards")}
    checked_showdowns = mismatches = 0
    for path in sorted(PLURIBUS.glob("*.phhs")):
        for hand in parse_phh(path.read_text(), name=path.name):
            round_of_play = stored[hand.round_in.source_name]
            players = {p.seat: p for p in round_of_play.players.all()}
            deducted = sum(pot.deducted for pot in round_of_play.pots.all())
            assert sum(p.contributed for p in players.values()) == (
                sum(p.returned for p in players.values()) + sum(p.awarded for p in players.values()) + deducted)
            phh_winners = {
                seat for seat, p in players.items()
                if hand.finishing_stacks[seat - 1] - p.starting_stack + p.contributed - p.returned > 0}
            ours = {seat for seat, p in players.items() if p.awarded > 0}
            if round_of_play.went_to_showdown:
                checked_showdowns += 1
            mismatches += phh_winners != ours
    assert mismatches == 0
    assert checked_showdowns > 500

    before = snapshot()
    assert "Imported 0 rounds" in import_quietly(PLURIBUS, table=table)
    assert snapshot() == before


def test_a_famous_televised_hand_imports_with_its_side_pot_and_hidden_cards(table):
    """Dwan-Ivey 2009: Antonius folds unseen cards ('????'); Ivey's excess over Dwan's all-in is returned."""
    import_quietly(PHH_DIR / "dwan-ivey-2009.phh", table=table)
    round_of_play = RoundOfPlay.objects.get()
    players = {p.name: p for p in round_of_play.players.all()}
    assert round_of_play.went_to_showdown
    assert players["Patrik Antonius"].hole_cards == "" and players["Patrik Antonius"].folded
    assert players["Tom Dwan"].high_hand == "Straight" and players["Tom Dwan"].awarded > 0
    assert players["Phil Ivey"].awarded == 0


def test_with_a_table_a_hand_of_another_game_is_refused_and_named(table):
    """Antonius-Blom 2009 (PO) is refused at a hold 'em table with --table, and recorded at an Omaha table under
    14.11(f): exactly two hole and three board cards."""
    omaha = PokerTableFactory(casino=table.casino, number=table.number + 1, game=Game.OMAHA, seats=10,
                              betting_structure=BettingStructure.POT_LIMIT)
    with pytest.raises(CommandError, match="does not deal Omaha.*cannot be recorded there"):
        import_quietly(PHH_DIR / "antonius-blom-2009.phh", table=table)
    assert not RoundOfPlay.objects.exists()
    import_quietly(PHH_DIR / "antonius-blom-2009.phh", table=omaha)
    players = {p.name: p for p in RoundOfPlay.objects.get().players.all()}
    assert players["Patrik Antonius"].high_hand and players["Victor Blom"].high_hand
    assert sum(p.awarded for p in players.values()) > 0


def test_short_deck_is_refused_with_a_message_that_names_it(table):
    """NS (36 cards) is no game of 14.8: refused, naming the variant; nothing stored."""
    with pytest.raises(CommandError, match=r"variant 'NS' is not taken in: short-deck hold 'em"):
        import_quietly(PHH_DIR / "phua-xuan-2019.phh", table=table)
    assert not RoundOfPlay.objects.exists()


def test_draw_games_of_the_shared_hands_are_taken_in(casino, staff):
    """Badugi (FB, 14.12B) and 2-7 triple draw (F2L3D, 14.12A) go to the tables that deal them, with the draws
    recorded; the badugi hand's hidden cards are known only at the showdown. The 2019 hand is historic: an
    administrator's backfill records it."""
    badugi = open_table(table=create_table(casino=casino, number=1, game=Game.BADUGI, seats=6, minimum_wager=D("2"),
                                           maximum_wager=D("4"), betting_structure=BettingStructure.FIXED_LIMIT))
    triple = open_table(table=create_table(casino=casino, number=2, game=Game.TRIPLE_DRAW_27, seats=6,
                                           minimum_wager=D("150000"), maximum_wager=D("300000"),
                                           betting_structure=BettingStructure.FIXED_LIMIT))
    output = import_quietly(PHH_DIR / "alice-carol-wikipedia.phh", PHH_DIR / "arieh-yockey-2019.phh", casino=casino,
                            backfill_by=staff(Role.ADMIN))
    assert "FB     imported      1" in output and "F2L3D  imported      1" in output
    yockey = RoundPlayer.objects.get(round_of_play__table=triple, name="Bryce Yockey")
    arieh = RoundPlayer.objects.get(round_of_play__table=triple, name="Josh Arieh")
    assert yockey.dealt_cards == "7h 6c 4c 3d 2c" and [d["discarded"] for d in yockey.draws] == ["", "", ""]
    assert arieh.dealt_cards == "As Qs 6s 5c 3c"
    assert arieh.draws == [{"discarded": "As Qs", "drawn": "2h Qh"}, {"discarded": "Qh", "drawn": "4d"},
                           {"discarded": "6s", "drawn": "7c"}]
    # 7-5-4-3-2, the best deuce-to-seven hand, beats Yockey's 7-6-4-3-2 (14.3(e) proviso, (f), 14.12A(l))
    assert arieh.hole_cards == "2h 4d 7c 5c 3c" and arieh.awarded > 0 and yockey.awarded == 0
    assert (arieh.low_hand, yockey.low_hand) == ("Seven-low", "Seven-low")
    carol, alice = (RoundPlayer.objects.get(round_of_play__table=badugi, name=n) for n in ("Carol", "Alice"))
    # two badugis: the lowest wins, highest card first: 8-7-5-3 beats 9-6-4-2 (14.12B(l)1)
    assert (carol.low_hand, alice.low_hand) == ("Badugi", "Badugi") and carol.awarded > 0 and alice.awarded == 0


@pytest.fixture
def every_game_room(casino):
    """A room with a table of each game and structure the PHH variants name, and a mixed-game table."""
    tables = [(Game.HOLDEM, BettingStructure.NO_LIMIT), (Game.HOLDEM, BettingStructure.FIXED_LIMIT),
              (Game.OMAHA, BettingStructure.POT_LIMIT), (Game.OMAHA_HILO8, BettingStructure.FIXED_LIMIT),
              (Game.STUD, BettingStructure.FIXED_LIMIT), (Game.STUD_HILO8, BettingStructure.FIXED_LIMIT),
              (Game.STUD_LOW, BettingStructure.FIXED_LIMIT), (Game.TRIPLE_DRAW_27, BettingStructure.FIXED_LIMIT),
              (Game.BADUGI, BettingStructure.FIXED_LIMIT)]
    for number, (game, structure) in enumerate(tables, start=1):
        open_table(table=create_table(casino=casino, number=number, game=game, betting_structure=structure, seats=7,
                                      minimum_wager=D("2"), bad_beat_participation=True))
    JackpotFactory(casino=casino, minimum_pot=D("1"), contribution_amount=D("1.00"))
    open_table(table=create_table(casino=casino, number=20, seats=6, rotation_name="Players Championship", rotation=[
        {"game": Game.HOLDEM, "betting_structure": BettingStructure.NO_LIMIT, "minimum_wager": D("2")},
        {"game": Game.SINGLE_DRAW_27, "betting_structure": BettingStructure.NO_LIMIT, "minimum_wager": D("50"),
         "small_blind": D("25"), "big_blind": D("50")}]))
    return casino


def test_a_folder_of_mixed_variants_goes_in_without_a_table_with_a_summary_per_variant(every_game_room, tmp_path):
    """Every variant goes to a table dealing its game (2-7 single draw only at the mixed-game table); the summary
    lists each variant; short-deck is refused with the reason; importing again changes nothing."""
    rng = random.Random(2026)
    variants = ["NT", "FT", "PO", "FO/8", "F7S", "F7S/8", "FR", "F2L3D", "N2L1D", "FB", "NS"]
    for code in variants:
        (tmp_path / f"{code.replace('/', '-')}.phhs").write_text(random_file(code, rng, 6))
    output = import_quietly(tmp_path, casino=every_game_room)
    for code in variants[:-1]:
        assert f"{code:<6} imported      6, already stored      0, refused    0" in output, output
    assert "NS     imported      0, already stored      0, refused    6" in output
    assert "short-deck hold 'em (36 cards) is not a game of N.J.A.C. 13:69F-14.8" in output
    single_draw = RoundOfPlay.objects.filter(game=Game.SINGLE_DRAW_27)
    assert single_draw.count() == 6 and {r.table.number for r in single_draw} == {20}
    assert all(r.rotation_game.game == Game.SINGLE_DRAW_27 for r in single_draw)
    assert {r.game for r in RoundOfPlay.objects.filter(table__number=2)} == {Game.HOLDEM}
    assert set(RoundOfPlay.objects.filter(table__number=2).values_list("betting_structure", flat=True)) == {
        BettingStructure.FIXED_LIMIT}
    before = RoundOfPlay.objects.count()
    again = import_quietly(tmp_path, casino=every_game_room)
    assert "Imported 0 rounds" in again and "N2L1D  imported      0, already stored      6" in again
    assert RoundOfPlay.objects.count() == before


def test_a_hand_no_table_deals_is_refused_and_the_others_go_in(casino, tmp_path):
    open_table(table=create_table(casino=casino, number=1, game=Game.HOLDEM, seats=9, minimum_wager=D("2")))
    rng = random.Random(3)
    (tmp_path / "mixed.phhs").write_text(random_file("NT", rng, 3) + "\n[9]\n" +
                                         random_file("FB", rng, 1).split("[1]\n", 1)[1])
    output = import_quietly(tmp_path, casino=casino)
    assert "NT     imported      3" in output and "FB     imported      0, already stored      0, refused    1" in output
    assert "no table of the casino deals Badugi" in output
    assert RoundOfPlay.objects.count() == 3


def test_a_text_that_is_not_phh_is_a_command_error_and_stores_nothing_of_the_file(table, tmp_path):
    """TOML that cannot be read is no PHH at all: the whole file is refused, its good hand with it."""
    good = sorted(PLURIBUS.glob("*.phhs"))[0].read_text().split("\n\n")[0]  # one good hand, then no TOML
    path = tmp_path / "bad.phhs"
    path.write_text(f"{good}\n\n[2]\nvariant = 'NT'\nactions = [")
    with pytest.raises(CommandError) as exc:
        import_quietly(path, table=table)
    assert "not valid PHH/TOML" in str(exc.value) and "1 file(s) refused" in str(exc.value)
    assert RoundOfPlay.objects.count() == 0


@pytest.mark.parametrize(("text", "words"), [
    (BAD_CARD_PHH, "'AsXd' is not a list of cards"),
    (DUPLICATE_CARD_PHH, "duplicate card 'As'"),
    (BAD_CARD_PHH.replace("'d dh p1 AsXd', 'd dh p2 7c2d', 'p2 f'", "'d dh p1 AsKd', 'd dh p2 7c2d', 'p1 cbr 500'"),
     "p1 has 198.00 behind and cannot bet 498.00 more"),  # heads up, p1 posts the big blind
    (DUPLICATE_CARD_PHH.replace("As2d", "7c2d").replace("'p2 f'", "'p2 f', 'p2 cc'"), "p2 has folded"),
    (BAD_CARD_PHH.replace("'d dh p1 AsXd', 'd dh p2 7c2d', 'p2 f'", "'d dh p1 AsKd', 'd dh p2 7c2d', 'p1 cbr 10'"),
     "neither calling nor folding"),
])
def test_a_malformed_hand_is_refused_with_its_reason_and_the_files_other_hands_go_in(table, tmp_path, text, words):
    """Issue 35: a hand the feed cannot take (malformed, cards, actions that cannot have happened) is refused on its
    own, named with its reason in the summary; the file's good hand is stored."""
    good = sorted(PLURIBUS.glob("*.phhs"))[0].read_text().split("\n\n")[0]  # one good hand, then a bad one
    path = tmp_path / "bad.phhs"
    path.write_text(f"{good}\n\n[2]\n{text}")
    output = import_quietly(path, table=table)
    assert "Imported 1 rounds of play" in output and "1 hand(s) refused; 0 file(s) refused" in output, output
    assert "bad.phhs#2: " in output and words in output, output
    assert RoundOfPlay.objects.count() == 1


def test_a_malformed_file_does_not_stop_the_others_of_the_folder(table, tmp_path):
    (tmp_path / "a.phhs").write_text(sorted(PLURIBUS.glob("*.phhs"))[0].read_text())
    (tmp_path / "b.phh").write_text("variant = 'NT'\nactions = [")  # not PHH at all: refused whole
    with pytest.raises(CommandError, match="1 file\\(s\\) refused"):
        import_quietly(tmp_path, table=table)
    assert RoundOfPlay.objects.count() > 50


@pytest.mark.django_db(transaction=True)
def test_a_round_posted_at_another_table_is_not_blocked_by_a_long_import(table):
    """No lock is held across the batches of an import (PostgreSQL, two connections): while the import waits between
    two batches, a round at another table of the same casino, with its bad beat contribution, is recorded."""
    other = PokerTableFactory(casino=table.casino, number=table.number + 1)
    text = sorted(PLURIBUS.glob("*.phhs"))[0].read_text()
    between_batches, round_done = threading.Event(), threading.Event()
    errors: list[BaseException] = []
    counts: list[int] = []

    def progress(count):
        counts.append(count)
        if not between_batches.is_set() and RoundOfPlay.objects.filter(table=table).exists():
            between_batches.set()  # a batch has committed, and the import goes on: reading, or writing the next
            round_done.wait(timeout=30)

    def run_import():
        try:
            import_phh(casino=table.casino, text=text, name="long.phhs", table=table, progress=progress, batch_size=20)
        except BaseException as exc:  # noqa: BLE001 - reported below
            errors.append(exc)
        finally:
            connections.close_all()

    importer = threading.Thread(target=run_import)
    importer.start()
    assert between_batches.wait(timeout=60)
    try:
        with connection.cursor() as cursor:
            cursor.execute("SET lock_timeout = '5s'")  # a lock held by the import would fail this, not hang
        posted = record_round_of_play(table=other, round_in=RoundIn(started_at=timezone.now(), players=[
            PlayerIn(seat=1, contributed=D("30"), hole_cards="As Ks"), PlayerIn(seat=2, contributed=D("30"),
                                                                                 hole_cards="2c 7d")],
            board="Ah Kd 5c 9s 3h"))
        imported_then = RoundOfPlay.objects.filter(table=table).count()
    finally:
        round_done.set()
        with connection.cursor() as cursor:
            cursor.execute("RESET lock_timeout")
    importer.join(timeout=120)
    assert not errors
    assert posted.bad_beat_contributions.count() == 1
    assert 0 < imported_then < RoundOfPlay.objects.filter(table=table).count()  # the import was still under way


def test_the_summary_counts_each_hand_once(table):
    text = sorted(PLURIBUS.glob("*.phhs"))[0].read_text()
    summary = import_phh(casino=table.casino, text=text, name="a.phhs", table=table)
    hands = summary.imported
    again = import_phh(casino=table.casino, text=text, name="a.phhs", table=table, summary=ImportSummary())
    assert (again.imported, again.already_stored, again.refused) == (0, hands, 0)
    assert again.as_json()["variants"]["NT"] == {"imported": 0, "already_stored": hands, "refused": []}
