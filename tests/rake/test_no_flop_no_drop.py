""""No flop, no drop" (issue 35): a rake term posted on the table sign (N.J.A.C. 13:69F-14.14(c)) by which no rake is
taken from a hold 'em or Omaha round of play that ends before the flop. Every round here goes through the real money
path (apps.feed.services.record_round_of_play, or the PHH import)."""
from decimal import ROUND_DOWN, Decimal
from pathlib import Path

import pytest
from django.utils import timezone
from pokerkit import HandHistory
from pokerkit.state import BoardDealing

from apps.core.exceptions import DomainError
from apps.feed.services import PlayerIn, RoundIn, import_phh, record_round_of_play
from apps.rake.models import NO_FLOP_NO_DROP, RakeMethod, RakeRecord, RakeStructure, TableHourRake
from apps.rake.selectors import table_day_problems
from apps.rake.services import NO_FLOP_EXPLANATION, ended_before_the_flop, post_rake_structure
from apps.rounds.models import RoundOfPlay
from apps.tables.models import BettingStructure, Game
from apps.tables.services import create_table, open_table
from tests.factories import PokerTableFactory

D = Decimal
SESSION = Path(__file__).resolve().parents[2].parent / "shared" / "data" / "phh" / "pluribus" / "30.phhs"
INCREMENTAL_LEVELS = [{"pot": "20", "take": "1"}, {"pot": "60", "take": "2"}]
pytestmark = pytest.mark.django_db


def post(table, method: str, *, no_flop_no_drop: bool) -> RakeStructure:
    """10 % rounded down to $1, at most $5; or $1 at $20 and $2 more at $60, at most $4."""
    if method == RakeMethod.PERCENTAGE:
        return post_rake_structure(table=table, percentage=D("10"), maximum=D("5.00"), no_flop_no_drop=no_flop_no_drop)
    return post_rake_structure(table=table, method=RakeMethod.INCREMENTAL, maximum=D("4.00"), levels=INCREMENTAL_LEVELS,
                               no_flop_no_drop=no_flop_no_drop)


def deal(table, players, board="", **kwargs) -> RakeRecord:
    round_of_play = record_round_of_play(table=table, round_in=RoundIn(
        players=players, board=board, started_at=timezone.now(), **kwargs))
    return RakeRecord.objects.get(round_of_play=round_of_play)


def ended_preflop(table) -> RakeRecord:
    """A $120 pot that ends before the flop: seats 1 and 2 put in $40 each, seat 3 moves in for $200 and both fold
    (the uncalled $160 goes back, 14.14(d))."""
    return deal(table, [PlayerIn(seat=1, contributed=D("40.00"), folded=True, streets=(D("40.00"),)),
                        PlayerIn(seat=2, contributed=D("40.00"), folded=True, streets=(D("40.00"),)),
                        PlayerIn(seat=3, contributed=D("200.00"), streets=(D("200.00"),))])


def folded_on_the_flop(table, *, streets: bool = True) -> RakeRecord:
    """A $20 pot that saw the flop: $10 each before it; seat 1 bets $10 on the flop and seat 2 folds."""
    return deal(table, [PlayerIn(seat=1, contributed=D("20.00"), streets=(D("10.00"), D("10.00")) if streets else ()),
                        PlayerIn(seat=2, contributed=D("10.00"), folded=True, streets=(D("10.00"),) if streets else ())],
                board="Ah Kd 5c")


def all_in_preflop(table) -> RakeRecord:
    """A $200 pot: both all in before the flop, the board then dealt out to the showdown."""
    return deal(table, [PlayerIn(seat=1, contributed=D("100.00"), hole_cards="As Ad", streets=(D("100.00"),)),
                        PlayerIn(seat=2, contributed=D("100.00"), hole_cards="Ks Kd", streets=(D("100.00"),))],
                board="2c 7d 9h Th 3s")


