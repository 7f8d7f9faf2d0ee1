"""Recording and settling rounds of play: pots, side pots, conservation, bad input."""
from decimal import Decimal

import pytest
from django.utils import timezone

from apps.core.exceptions import DomainError
from apps.feed.services import DrawIn, PlayerIn, RoundIn, record_round_of_play
from apps.rounds.models import Pot, PotAward, RoundOfPlay, RoundPlayer
from apps.tables.models import Game
from tests.factories import JackpotFactory, PokerTableFactory, RakeStructureFactory

D = Decimal
pytestmark = pytest.mark.django_db


def round_in(players, board="", **kwargs):
    return RoundIn(players=players, board=board, started_at=timezone.now(), **kwargs)


def conserved(round_of_play: RoundOfPlay) -> None:
    """Sum of contributions = uncalled returned + awarded + rake + bad-beat contribution, to the cent."""
    put_in = sum(p.contributed for p in round_of_play.players.all())
    returned = sum(p.returned for p in round_of_play.players.all())
    awarded = sum(a.amount for a in PotAward.objects.filter(pot__round_of_play=round_of_play))
    rake = round_of_play.rake_record.amount
    contribution = sum(c.amount for c in round_of_play.bad_beat_contributions.all())
    assert put_in == returned + awarded + rake + contribution
    assert awarded == sum(p.awarded for p in round_of_play.players.all())


@pytest.mark.proves("14.7(c)4-side-pots", "14.6(d)", "14.6(e)5-award", "14.6(e)8", "14.6(e)9", "14.19(c)-per-pot",
                    "14.10(j)-winner")
def test_14_7_c_4_side_pots_for_an_all_in_player():
    """Seat 1 is all in for $50; seats 2 and 3 bet $200 each: the main pot $150 (all three), side pot $300. After the
    showdown each pot goes to its hand of highest rank (14.6(d), 14.6(e)5), less what was taken from it; the rake (14.6(e)8, 14.14) and the bad beat contribution
    (14.6(e)9, 14.19) are collected from the main pot before it is awarded."""
    table = RakeStructureFactory().table
    JackpotFactory(casino=table.casino)
    round_of_play = record_round_of_play(table=table, round_in=round_in([
        PlayerIn(seat=1, contributed=D("50.00"), hole_cards="As Ad"),    # best hand: wins the main pot
        PlayerIn(seat=2, contributed=D("200.00"), hole_cards="Ks Kd"),   # second best: wins the side pot
        PlayerIn(seat=3, contributed=D("200.00"), hole_cards="7c 2d"),
    ], board="Ah Kc 5s 9d 3c"))
    pots = list(Pot.objects.filter(round_of_play=round_of_play).order_by("index"))
    assert [p.gross for p in pots] == [D("150.00"), D("300.00")]
    assert pots[0].eligible_seats == [1, 2, 3] and pots[1].eligible_seats == [2, 3]
    # rake $5 and contribution $1 come out of the main pot first
    assert pots[0].deducted == D("6.00") and pots[0].amount == D("144.00")
    winners = {p.seat: p.awarded for p in round_of_play.players.all() if p.awarded}
    assert winners == {1: D("144.00"), 2: D("300.00")}
    conserved(round_of_play)
    # the rake collected is on record with how it was computed, and in the table's running total of the hour
    rake = round_of_play.rake_record
    assert (rake.amount, rake.basis, rake.percentage, rake.maximum) == (D("5.00"), D("450.00"), D("10.00"), D("5.00"))
    from apps.rake.models import TableHourRake
    hour = TableHourRake.objects.get(table=table)
    assert (hour.rounds, hour.basis, hour.amount) == (1, D("450.00"), D("5.00"))


