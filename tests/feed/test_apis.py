"""The hand feed's API: JSON rounds and PHH text in, with roles and field-level errors."""
from decimal import Decimal
from pathlib import Path

import pytest

from apps.core.roles import Role
from apps.rounds.models import RoundOfPlay
from tests.factories import PokerTableFactory, RakeStructureFactory

PLURIBUS = Path(__file__).resolve().parents[2].parent / "shared" / "data" / "phh" / "pluribus"
pytestmark = pytest.mark.django_db


@pytest.fixture
def table(casino):
    return RakeStructureFactory(table__casino=casino).table


def body(table, **overrides):
    data = {"table": table.pk, "board": "Ah Kd 5c 9s 3h", "players": [
        {"seat": 1, "name": "Ana", "contributed": "50.00", "hole_cards": "As Ks"},
        {"seat": 2, "name": "Ben", "contributed": "50.00", "hole_cards": "2c 7d"}]}
    return data | overrides


@pytest.mark.parametrize(("role", "status"), [
    (Role.POKER_SHIFT_SUPERVISOR, 201), (Role.FLOORPERSON, 201), (Role.DEALER, 201), (Role.ADMIN, 201),
    (Role.SURVEILLANCE, 403), (Role.ACCOUNTING, 403), (Role.SECURITY, 403)])
def test_who_may_record_a_round(api, staff, table, role, status):
    api.force_authenticate(staff(role))
    response = api.post("/api/rounds/", body(table), format="json")
    assert response.status_code == status, response.content
    if status == 201:
        assert response.json()["pots"][0]["awards"] == [{"seat": 1, "amount": "95.00"}]


def test_anonymous_is_refused(api, table):
    assert api.post("/api/rounds/", body(table), format="json").status_code in (401, 403)
    assert api.get("/api/rounds/").status_code in (401, 403)


@pytest.mark.parametrize(("players", "field"), [
    ([{"seat": 1, "contributed": "5", "hole_cards": "As Zz"}, {"seat": 2, "contributed": "5", "hole_cards": "2c 7d"}],
     "players[0].hole_cards"),
    ([{"seat": 1, "contributed": "5", "hole_cards": "As Kd"}, {"seat": 2, "contributed": "5", "hole_cards": "As 7d"}],
     "players"),
    ([{"seat": 1, "contributed": "five"}, {"seat": 2, "contributed": "5"}], "players"),
])
def test_bad_input_is_a_400_naming_the_field(api, supervisor, table, players, field):
    api.force_authenticate(supervisor)
    response = api.post("/api/rounds/", body(table, players=players), format="json")
    assert response.status_code == 400
    assert field in response.json()
    assert not RoundOfPlay.objects.exists()


def test_a_table_of_another_casino_is_not_found(api, supervisor):
    other = PokerTableFactory()
    api.force_authenticate(supervisor)
    assert api.post("/api/rounds/", body(other), format="json").status_code == 404


def test_phh_text_imports_once(api, supervisor, table):
    table.small_blind, table.big_blind = Decimal("50"), Decimal("100")
    table.save()
    api.force_authenticate(supervisor)
    text = sorted(PLURIBUS.glob("*.phhs"))[0].read_text()
    first = api.post("/api/rounds/phh/", {"table": table.pk, "phh": text}, format="json")
    assert first.status_code == 201, first.content
    assert first.json()["imported"] > 50 and first.json()["skipped"] == 0
    again = api.post("/api/rounds/phh/", {"table": table.pk, "phh": text}, format="json")
    assert again.status_code == 409
    assert again.json()["phh"] == [f"Every hand of this text is already recorded ({first.json()['imported']}); "
                                   "nothing was added."]
    first_round = RoundOfPlay.objects.order_by("pk").first()
    assert again.json()["existing_id"] == first_round.pk
    assert RoundOfPlay.objects.count() == first.json()["imported"]


def test_malformed_phh_is_a_400(api, supervisor, table):
    api.force_authenticate(supervisor)
    response = api.post("/api/rounds/phh/", {"table": table.pk, "phh": "variant = 'NT'\nactions = ["}, format="json")
    assert response.status_code == 400
    assert "not valid PHH" in response.json()["phh"][0]
    assert not RoundOfPlay.objects.exists()


