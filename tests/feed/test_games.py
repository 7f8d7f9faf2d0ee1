"""Every game form of 14.8, 14.12A and 14.12B recorded from the JSON feed and settled by the engine, and a mixed-game
table dealt through its whole rotation, each game with its own limits, rake and bad beat eligibility."""
from decimal import Decimal

import pytest

from apps.badbeat.models import Contribution
from apps.rake.models import RakeRecord
from apps.rake.services import post_rake_structure
from apps.rounds.models import RoundOfPlay
from apps.tables.models import BettingStructure, Game
from apps.tables.services import create_table, open_table
from tests.factories import JackpotFactory

D = Decimal
pytestmark = pytest.mark.django_db

#: game -> (board, [(seat, hole cards, draws)], winning seats and their hand, clause)
FORMS = {
    Game.HOLDEM: ("Ah Kd 5c 9s 3h", [(1, "As Ks", ()), (2, "2c 7d", ())], {1: "Two pairs"}, "14.10(j)"),
    Game.OMAHA: ("Ah Kh Qh 7h 2c", [(1, "Jh 3c 4d 5s", ()), (2, "Tc Td 9s 8s", ())], {2: "One pair"}, "14.11(f)1"),
    Game.OMAHA_HILO8: ("2c 5d 7h Kd Ks", [(1, "Ah 3s Qc Jd", ()), (2, "Kc Kh 9s 9c", ())],
                       {1: "Seven-low", 2: "Four of a kind"}, "14.11(f)2, (h)"),
    Game.STUD: ("", [(1, "9c 9d Ah 9h Ks 2c 3d", ()), (2, "Qs Qd Jc Jd 4s 5h 6c", ())], {1: "Three of a kind"},
                "14.9(i)1"),
    Game.STUD_LOW: ("", [(1, "Ac 2d 3h 4s 6c Kd Kh", ()), (2, "Ad 2c 3s 4d 7h Qh Qd", ())], {1: "Six-low"},
                    "14.9(i)2"),
    Game.STUD_HILO: ("", [(1, "9c 9d Kh Ks 9h Qc Qd", ()), (2, "Ad 2h 3c 4s Th Jd 6d", ())],
                     {1: "Full house", 2: "Six-low"}, "14.9(i)3"),
    Game.STUD_HILO8: ("", [(1, "9c 9d Kh Ks 9h Qc Qd", ()), (2, "Ad 2h 3c Ts Th Jd 6d", ())],
                      {1: "Full house"}, "14.9(j)"),
    Game.FIVE_CARD_STUD: ("", [(1, "Ac Ad 7h 8s 2c", ()), (2, "Kc Kd Qh Js Tc", ())], {1: "One pair"}, "14.13(h)"),
    Game.DRAW_HIGH: ("", [(1, "As Ah Kd Ad 8c", (("7c 2s", "Ad 8c"),)), (2, "Qc Qd Jh Qh 4d", (("9s 3c", "Qh 4d"),))],
                     {1: "Three of a kind"}, "14.12(h)1"),
    Game.DRAW_LOW: ("", [(1, "Ac 2d 3h 4s 5c", (("Kd Qd", "4s 5c"),)), (2, "Ad 2c 3s 4d 6h", ((" ", ""),))],
                    {1: "Five-low"}, "14.12(h)2"),
    Game.TRIPLE_DRAW_27: ("", [(1, "7c 5d 4h 3s 2c", (("Kd", "7c"), ("", ""), ("", ""))),
                               (2, "8c 6d 4c 3h 2d", (("Ac Ks", "8c 6d"), ("", ""), ("", "")))],
                          {1: "Seven-low"}, "14.12A(l)"),
    Game.SINGLE_DRAW_27: ("", [(1, "8c 6d 4h 3s 2c", (("Ah", "8c"),)), (2, "7h 6h 5h 3h 2h", (("", ""),))],
                          {1: "Eight-low"}, "14.12A(l)"),
    Game.BADUGI: ("", [(1, "Ac 2d 3h 4s", (("Kc", "4s"), ("", ""), ("", ""))),
                       (2, "Ad 2c 3s 4d", (("", ""), ("", ""), ("", "")))], {1: "Badugi"}, "14.12B(l)1"),
    Game.MAMBO_STUD: ("Kc", [(1, "Kh Kd 9c", ()), (2, "Ad 4c 6s", ())], {1: "Three of a kind", 2: "Six-low"},
                      "14.13A(j)-(l)"),
}


@pytest.mark.parametrize("game", list(FORMS), ids=[f"{g.value}-{FORMS[g][3]}" for g in FORMS])
@pytest.mark.proves("14.6(d)", "14.8(a)1", "14.8(a)2", "14.8(a)3", "14.8(a)4", "14.8(a)5", "14.8(a)6",
                    "14.8(a)7", "14.9(i)1", "14.10(j)-winner", "14.11(f)1", "14.12(h)1", "14.12(h)2",
                    "14.12A(l)", "14.12B(l)1", "14.13(h)", "14.6(e)5-award")