@pytest.mark.proves("14.10(j)-winner")
def test_14_10_j_what_is_taken_beyond_the_main_pot_comes_from_the_side_pot_its_winner_takes():
    """Seat 1, all in for $1 with the best hand, wins the main pot of $3; the rake ($5, the posted maximum) and the bad
    beat contribution ($1) take all of it and $3 of the $98 side pot, which the better of the two left (seat 2's
    kings) takes: $95. Seat 3 wins nothing."""
    table = RakeStructureFactory().table
    JackpotFactory(casino=table.casino)
    round_of_play = record_round_of_play(table=table, round_in=round_in([
        PlayerIn(seat=1, contributed=D("1.00"), hole_cards="As Ad"),
        PlayerIn(seat=2, contributed=D("50.00"), hole_cards="Ks Kd"),
        PlayerIn(seat=3, contributed=D("50.00"), hole_cards="7c 2d"),
    ], board="Ah Kc 5s 9d 3c"))
    pots = list(Pot.objects.filter(round_of_play=round_of_play).order_by("index"))
    assert [(p.gross, p.deducted, p.amount) for p in pots] == [(D("3.00"), D("3.00"), D("0.00")),
                                                              (D("98.00"), D("3.00"), D("95.00"))]
    assert {p.seat: p.awarded for p in round_of_play.players.all()} == {1: D("0.00"), 2: D("95.00"), 3: D("0.00")}
    conserved(round_of_play)


@pytest.mark.proves("14.10(j)-board-plays")
def test_14_10_j_board_plays_splits_the_pot():
    table = PokerTableFactory()
    round_of_play = record_round_of_play(table=table, round_in=round_in([
        PlayerIn(seat=1, contributed=D("20.00"), hole_cards="2c 3d"),
        PlayerIn(seat=2, contributed=D("20.00"), hole_cards="4c 5d"),
    ], board="As Ks Qs Js Ts"))
    assert {p.seat: p.awarded for p in round_of_play.players.all()} == {1: D("20.00"), 2: D("20.00")}
    conserved(round_of_play)


@pytest.mark.proves("14.6(e)5-award", "14.6(d)")
def test_everyone_folds_to_the_last_player_without_a_showdown():
    """14.6(e)5: when all other players have folded, the pot goes to the last player remaining, with no showdown
    (the uncalled part of the bet given back)."""
    table = PokerTableFactory()
    round_of_play = record_round_of_play(table=table, round_in=round_in([
        PlayerIn(seat=1, contributed=D("1.00"), folded=True),
        PlayerIn(seat=2, contributed=D("6.00")),
        PlayerIn(seat=3, contributed=D("2.00"), folded=True),
    ]))
    assert not round_of_play.went_to_showdown
    assert round_of_play.uncalled_amount == D("4.00")
    assert {p.seat: p.awarded for p in round_of_play.players.all() if p.awarded} == {2: D("5.00")}
    conserved(round_of_play)


@pytest.mark.parametrize(("players", "board", "field", "words"), [
    ([PlayerIn(seat=1, contributed=D("2"), hole_cards="Ax Kd"), PlayerIn(seat=2, contributed=D("2"), hole_cards="2c 3c")],
     "5h 6h 7h 8h 9h", "players[0].hole_cards", "Unknown card"),
    ([PlayerIn(seat=1, contributed=D("2"), hole_cards="As Kd"), PlayerIn(seat=2, contributed=D("2"), hole_cards="As 3c")],
     "5h 6h 7h 8h 9h", "players", "Duplicate"),
    ([PlayerIn(seat=1, contributed=D("2"), hole_cards="As Kd"), PlayerIn(seat=2, contributed=D("2"), hole_cards="2c 3c")],
     "5h 6h 7h 8h Kd", "players", "Duplicate"),
    ([PlayerIn(seat=1, contributed=D("2"), hole_cards="As Kd Qd"), PlayerIn(seat=2, contributed=D("2"), hole_cards="2c 3c")],
     "5h 6h 7h 8h 9h", "players[0].hole_cards", "hold 2 cards, got 3"),
    ([PlayerIn(seat=1, contributed=D("2"), hole_cards="As Kd"), PlayerIn(seat=2, contributed=D("2"), hole_cards="2c 3c")],
     "5h 6h 7h 8h 9h Td", "board", "at most 5 community cards"),
    ([PlayerIn(seat=1, contributed=D("2"), hole_cards="As Kd")], "", "players", "two players"),
    ([PlayerIn(seat=1, contributed=D("-2"), hole_cards="As Kd"), PlayerIn(seat=2, contributed=D("2"))],
     "", "players[0].contributed", "at least"),
    ([PlayerIn(seat=1, contributed=D("2"), hole_cards="As Kd"), PlayerIn(seat=2, contributed=D("2"))],
     "5h 6h 7h 8h 9h", "players", "hole cards of seat(s) 2"),
])
@pytest.mark.proves("14.2(a)-one-deck")
def test_bad_input_is_refused_with_the_field_and_nothing_is_stored(players, board, field, words):
    table = PokerTableFactory()
    with pytest.raises(DomainError) as exc:
        record_round_of_play(table=table, round_in=round_in(players, board=board))
    assert exc.value.field == field
    assert words in exc.value.message
    assert not RoundOfPlay.objects.exists() and not RoundPlayer.objects.exists()