def test_rounds_are_listed_and_read_by_surveillance(api, staff, supervisor, table):
    api.force_authenticate(supervisor)
    created = api.post("/api/rounds/", body(table), format="json").json()
    api.force_authenticate(staff(Role.SURVEILLANCE))
    listed = api.get("/api/rounds/").json()
    assert [r["id"] for r in listed["results"]] == [created["id"]] and listed["next"] is None
    assert api.get(f"/api/rounds/{created['id']}/").json()["players"][0]["hole_cards"] == "As Ks"
    assert api.get(f"/api/rake-records/?round_of_play={created['id']}").json()["results"][0]["amount"] == "5.00"


def test_betting_rounds_through_the_api(api, supervisor, table):
    api.force_authenticate(supervisor)
    players = [{"seat": 1, "contributed": "30.00", "hole_cards": "As Ks", "streets": ["15.00", "15.00"]},
               {"seat": 2, "contributed": "30.00", "hole_cards": "2c 7d", "streets": ["15.00", "15.00"]}]
    created = api.post("/api/rounds/", body(table, players=players), format="json")
    assert created.status_code == 201
    assert created.json()["betting_rounds"] == ["30.00", "30.00"]
    players[0]["streets"] = ["15.00", "10.00"]
    refused = api.post("/api/rounds/", body(table, players=players), format="json")
    assert refused.status_code == 400 and "players[0].streets" in refused.json()


def test_phh_without_a_table_goes_to_the_tables_that_deal_each_game(api, supervisor, table):
    """No table given: each hand to a table of the user's casino that deals its game, with a summary per variant."""
    table.small_blind, table.big_blind = Decimal("50"), Decimal("100")
    table.save()
    api.force_authenticate(supervisor)
    text = sorted(PLURIBUS.glob("*.phhs"))[0].read_text()
    response = api.post("/api/rounds/phh/", {"phh": text}, format="json")
    assert response.status_code == 201, response.content
    body = response.json()
    assert body["variants"]["NT"]["imported"] == body["imported"] > 50
    assert body["tables"] == {str(table.number): body["imported"]}


def test_a_phh_text_no_table_can_take_is_a_400_with_the_reason(api, supervisor, table):
    api.force_authenticate(supervisor)
    text = (PLURIBUS.parent / "phua-xuan-2019.phh").read_text()
    response = api.post("/api/rounds/phh/", {"phh": text}, format="json")
    assert response.status_code == 400
    assert "variant 'NS' is not taken in" in response.json()["phh"][0]


@pytest.fixture
def big_phh():
    """Eleven Pluribus sessions: more hands than an API request takes at once."""
    files = sorted(PLURIBUS.glob("*.phhs"))[:11]
    text, number = [], 0
    for path in files:
        for section in path.read_text().split("\n\n"):
            if section.strip():
                number += 1
                text.append(f"[{number}]\n" + section.split("\n", 1)[1])
    assert number > 1000
    return "\n\n".join(text), number


def test_an_import_of_more_than_1000_hands_runs_as_a_job_with_its_progress(
        api, supervisor, table, big_phh, django_capture_on_commit_callbacks, monkeypatch):
    """202 with the job; the Celery task (run on commit) imports in batches and keeps its progress on the job, which
    GET /api/phh-imports/{id}/ reports to the user's casino, then the summary."""
    from apps.feed.models import ImportJob
    from apps.feed.services import import_jobs

    table.small_blind, table.big_blind = Decimal("50"), Decimal("100")
    table.save()
    text, hands = big_phh
    seen: list[int] = []
    real_import = import_jobs.import_phh

    def watched(**kwargs):
        progress = kwargs["progress"]

        def spy(count):
            progress(count)
            seen.append(ImportJob.objects.get().processed)
        return real_import(**{**kwargs, "progress": spy})

    monkeypatch.setattr(import_jobs, "import_phh", watched)  # where the job looks it up
    api.force_authenticate(supervisor)
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        response = api.post("/api/rounds/phh/", {"phh": text, "name": "sessions.phhs"}, format="json")
    assert response.status_code == 202, response.content
    job = response.json()
    assert (job["status"], job["hands"], job["processed"]) == ("queued", hands, 0)
    assert response["Location"] == job["url"] == f"/api/phh-imports/{job['id']}/"
    assert not RoundOfPlay.objects.exists()
    for callback in callbacks:
        callback()  # the worker picks the task up
    assert seen == sorted(seen) and 0 < seen[1] < hands and len(seen) > 5
    done = api.get(job["url"]).json()
    assert (done["status"], done["processed"]) == ("done", hands)
    assert done["summary"]["variants"]["NT"]["imported"] == hands == RoundOfPlay.objects.count()
    from apps.feed.services import run_import_job

    assert run_import_job(job_id=job["id"]).status == "done" and RoundOfPlay.objects.count() == hands  # idempotent