#: method -> the rake of (ended preflop, folded on the flop, all in preflop) when nothing is waived
RAKE_AS_POSTED = {RakeMethod.PERCENTAGE: (D("5.00"), D("2.00"), D("5.00")),
                  RakeMethod.INCREMENTAL: (D("3.00"), D("1.00"), D("3.00"))}


@pytest.mark.parametrize("method", [RakeMethod.PERCENTAGE, RakeMethod.INCREMENTAL])
@pytest.mark.proves("14.14(c)-as-posted")
def test_14_14_c_no_flop_no_drop_waives_the_rake_of_a_round_that_ends_before_the_flop(method):
    """N.J.A.C. 13:69F-14.14(c): posted "no flop, no drop", a round that ends before the flop pays no rake however big
    its pot ($120 here), and its record says why; a round that saw the flop is raked as posted, also when everyone
    folds on the flop (with or without its betting rounds reported), and so is an all-in before the flop whose
    board is dealt out."""
    table = PokerTableFactory(bad_beat_participation=False)
    post(table, method, no_flop_no_drop=True)
    preflop, flop, all_in = RAKE_AS_POSTED[method]

    record = ended_preflop(table)
    assert (record.basis, record.amount, record.computed) == (D("120.00"), D("0.00"), D("0.00"))
    assert record.explanation == NO_FLOP_EXPLANATION == "No flop, no drop: the round ended before the flop; no rake."
    assert preflop > 0  # the same round is raked without the term (below)
    # the rake is no part of what the winner is pushed: the whole $120 pot
    assert record.round_of_play.players.get(seat=3).awarded == D("120.00")

    for record, expected in [(folded_on_the_flop(table), flop), (folded_on_the_flop(table, streets=False), flop),
                             (all_in_preflop(table), all_in)]:
        assert record.amount == expected > 0, record.explanation
        assert "No flop" not in record.explanation


@pytest.mark.parametrize("method", [RakeMethod.PERCENTAGE, RakeMethod.INCREMENTAL])
@pytest.mark.proves("14.14(c)-as-posted")
def test_14_14_c_without_the_term_a_round_that_ends_before_the_flop_is_raked_as_before(method):
    """N.J.A.C. 13:69F-14.14(b), (c): a rake that does not post "no flop, no drop" rakes the same rounds as posted."""
    table = PokerTableFactory(bad_beat_participation=False)
    structure = post(table, method, no_flop_no_drop=False)
    assert structure.no_flop_no_drop is False and "no flop" not in structure.label
    taken = (ended_preflop(table), folded_on_the_flop(table), all_in_preflop(table))
    assert tuple(r.amount for r in taken) == RAKE_AS_POSTED[method]
    assert "No flop" not in taken[0].explanation


def test_14_14_the_running_totals_agree_with_the_records_of_rounds_not_raked(casino):
    """N.J.A.C. 13:69F-14.14: the hour's running total (TableHourRake) counts a round not raked under "no flop, no
    drop" as a round with its basis and no rake, and still equals the totals re-derived from the records."""
    table = PokerTableFactory(casino=casino, bad_beat_participation=False)
    post(table, RakeMethod.PERCENTAGE, no_flop_no_drop=True)
    records = [ended_preflop(table), folded_on_the_flop(table), all_in_preflop(table), ended_preflop(table)]
    gaming_day = records[0].gaming_day
    kept = TableHourRake.objects.filter(table=table, gaming_day=gaming_day)
    assert sum(t.rounds for t in kept) == 4
    assert sum(t.basis for t in kept) == D("460.00")
    assert sum(t.amount for t in kept) == D("7.00") == sum(r.amount for r in records)
    assert table_day_problems(casino=casino, gaming_day=gaming_day) == []


def flop_dealt_by_hand() -> dict[str, bool]:
    """Per hand of the Pluribus session, whether pokerkit's replay (not our code) dealt a board card."""
    seen = {}
    for number, hh in enumerate(HandHistory.loads_all(SESSION.read_text()), start=1):
        state = None
        for state, _ in hh.state_actions:  # noqa: B007
            pass
        assert state is not None
        seen[f"{SESSION.name}#{number}"] = any(isinstance(op, BoardDealing) for op in state.operations)
    return seen