@pytest.mark.parametrize(("game", "holding", "board"), [
    (Game.HOLDEM, ("As Kd", "2c 3c"), "5h 6h 7h 8h 9h"),
    (Game.OMAHA, ("As Kd Qc Jc", "2c 3c 4d 5d"), "5h 6h 7h 8h 9h"),
])
@pytest.mark.proves("14.10(e)-two-cards", "14.11(d)-four-cards")
def test_14_10_e_and_14_11_d_each_player_holds_the_games_hole_cards_no_more_no_fewer(game, holding, board):
    """Hold 'em deals each player two cards (14.10(e)), Omaha four (14.11(d)): a round reporting a player with one
    card fewer or one more, or one that is no card, is refused on that player's hole cards, nothing stored; the right
    number is recorded."""
    table = PokerTableFactory(game=game)
    deck = iter("Ts Tc Td Th 9c 9d".split())
    n = len(holding[0].split())
    for count in (n - 1, n + 1):
        cards = " ".join([*holding[0].split(), next(deck)][:count])
        players = [PlayerIn(seat=1, contributed=D("2"), hole_cards=cards),
                   PlayerIn(seat=2, contributed=D("2"), hole_cards=holding[1])]
        with pytest.raises(DomainError) as exc:
            record_round_of_play(table=table, round_in=round_in(players, board=board))
        assert exc.value.field == "players[0].hole_cards"
        assert f"hold {n} cards, got {count}" in exc.value.message
        assert not RoundOfPlay.objects.exists() and not RoundPlayer.objects.exists()
    with pytest.raises(DomainError) as exc:  # the right number, one of which is no card
        record_round_of_play(table=table, round_in=round_in([
            PlayerIn(seat=1, contributed=D("2"), hole_cards=holding[0]),
            PlayerIn(seat=2, contributed=D("2"), hole_cards=" ".join(["Xx", *holding[1].split()[1:]]))], board=board))
    assert exc.value.field == "players[1].hole_cards" and exc.value.message.startswith("Seat 2: ")
    assert not RoundOfPlay.objects.exists()
    players = [PlayerIn(seat=1, contributed=D("2"), hole_cards=holding[0]),
               PlayerIn(seat=2, contributed=D("2"), hole_cards=holding[1])]
    recorded = record_round_of_play(table=table, round_in=round_in(players, board=board))
    assert [len(p.hole_cards.split()) for p in recorded.players.order_by("seat")] == [n, n]


def test_a_source_hand_is_stored_once():
    table = PokerTableFactory()
    players = [PlayerIn(seat=1, contributed=D("1")), PlayerIn(seat=2, contributed=D("2"), folded=True)]
    record_round_of_play(table=table, round_in=round_in(players, source_digest="a" * 64))
    with pytest.raises(DomainError):
        record_round_of_play(table=table, round_in=round_in(players, source_digest="a" * 64))
    assert RoundOfPlay.objects.count() == 1


@pytest.mark.proves("14.15(g)-dead", "14.15(g)-returned")
def test_14_15_g_a_dead_round_returns_every_chip_and_takes_nothing():
    """Missing or extra cards found during a round: the round is called dead, every chip goes back."""
    table = RakeStructureFactory().table
    JackpotFactory(casino=table.casino)
    round_of_play = record_round_of_play(table=table, round_in=round_in([
        PlayerIn(seat=1, contributed=D("60.00"), hole_cards="As Ad"),
        PlayerIn(seat=2, contributed=D("60.00"), hole_cards="Ks Kd"),
        PlayerIn(seat=3, contributed=D("5.00"), folded=True),
    ], board="Ah Kc 5s", dead_reason="Deck R-1 counted 51 cards"))
    assert round_of_play.is_dead and round_of_play.pot_total == 0
    assert {p.seat: p.returned for p in round_of_play.players.all()} == {1: D("60.00"), 2: D("60.00"), 3: D("5.00")}
    assert not round_of_play.pots.exists()
    assert not hasattr(round_of_play, "rake_record") or round_of_play.rake_record is None
    from apps.badbeat.models import Contribution, Jackpot

    assert not Contribution.objects.exists() and Jackpot.objects.get().balance == 0
    put_in = sum(p.contributed for p in round_of_play.players.all())
    assert put_in == sum(p.returned for p in round_of_play.players.all()) == round_of_play.refunded_amount