def test_each_game_form_is_recorded_and_settled_from_the_json_feed(api, casino, staff, game):
    """One round of each permissible game (14.8, 14.8(a)1-7, 14.12A, 14.12B) posted as JSON: the cards fit the game,
    the draws of a draw game are kept, and the engine awards the pot to the hand the clause names (14.6(d); 14.9(i)1,
    3; 14.10(j); 14.11(f)1; 14.12(h); 14.13(h); 14.13A(j))."""
    from apps.core.roles import Role

    board, seats, winners, _clause = FORMS[game]
    table = open_table(table=create_table(casino=casino, number=1, game=game, seats=6, minimum_wager=D("2")))
    api.force_authenticate(staff(Role.DEALER))
    players = [{"seat": seat, "contributed": "20.00", "hole_cards": cards,
                "dealt_cards": "", "draws": [{"discarded": d.strip(), "drawn": n} for d, n in draws]}
               for seat, cards, draws in seats]
    response = api.post("/api/rounds/", {"table": table.pk, "board": board, "players": players}, format="json")
    assert response.status_code == 201, response.content
    round_of_play = RoundOfPlay.objects.get(pk=response.json()["id"])
    assert round_of_play.game == game and round_of_play.went_to_showdown
    awarded = {p.seat: p for p in round_of_play.players.all() if p.awarded > 0}
    assert set(awarded) == set(winners)
    for seat, label in winners.items():
        assert label in (awarded[seat].high_hand, awarded[seat].low_hand)
    assert sum(p.awarded for p in round_of_play.players.all()) == D("40.00")
    if seats[0][2]:
        assert round_of_play.players.get(seat=1).draws[0]["drawn"] == seats[0][2][0][1]


@pytest.fixture
def horse(casino):
    """A H.O.R.S.E. table: hold 'em, Omaha high-low, razz, stud, stud high-low, each with its own limits; hold 'em
    and Omaha contribute to the bad beat payout, the stud games do not."""
    JackpotFactory(casino=casino, minimum_pot=D("10"), contribution_amount=D("1.00"))
    fixed = BettingStructure.FIXED_LIMIT
    table = create_table(casino=casino, number=7, seats=8, rotation_name="H.O.R.S.E.", rounds_per_game=8, rotation=[
        {"game": Game.HOLDEM, "betting_structure": fixed, "small_blind": "10", "big_blind": "20",
         "minimum_wager": "20", "maximum_wager": "40", "bad_beat_participation": True},
        {"game": Game.OMAHA_HILO8, "betting_structure": fixed, "small_blind": "10", "big_blind": "20",
         "minimum_wager": "20", "maximum_wager": "40", "bad_beat_participation": True},
        {"game": Game.STUD_LOW, "betting_structure": fixed, "ante": "3", "bring_in": "5", "minimum_wager": "20",
         "maximum_wager": "40"},
        {"game": Game.STUD, "betting_structure": fixed, "ante": "3", "bring_in": "5", "minimum_wager": "20",
         "maximum_wager": "40"},
        {"game": Game.STUD_HILO8, "betting_structure": fixed, "ante": "3", "bring_in": "5", "minimum_wager": "20",
         "maximum_wager": "40"},
    ])
    post_rake_structure(table=table, percentage=D("10"), maximum=D("4"))
    holdem = table.rotation.get(game=Game.HOLDEM)
    post_rake_structure(table=table, rotation_game=holdem, percentage=D("5"), maximum=D("6"))
    return open_table(table=table)