@pytest.mark.proves("14.14(c)-as-posted", "14.14(b)1-ten-percent", "14.14(b)1-per-betting-round")
def test_14_14_c_no_flop_no_drop_on_real_rounds():
    """N.J.A.C. 13:69F-14.14(b)1, (c): real hands (Pluribus PHH) at a table posting 10 % to $500 with "no flop, no
    drop": the hands pokerkit ended before dealing a board card pay nothing, the others the percentage rake of each
    betting round as posted."""
    table = PokerTableFactory(bad_beat_participation=False, small_blind=D("50"), big_blind=D("100"))
    post_rake_structure(table=table, percentage=D("10"), maximum=D("500.00"), no_flop_no_drop=True)
    import_phh(casino=table.casino, table=table, text=SESSION.read_text(), name=SESSION.name)
    found = {r.round_of_play.source_name: r
             for r in RakeRecord.objects.filter(table=table).select_related("round_of_play")}
    flop_dealt = flop_dealt_by_hand()
    assert found.keys() == flop_dealt.keys()
    for name, saw_flop in flop_dealt.items():
        record = found[name]
        per_round = sum(((D(b) / 10).quantize(D("1"), rounding=ROUND_DOWN)
                         for b in record.round_of_play.betting_rounds if D(b)), D(0))
        if saw_flop:
            assert record.amount == min(per_round, D("500")) and record.explanation != NO_FLOP_EXPLANATION, name
        else:
            assert (record.amount, record.explanation) == (D("0.00"), NO_FLOP_EXPLANATION), name
            assert per_round > 0, name  # every pot here is big enough to be raked without the term
    assert 10 < sum(flop_dealt.values()) < len(flop_dealt) - 10  # many hands of each kind


@pytest.fixture
def mixed(casino):
    """A mixed-game table: no-limit hold 'em, and seven-card stud with a $1 ante and a $2 bring-in."""
    table = create_table(casino=casino, number=8, seats=8, rotation_name="Hold 'em and stud", rounds_per_game=8,
                         rotation=[
                             {"game": Game.HOLDEM, "betting_structure": BettingStructure.NO_LIMIT, "small_blind": "1",
                              "big_blind": "2", "minimum_wager": "2"},
                             {"game": Game.STUD, "betting_structure": BettingStructure.FIXED_LIMIT, "ante": "1",
                              "bring_in": "2", "minimum_wager": "5", "maximum_wager": "10"}])
    return open_table(table=table)


@pytest.mark.proves("14.14(c)-as-posted")
def test_14_14_c_stud_rounds_are_raked_as_posted_under_the_term(mixed):
    """N.J.A.C. 13:69F-14.14(c): at a table posting "no flop, no drop" for its hold 'em and its stud, the hold 'em
    round that ends before the flop pays nothing; a stud round that ends in its first betting round (no flop is dealt
    in stud) pays the rake as posted, as the sign says."""
    post_rake_structure(table=mixed, percentage=D("10"), maximum=D("5.00"), no_flop_no_drop=True)
    holdem = deal(mixed, [PlayerIn(seat=1, contributed=D("40.00"), folded=True, streets=(D("40.00"),)),
                          PlayerIn(seat=2, contributed=D("100.00"), streets=(D("100.00"),))], game=Game.HOLDEM)
    assert (holdem.basis, holdem.amount, holdem.explanation) == (D("80.00"), D("0.00"), NO_FLOP_EXPLANATION)
    # third street: seat 1 antes $1 and brings it in for $2, seat 2 completes to $5, seat 1 raises to $10, seat 2
    # raises to $15 and seat 1 folds: the uncalled $5 goes back, a $22 pot
    stud = deal(mixed, [PlayerIn(seat=1, contributed=D("11.00"), folded=True, streets=(D("11.00"),)),
                        PlayerIn(seat=2, contributed=D("16.00"), streets=(D("16.00"),))], game=Game.STUD)
    assert stud.round_of_play.board == "" and stud.round_of_play.betting_rounds == ["22.00"]
    assert (stud.basis, stud.amount) == (D("22.00"), D("2.00")) and stud.explanation != NO_FLOP_EXPLANATION