@pytest.mark.proves("14.19(c)-after-rake", "14.19(c)-per-pot")
def test_14_19_c_the_contribution_is_computed_from_the_pot_after_the_rake():
    """The money path takes the rake first (14.14), then the bad beat contribution from what is left (14.19(c)):
    10 % of a $200 pot is $20 of rake; 5 % of the $180 left is $9.00 (it would be $10.00 from the whole pot)."""
    table = RakeStructureFactory(percentage=D("10"), maximum=D("50"), increment=D("0.01")).table
    JackpotFactory(casino=table.casino, minimum_pot=D("20"), contribution_amount=None,
                   contribution_percentage=D("5"), maximum_contribution=D("20"))
    round_of_play = record_round_of_play(table=table, round_in=round_in([
        PlayerIn(seat=1, contributed=D("100.00"), hole_cards="As Ad"),
        PlayerIn(seat=2, contributed=D("100.00"), hole_cards="Ks Kd")], board="2c 7d 9h Jc 3s"))
    contribution = round_of_play.bad_beat_contributions.get()
    assert round_of_play.rake_record.amount == D("20.00")
    assert (contribution.basis, contribution.amount) == (D("180.00"), D("9.00"))
    assert "5.00% of $180.00 after rake = $9.00" in contribution.explanation
    assert round_of_play.pots.get().deducted == D("29.00")
    conserved(round_of_play)


def test_14_19_c_the_money_path_reads_in_the_regulations_order():
    """One function, read top to bottom: the steps appear in record_batch_of_rounds in the order of the regulation,
    each a named service of the app that owns it; no step is reached through a settings string or a signal."""
    import importlib
    import inspect
    import pkgutil

    from apps.feed import services

    source = inspect.getsource(services.record_batch_of_rounds)
    steps = ["verify_round(", "build_round(", "rake.take_rake(", "badbeat.contributions_owed(", "_settle(",
             "badbeat.lock_jackpots(", "badbeat.take_contributions(", "records.move_kill_button(",
             "decks.record_round_decks(", "badbeat.check_showdowns("]
    positions = [source.index(step) for step in steps]
    assert positions == sorted(positions)
    modules = [services] + [importlib.import_module(f"{services.__name__}.{m.name}")
                            for m in pkgutil.iter_modules(services.__path__)]
    assert len(modules) > 1 and ".send(" not in source
    for module in modules:  # the package's every module
        assert "import_string" not in inspect.getsource(module), module.__name__
    from django.conf import settings

    assert not hasattr(settings, "POT_DEDUCTIONS") and not hasattr(settings, "BAD_BEAT_SHARED_PAYOUT")


def _jackpot_row_locked() -> bool:
    """Whether this transaction holds a row lock of a jackpot (select_for_update: RowShareLock on the table)."""
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("SELECT count(*) FROM pg_locks WHERE pid = pg_backend_pid() AND mode = 'RowShareLock' "
                       "AND relation = 'badbeat_jackpot'::regclass")
        return cursor.fetchone()[0] > 0


def _aces_win_200():
    """A $200 pot, seat 1's aces against seat 2's kings."""
    return round_in([PlayerIn(seat=1, contributed=D("100.00"), hole_cards="As Ad"),
                     PlayerIn(seat=2, contributed=D("100.00"), hole_cards="Ks Kd")], board="2c 7d 9h Jc 3s")


def _two_rounds(table):
    """Two rounds of `_aces_win_200` at `table`, recorded in one batch."""
    from apps.feed.services import record_batch_of_rounds

    return record_batch_of_rounds(rounds=[(table, _aces_win_200())] * 2)


def _lock_when_awarded(monkeypatch) -> list[bool]:
    """Whether the jackpots were row-locked each time the money path awarded pots (money_path._settle), appended as
    it happens."""
    from apps.feed.services import money_path

    settle, locked = money_path._settle, []

    def noted(*args):
        locked.append(_jackpot_row_locked())
        return settle(*args)

    monkeypatch.setattr(money_path, "_settle", noted)
    return locked