@pytest.mark.proves("14.14(c)-as-posted", "14.19(c)-designated")
def test_14_8_a_mixed_game_table_deals_its_whole_rotation(api, casino, supervisor, horse):
    """A round of each game of the rotation: each records the game and the rotation game it was dealt in, pays the
    rake its game posts (14.14(c)) and contributes only where the game participates (14.19(b))."""
    api.force_authenticate(supervisor)
    deals = [(Game.HOLDEM, "Ah Kd 5c 9s 3h", ["As Ks", "2c 7d"]),
             (Game.OMAHA_HILO8, "2c 5d 7h Kd Ks", ["Ah 3s Qc Jd", "Kc Kh 9s 9c"]),
             (Game.STUD_LOW, "", ["Ac 2d 3h 4s 6c Kd Kh", "Ad 2c 3s 4d 7h Qh Qd"]),
             (Game.STUD, "", ["9c 9d Ah 9h Ks 2c 3d", "Qs Qd Jc Jd 4s 5h 6c"]),
             (Game.STUD_HILO8, "", ["9c 9d Kh Ks 9h Qc Qd", "Ad 2h 3c Ts Th Jd 6d"])]
    for game, board, holes in deals:
        players = [{"seat": i + 1, "contributed": "50.00", "hole_cards": h} for i, h in enumerate(holes)]
        response = api.post("/api/rounds/", {"table": horse.pk, "game": game, "board": board, "players": players},
                            format="json")
        assert response.status_code == 201, response.content
        assert response.json()["game"] == game and response.json()["betting_structure"] == "fixed_limit"
    rounds = {r.game: r for r in RoundOfPlay.objects.filter(table=horse).select_related("rotation_game")}
    assert all(r.rotation_game.game == game for game, r in rounds.items())
    rake = {r.round_of_play.game: r.amount for r in RakeRecord.objects.select_related("round_of_play")}
    assert rake[Game.HOLDEM] == D("5.00")  # hold 'em posts 5 % of $100 (its own rake)
    assert {rake[g] for g in rake if g != Game.HOLDEM} == {D("4.00")}  # the table's 10 %, capped at $4
    contributed = set(Contribution.objects.values_list("round_of_play__game", flat=True))
    assert contributed == {Game.HOLDEM, Game.OMAHA_HILO8}


@pytest.mark.parametrize(("body", "field", "words"), [
    ({}, "game", "deals a rotation (H.O.R.S.E.): name the game"),
    ({"game": Game.BADUGI}, "game", "does not deal Badugi"),
])
def test_a_mixed_game_table_needs_a_game_of_its_rotation(api, supervisor, horse, body, field, words):
    api.force_authenticate(supervisor)
    players = [{"seat": 1, "contributed": "2", "hole_cards": "As Ks"}, {"seat": 2, "contributed": "1", "folded": True}]
    response = api.post("/api/rounds/", {"table": horse.pk, "players": players, **body}, format="json")
    assert response.status_code == 400 and words in response.json()[field][0]
    assert not RoundOfPlay.objects.exists()


@pytest.mark.proves("14.9(b)-seat-maximum", "14.12A(b)-seat-maximum")
def test_14_9_b_a_mixed_game_table_seats_no_more_than_its_smallest_game(casino):
    """Stud seats nine (14.9(b)), triple draw seven (14.12A(b)): a rotation with both seats at most seven."""
    from apps.core.exceptions import DomainError

    rotation = [{"game": Game.STUD, "minimum_wager": "2"}, {"game": Game.TRIPLE_DRAW_27, "minimum_wager": "2"}]
    with pytest.raises(DomainError, match="14.12A"):
        create_table(casino=casino, number=3, seats=8, rotation_name="Mix", rotation=rotation)
    table = create_table(casino=casino, number=3, seats=7, rotation_name="Mix", rotation=rotation)
    assert table.seat_maximum == 7 and table.is_mixed and [p.game for p in table.posted_games()] == [
        Game.STUD, Game.TRIPLE_DRAW_27]


@pytest.mark.proves("14.17-limits-posted", "14.14(c)-sign")
def test_14_17_the_sign_of_a_mixed_game_table_shows_the_rotation_with_each_games_limits(client, supervisor, horse):
    client.force_login(supervisor)
    page = client.get(f"/tables/{horse.pk}/sign/").content.decode()
    assert "H.O.R.S.E." in page and "each dealt for 8 rounds" in page
    for text in ("Omaha high-low split eight or better, fixed limit", "Seven-card stud (low), fixed limit", "$20.00/$40.00",
                 "bring-in $5.00", "5% of each pot, maximum $6.00 per pot", "10% of each pot, maximum $4.00 per pot"):
        assert text in page, text


def test_a_mixed_game_table_through_the_tables_api(api, supervisor):
    api.force_authenticate(supervisor)
    response = api.post("/api/tables/", {"number": 12, "seats": 6, "rotation_name": "8-game", "rotation": [
        {"game": "holdem", "betting_structure": "no_limit", "minimum_wager": "2", "big_blind": "2", "small_blind": "1"},
        {"game": "triple_draw_27", "betting_structure": "fixed_limit", "minimum_wager": "4", "maximum_wager": "8"}]},
        format="json")
    assert response.status_code == 201, response.content
    assert [g["game"] for g in response.json()["rotation"]] == ["holdem", "triple_draw_27"]
    assert response.json()["seat_maximum"] == 7
    bad = api.post("/api/tables/", {"number": 13, "seats": 9, "rotation_name": "x", "rotation": [
        {"game": "stud", "minimum_wager": "2"}, {"game": "badugi", "minimum_wager": "2"},
        {"game": "triple_draw_27", "minimum_wager": "2"}]}, format="json")
    assert bad.status_code == 400 and "seats" in bad.json()