@pytest.mark.proves("14.14(c)-as-posted")
@pytest.mark.parametrize(("game", "board", "betting_rounds", "before"), [
    (Game.HOLDEM, "", [], True),                       # ended preflop, betting rounds not reported
    (Game.HOLDEM, "", ["30.00"], True),
    (Game.HOLDEM, "", ["30.00", "0.00"], True),        # a second betting round where nothing stayed: no proof
    (Game.OMAHA, "", ["30.00"], True),
    (Game.OMAHA_HILO8, "", ["30.00"], True),
    (Game.HOLDEM, "Ah Kd 5c", ["30.00"], False),       # the flop is on the board
    (Game.HOLDEM, "", ["30.00", "10.00"], False),      # chips bet after the first betting round: the flop was dealt
    (Game.HOLDEM, "", ["30.00", "0.50"], False),       # however little
    (Game.HOLDEM, "", ["30.00", "0.00", "0.00"], True),
    (Game.OMAHA, "2c 5d 7h Kd Ks", [], False),
    (Game.STUD, "", ["6.00"], False),                  # no flop in stud or draw: raked as posted
    (Game.FIVE_CARD_STUD, "", ["6.00"], False),
    (Game.DRAW_HIGH, "", ["6.00"], False),
    (Game.BADUGI, "", [], False),
])
def test_14_14_c_what_ended_before_the_flop_means(game, board, betting_rounds, before):
    """N.J.A.C. 13:69F-14.14(c): a hold 'em or Omaha round with nothing on its board and no chips bet after its first
    betting round ended before the flop; any other, and every stud and draw round, did not."""
    assert ended_before_the_flop(RoundOfPlay(game=game, board=board, betting_rounds=betting_rounds)) is before


@pytest.mark.parametrize("method", [RakeMethod.PERCENTAGE, RakeMethod.INCREMENTAL])
@pytest.mark.proves("14.14(c)-sign")
def test_14_14_c_the_sign_posts_no_flop_no_drop(client, supervisor, casino, method):
    """N.J.A.C. 13:69F-14.14(c): the term is printed on the table sign and the table page with the rest of the rake."""
    table = PokerTableFactory(casino=casino)
    structure = post(table, method, no_flop_no_drop=True)
    expected = {RakeMethod.PERCENTAGE: "10% of each pot, maximum $5.00 per pot",
                RakeMethod.INCREMENTAL: "Incremental: $1.00 at $20.00, $2.00 at $60.00; maximum $4.00 per pot"}[method]
    assert structure.label == (f"{expected}; no flop, no drop: no rake from a hold 'em or Omaha round that ends "
                               "before the flop") == f"{expected}; {NO_FLOP_NO_DROP}"
    client.force_login(supervisor)
    for url in (f"/tables/{table.pk}/sign/", f"/tables/{table.pk}/"):
        page = client.get(url).content.decode().replace("&#x27;", "'")
        assert structure.label in page, url
    post(table, method, no_flop_no_drop=False)
    assert "no flop" not in client.get(f"/tables/{table.pk}/sign/").content.decode().lower()