def test_14_19_c_a_batchs_pots_are_awarded_before_the_jackpots_are_locked_from_what_the_contribution_takes(
        monkeypatch):
    """A batch's pots are awarded (step 5) from what each round owes under the jackpots' posted terms, read without
    the lock, so that the jackpots stay row-locked for the contributions and the writing only; the contribution taken
    under the lock is what was owed, and each pot is awarded net of it (14.19(c): the contribution comes out of the
    pot after the rake, before the award). A single round is awarded under the lock (one read fewer)."""
    table = RakeStructureFactory(percentage=D("10"), maximum=D("50"), increment=D("0.01")).table
    JackpotFactory(casino=table.casino, minimum_pot=D("20"), contribution_amount=None,
                   contribution_percentage=D("5"), maximum_contribution=D("20"))
    locked_when_settled = _lock_when_awarded(monkeypatch)
    for round_of_play in _two_rounds(table):
        assert round_of_play.bad_beat_contributions.get().amount == D("9.00")
        assert round_of_play.pots.get().deducted == D("29.00")
        assert {p.seat: p.awarded for p in round_of_play.players.all()} == {1: D("171.00"), 2: D("0.00")}
        conserved(round_of_play)
    assert locked_when_settled == [False]  # awarded once, before the lock
    record_round_of_play(table=table, round_in=_aces_win_200())
    assert locked_when_settled == [False, True]  # a single round: awarded under the lock


def test_14_19_c_a_term_changed_before_the_lock_has_the_pots_awarded_again_from_what_was_taken(monkeypatch):
    """Should a jackpot's posted terms change between a batch's unlocked read and the lock (another transaction's rule
    change committing in between), the contribution taken under the lock decides: the pots are awarded again, under
    the lock, net of what was taken, and every chip is accounted for."""
    from apps.badbeat import services as badbeat

    table = RakeStructureFactory(percentage=D("10"), maximum=D("50"), increment=D("0.01")).table
    JackpotFactory(casino=table.casino, minimum_pot=D("20"), contribution_amount=D("1.00"),
                   contribution_percentage=None, maximum_contribution=D("20"))
    read = badbeat.read_jackpots

    def before_the_change(*, rounds):
        found = read(rounds=rounds)
        for jackpot in found.jackpots:
            jackpot.contribution_amount = D("3.00")  # the term as it stood before the change committed
        return found

    monkeypatch.setattr(badbeat, "read_jackpots", before_the_change)
    locked_when_settled = _lock_when_awarded(monkeypatch)
    for round_of_play in _two_rounds(table):
        assert round_of_play.bad_beat_contributions.get().amount == D("1.00")
        assert round_of_play.pots.get().deducted == D("21.00")
        assert {p.seat: p.awarded for p in round_of_play.players.all()} == {1: D("179.00"), 2: D("0.00")}
        conserved(round_of_play)
    assert locked_when_settled == [False, True]  # awarded from $3.00 owed, then again from the $1.00 taken