def test_an_import_job_is_read_only_in_its_casino(api, staff, supervisor, table):
    from apps.feed.models import ImportJob
    from tests.factories import CasinoFactory, StaffFactory

    job = ImportJob.objects.create(casino=table.casino, requested_by=supervisor, name="x", text="", hands=2000)
    api.force_authenticate(StaffFactory(casino=CasinoFactory(), roles=[Role.POKER_SHIFT_SUPERVISOR]))
    assert api.get(f"/api/phh-imports/{job.pk}/").status_code == 404
    api.force_authenticate(staff(Role.SURVEILLANCE))
    assert api.get(f"/api/phh-imports/{job.pk}/").status_code == 403


@pytest.mark.parametrize(("player", "field"), [
    ({"draws": [{"discarded": "As", "drawn": "Zz"}]}, "players[0].draws[0]"),
    ({"draws": [{"discarded": "As", "drawn": "Kd"}, {"discarded": "", "drawn": ""}]}, "players[0].draws"),
])
def test_draws_are_checked_with_the_field_at_fault(api, casino, supervisor, player, field):
    from apps.tables.models import Game
    from apps.tables.services import create_table, open_table

    draw = open_table(table=create_table(casino=casino, number=30, game=Game.DRAW_HIGH, seats=6,
                                         minimum_wager=Decimal("2")))
    api.force_authenticate(supervisor)
    players = [{"seat": 1, "contributed": "5", "hole_cards": "2c 3c 4c 5c 6c", **player},
               {"seat": 2, "contributed": "5", "hole_cards": "Ad Ac Ah As Kd"}]
    response = api.post("/api/rounds/", {"table": draw.pk, "players": players}, format="json")
    assert response.status_code == 400 and field in response.json(), response.json()
    assert not RoundOfPlay.objects.exists()


def test_cursor_pages_are_stable_under_inserts(api, supervisor, table):
    """Keyset pages: rounds recorded while a client pages through the list neither repeat nor hide a round."""
    from datetime import timedelta

    from django.utils import timezone

    api.force_authenticate(supervisor)
    start = timezone.now() - timedelta(hours=1)

    def post(minute):
        return api.post("/api/rounds/", body(table, started_at=(start + timedelta(minutes=minute)).isoformat()),
                        format="json").json()["id"]

    first = [post(m) for m in range(6)]
    page = api.get("/api/rounds/?limit=2").json()
    seen = [r["id"] for r in page["results"]]
    later = [post(10 + m) for m in range(3)]  # newer rounds arrive between the pages
    while page["next"]:
        page = api.get(page["next"]).json()
        seen += [r["id"] for r in page["results"]]
    assert seen == first[::-1]
    assert [r["id"] for r in api.get("/api/rounds/?limit=3").json()["results"]] == later[::-1]


# --- several rounds in one POST (a feed that sends batches, issue 14) ------------------------------------------------