@pytest.mark.proves("14.14(c)-sign")
def test_14_14_c_no_flop_no_drop_is_refused_where_no_game_has_a_flop(casino, mixed):
    """N.J.A.C. 13:69F-14.14(c): the term is not posted for a rake that covers no hold 'em or Omaha game (the sign
    would post a term that never applies): a stud table, or the stud game of a rotation; the rotation's hold 'em
    and the mixed table's own rake may post it."""
    stud_table = PokerTableFactory(casino=casino, game=Game.STUD, betting_structure=BettingStructure.FIXED_LIMIT,
                                   small_blind=D("0"), big_blind=D("0"), minimum_wager=D("5"), maximum_wager=D("10"))
    stud = mixed.rotation.get(game=Game.STUD)
    for table, rotation_game in [(stud_table, None), (mixed, stud)]:
        with pytest.raises(DomainError, match="hold 'em and Omaha rounds only") as refused:
            post_rake_structure(table=table, rotation_game=rotation_game, percentage=D("10"), maximum=D("5"),
                                no_flop_no_drop=True)
        assert refused.value.field == "no_flop_no_drop"
    assert not RakeStructure.objects.filter(table__in=[stud_table, mixed]).exists()
    assert post_rake_structure(table=stud_table, percentage=D("10"), maximum=D("5")).no_flop_no_drop is False
    holdem = mixed.rotation.get(game=Game.HOLDEM)
    assert post_rake_structure(table=mixed, rotation_game=holdem, percentage=D("10"), maximum=D("5"),
                               no_flop_no_drop=True).no_flop_no_drop
    assert post_rake_structure(table=mixed, percentage=D("10"), maximum=D("5"), no_flop_no_drop=True).no_flop_no_drop
    with pytest.raises(DomainError) as not_a_bool:
        post_rake_structure(table=mixed, percentage=D("10"), maximum=D("5"), no_flop_no_drop="yes")
    assert not_a_bool.value.field == "no_flop_no_drop"


def test_14_14_c_the_rake_api_posts_no_flop_no_drop(api, supervisor, casino):
    """N.J.A.C. 13:69F-14.14(c): a supervisor posts the term through the rake API, which reads it back with the sign's
    label; a value that is not a boolean is a 400 naming the field and changes nothing; left out, it is not posted."""
    table = PokerTableFactory(casino=casino)
    api.force_authenticate(supervisor)
    url = f"/api/tables/{table.pk}/rake-structure/"
    body = {"method": "percentage", "percentage": "10", "maximum": "5.00"}
    posted = api.put(url, body | {"no_flop_no_drop": True}, format="json")
    assert posted.status_code == 200, posted.content
    assert posted.json()["no_flop_no_drop"] is True and posted.json()["label"].endswith(f"; {NO_FLOP_NO_DROP}")
    assert api.get(url).json()["no_flop_no_drop"] is True
    assert RakeStructure.objects.get(table=table).no_flop_no_drop

    refused = api.put(url, body | {"maximum": "3.00", "no_flop_no_drop": "sometimes"}, format="json")
    assert refused.status_code == 400 and list(refused.json()) == ["no_flop_no_drop"]
    assert RakeStructure.objects.get(table=table).maximum == D("5.00")  # nothing written

    incremental = api.put(url, {"method": "incremental", "maximum": "4.00", "levels": INCREMENTAL_LEVELS,
                                "no_flop_no_drop": True}, format="json")
    assert incremental.status_code == 200 and incremental.json()["label"] == (
        f"Incremental: $1.00 at $20.00, $2.00 at $60.00; maximum $4.00 per pot; {NO_FLOP_NO_DROP}")

    left_out = api.put(url, body, format="json")
    assert left_out.status_code == 200 and left_out.json()["no_flop_no_drop"] is False
    assert "no flop" not in left_out.json()["label"]


def test_14_14_c_the_rake_api_refuses_the_term_at_a_table_with_no_flop_game(api, supervisor, casino):
    """N.J.A.C. 13:69F-14.14(c): at a stud table the term is a 400 naming the field; nothing is posted."""
    table = PokerTableFactory(casino=casino, game=Game.STUD, betting_structure=BettingStructure.FIXED_LIMIT,
                              small_blind=D("0"), big_blind=D("0"), minimum_wager=D("5"), maximum_wager=D("10"))
    api.force_authenticate(supervisor)
    response = api.put(f"/api/tables/{table.pk}/rake-structure/", {"method": "percentage", "percentage": "10",
                                                                   "maximum": "5.00", "no_flop_no_drop": True},
                       format="json")
    assert response.status_code == 400 and "hold 'em and Omaha" in response.json()["no_flop_no_drop"][0]
    assert not RakeStructure.objects.filter(table=table).exists()