@pytest.mark.proves("14.6(b)-two-to-eleven")
def test_14_6_b_a_round_of_play_has_two_to_eleven_players():
    """14.6(b): poker is played by two to 11 players. A table is set up with 2 to 11 seats (hold 'em), a round of one
    player is refused, and so is a seat numbered past 11; a round of two at the table is recorded."""
    from apps.tables.services import verify_table_configuration

    for seats in (1, 12):
        with pytest.raises(DomainError) as exc:
            verify_table_configuration(game="holdem", seats=seats, minimum_wager=D("2"), maximum_wager=None)
        assert exc.value.field == "seats" and "2 to 11" in exc.value.message
    for seats in (2, 3, 11):
        verify_table_configuration(game="holdem", seats=seats, minimum_wager=D("2"), maximum_wager=None)
    table = PokerTableFactory(seats=11)
    with pytest.raises(DomainError, match="at least two players") as exc:
        record_round_of_play(table=table, round_in=round_in([PlayerIn(seat=1, contributed=D("2"))]))
    assert exc.value.field == "players"
    for seat in (12, 0):
        with pytest.raises(DomainError) as exc:
            record_round_of_play(table=table, round_in=round_in([PlayerIn(seat=1, contributed=D("2")),
                                                                 PlayerIn(seat=seat, contributed=D("2"), folded=True)]))
        assert exc.value.field == "players[1].seat"
    with pytest.raises(DomainError, match="Each seat may appear once") as exc:  # two players in one seat
        record_round_of_play(table=table, round_in=round_in([PlayerIn(seat=4, contributed=D("2")),
                                                             PlayerIn(seat=4, contributed=D("2"), folded=True)]))
    omaha = PokerTableFactory(casino=table.casino, number=table.number + 1, game="omaha", seats=10)
    with pytest.raises(DomainError, match="seats at most 10 players") as exc:  # more players than the game seats
        record_round_of_play(table=omaha, round_in=round_in([PlayerIn(seat=s, contributed=D("2"), folded=s > 1)
                                                             for s in range(1, 12)]))
    assert not RoundOfPlay.objects.exists()
    record_round_of_play(table=table, round_in=round_in([PlayerIn(seat=1, contributed=D("2")),
                                                         PlayerIn(seat=11, contributed=D("1"), folded=True)]))
    record_round_of_play(table=table, round_in=round_in([PlayerIn(seat=s, contributed=D("2"), folded=s != 2)
                                                         for s in (2, 5, 9)]))  # three players
    record_round_of_play(table=omaha, round_in=round_in([PlayerIn(seat=s, contributed=D("2"), folded=s > 1)
                                                         for s in range(1, 11)]))  # as many as the game seats
    assert [r.players.count() for r in RoundOfPlay.objects.order_by("pk")] == [2, 3, 10]


def _draw_table(game, number):
    from apps.tables.models import BettingStructure
    from apps.tables.services import create_table, open_table

    return open_table(table=create_table(casino=PokerTableFactory().casino, number=number, game=game, seats=6,
                                         minimum_wager=D("2"), maximum_wager=D("4"),
                                         betting_structure=BettingStructure.FIXED_LIMIT))


@pytest.mark.parametrize(("game", "draws", "hands"), [
    ("draw_high", 1, ("Ah Kh Qh Jh Th", "2c 2d 2h 9s 9c")),
    ("triple_draw_27", 3, ("7h 5c 4c 3d 2c", "8h 6c 4d 3s 2d")),
    ("badugi", 3, ("As 2d 3h 4c", "Ks Qd Jh Tc")),
])
@pytest.mark.proves("14.12(f)-draw", "14.12A(f)-draw", "14.12A(h)", "14.12A(j)", "14.12B(f)-draw",
                    "14.12B(h)", "14.12B(j)")
def test_14_12_f_the_draws_of_each_draw_game(game, draws, hands):
    """Each player of a draw game draws (keeps or discards, each discard replaced) once in five-card draw
    (14.12(f)), three times in triple draw (14.12A(f), (h), (j)) and in badugi (14.12B(f), (h), (j)): a round with
    that many draws, standing pat or not, is recorded with each draw; one draw more is refused with the field."""
    table = _draw_table(game, 40)
    size = len(hands[0].split())
    dealt = " ".join(["5s", "6s", "7s", "8s", "9d"][:size])
    some = tuple(DrawIn(discarded=dealt.split()[0], drawn=hands[0].split()[0]) if i == 0 else DrawIn()
                 for i in range(draws))
    players = [PlayerIn(seat=1, contributed=D("4"), hole_cards=hands[0], dealt_cards=dealt, draws=some),
               PlayerIn(seat=2, contributed=D("4"), hole_cards=hands[1], draws=(DrawIn(),) * draws)]
    round_of_play = record_round_of_play(table=table, round_in=round_in(players))
    first = round_of_play.players.get(seat=1)
    assert len(first.draws) == draws and first.draws[0]["drawn"] == hands[0].split()[0]
    # fewer draws are a player who folded before the last one: recorded
    folded = PlayerIn(seat=3, contributed=D("2"), folded=True, dealt_cards=" ".join("Jc Jd Js Kc Kd".split()[:size]))
    fewer = record_round_of_play(table=table, round_in=round_in([*players, folded]))
    assert fewer.players.get(seat=3).draws == []
    too_many = [players[0], PlayerIn(seat=2, contributed=D("4"), hole_cards=hands[1], draws=(DrawIn(),) * (draws + 1))]
    with pytest.raises(DomainError, match=f"{draws} draw") as exc:
        record_round_of_play(table=table, round_in=round_in(too_many))
    assert exc.value.field == "players[1].draws"
    assert RoundOfPlay.objects.count() == 2