def test_a_batch_records_every_round_in_order_at_several_tables(api, casino, supervisor, table):
    """Each round of a batch goes along the money path as a single POST would take it: rake, the bad beat
    contribution after the rake (14.19(c)), the awards."""
    from apps.badbeat.models import Contribution, Jackpot
    from apps.rake.models import RakeRecord
    from tests.factories import JackpotFactory

    JackpotFactory(casino=casino)
    second = RakeStructureFactory(table__casino=casino, table__number=table.number + 1).table
    api.force_authenticate(supervisor)
    rounds = [body(table, external_id="a"), body(second, external_id="b"), body(table, external_id="c")]
    response = api.post("/api/rounds/batch/", {"rounds": rounds}, format="json")
    assert response.status_code == 201, response.content
    results = response.json()["results"]
    assert [r["table"] for r in results] == [table.pk, second.pk, table.pk]
    assert [r["source_name"] for r in results] == ["a", "b", "c"]
    assert [r["pot_total"] for r in results] == ["100.00"] * 3
    single = api.post("/api/rounds/", body(table, external_id="d"), format="json").json()
    recorded = [api.get(f"/api/rounds/{r['id']}/").json() for r in results]  # each in full
    assert [r["pots"] for r in recorded] == [single["pots"]] * 3  # the same round, the same money, one by one or not
    assert RakeRecord.objects.count() == 4
    assert Contribution.objects.count() == 4
    assert Jackpot.objects.get(casino=casino).contributions_total == sum(c.amount for c in Contribution.objects.all())


@pytest.mark.parametrize(("rounds", "field"), [
    (lambda t: [body(t), body(t, players=[{"seat": 1, "contributed": "5", "hole_cards": "As Zz"},
                                          {"seat": 2, "contributed": "5", "hole_cards": "2c 7d"}])],
     "rounds[1].players[0].hole_cards"),
    (lambda t: [body(t), body(t), body(t, players=[{"seat": 1, "contributed": "5", "hole_cards": "As Kd"},
                                                   {"seat": 2, "contributed": "5", "hole_cards": "As 7d"}])],
     "rounds[2].players"),
    (lambda t: [body(t), body(t) | {"table": 2**40}], "rounds[1].table"),
    (lambda t: [body(t, external_id="x"), body(t, external_id="x")], "source_digest"),
    (lambda t: [], "rounds"),
    (lambda t: [body(t)] * 101, "rounds"),
])
def test_a_bad_round_in_a_batch_is_a_400_naming_it_and_nothing_is_recorded(api, supervisor, table, rounds, field):
    api.force_authenticate(supervisor)
    response = api.post("/api/rounds/batch/", {"rounds": rounds(table)}, format="json")
    assert response.status_code == 400, response.content
    errors = response.json()
    named = set(errors) | {f"rounds[{i}].{name}" for i, e in enumerate(errors.get("rounds", []))
                           if isinstance(e, dict) for name in e}
    assert field in named, errors
    assert not RoundOfPlay.objects.exists()


@pytest.mark.parametrize(("role", "status"), [
    (Role.DEALER, 201), (Role.FLOORPERSON, 201), (Role.SURVEILLANCE, 403), (Role.ACCOUNTING, 403)])
def test_who_may_record_a_batch(api, staff, table, role, status):
    api.force_authenticate(staff(role))
    assert api.post("/api/rounds/batch/", {"rounds": [body(table)]}, format="json").status_code == status
    assert RoundOfPlay.objects.count() == (1 if status == 201 else 0)


def test_a_batch_with_a_table_of_another_casino_is_not_found(api, supervisor, table):
    api.force_authenticate(supervisor)
    response = api.post("/api/rounds/batch/", {"rounds": [body(table), body(PokerTableFactory())]}, format="json")
    assert response.status_code == 404
    assert not RoundOfPlay.objects.exists()


def test_a_batch_retried_with_its_idempotency_key_records_nothing_more(api, supervisor, table):
    api.force_authenticate(supervisor)
    payload = {"rounds": [body(table), body(table)]}
    first = api.post("/api/rounds/batch/", payload, format="json", HTTP_IDEMPOTENCY_KEY="batch-1")
    again = api.post("/api/rounds/batch/", payload, format="json", HTTP_IDEMPOTENCY_KEY="batch-1")
    assert first.status_code == again.status_code == 201
    assert again["Idempotent-Replayed"] == "true" and again.json() == first.json()
    assert RoundOfPlay.objects.count() == 2