@pytest.mark.proves("14.12(f)2-reshuffle")
def test_14_12_f_2_in_a_draw_game_discards_reshuffled_may_be_dealt_again():
    """14.12(f)2: when the deck runs short the discards are reshuffled and dealt again, so in a draw game a folded
    hand's card may be found in another player's final hand (refused as a duplicate in hold 'em, where no card is
    dealt twice); two hands held to the end still never share a card."""
    draw = _draw_table("draw_high", 41)
    players = [PlayerIn(seat=1, contributed=D("2"), hole_cards="As Ad 7c 8c 9h", folded=True),
               PlayerIn(seat=2, contributed=D("4"), hole_cards="As Ks Qs Js 2s",
                        draws=(DrawIn(discarded="3d", drawn="As"),)),
               PlayerIn(seat=3, contributed=D("4"), hole_cards="Kd Kh Kc 4c 5d", draws=(DrawIn(),))]
    round_of_play = record_round_of_play(table=draw, round_in=round_in(players))
    assert round_of_play.players.get(seat=2).awarded > 0
    # only discards and folded hands are reshuffled: two hands held to the end never share a card
    with pytest.raises(DomainError, match="Duplicate") as exc:
        record_round_of_play(table=draw, round_in=round_in([
            PlayerIn(seat=1, contributed=D("4"), hole_cards="As Ad 7c 8c 9h"),
            PlayerIn(seat=2, contributed=D("4"), hole_cards="As Ks Qs Js 2s")]))
    assert exc.value.field == "players" and RoundOfPlay.objects.count() == 1
    holdem = PokerTableFactory()
    with pytest.raises(DomainError, match="Duplicate"):
        record_round_of_play(table=holdem, round_in=round_in([
            PlayerIn(seat=1, contributed=D("2"), hole_cards="As Ad", folded=True),
            PlayerIn(seat=2, contributed=D("4"), hole_cards="As Ks"),
            PlayerIn(seat=3, contributed=D("4"), hole_cards="Kd Kh")], board="2c 7d 9h Jc 3s"))


@pytest.mark.proves("14.15(d)-shown", "14.15(d)-conceded")
def test_14_15_d_the_winning_hand_is_shown_and_a_losing_hand_may_be_conceded():
    """14.15(d): at the showdown the winning hand is shown in its entirety: a contender still in without cards is
    refused (the showdown needs them); a player holding a losing hand may concede it unshown (mucked), and takes
    no part in the pot."""
    table = PokerTableFactory()
    with pytest.raises(DomainError, match="hole cards of seat"):
        record_round_of_play(table=table, round_in=round_in([
            PlayerIn(seat=1, contributed=D("10.00"), hole_cards="As Ad"),
            PlayerIn(seat=2, contributed=D("10.00"))], board="2c 7d 9h Jc 3s"))
    assert not RoundOfPlay.objects.exists()
    round_of_play = record_round_of_play(table=table, round_in=round_in([
        PlayerIn(seat=1, contributed=D("10.00"), hole_cards="As Ad"),
        PlayerIn(seat=2, contributed=D("10.00"), mucked=True)], board="2c 7d 9h Jc 3s"))
    players = {p.seat: p for p in round_of_play.players.all()}
    assert players[1].awarded == D("20.00") and players[2].awarded == 0
    assert players[1].hole_cards == "As Ad" and players[2].hole_cards == ""
    # every hand shown (three players, one all in: a main pot and a side pot, each contested): recorded
    shown = record_round_of_play(table=table, round_in=round_in([
        PlayerIn(seat=1, contributed=D("5.00"), hole_cards="Kc Kd"),
        PlayerIn(seat=2, contributed=D("10.00"), hole_cards="Qc Qd"),
        PlayerIn(seat=3, contributed=D("10.00"), hole_cards="4c 5d")], board="2c 7d 9h Jc 3s"))
    assert {p.seat: p.awarded for p in shown.players.all()} == {1: D("15.00"), 2: D("10.00"), 3: D("0.00")}
