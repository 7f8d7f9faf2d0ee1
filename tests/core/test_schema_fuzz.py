"""Schema-driven fuzzing of the API (issue 13 item 8): schemathesis generates requests from the OpenAPI schema for
every operation, sends each with every role's API token (and with none) to the app in-process (WSGI) on the
suite's PostgreSQL, and checks not_a_server_error, status_code_conformance and response_schema_conformance: no
input gives a 500, every answer's status is one the schema declares, and every body (the errors' one shape included)
matches its declared schema.

The room is seeded once for the module (the demo room: staff of every role, tables of every game, the jackpots, a
few rounds, a claim, a rule change, a time charge, an import job) and committed; each run (operation x role) is a
test of its own whose writes are rolled back at its end. Path ids and the ids in a body are now and then replaced
by the seeded room's, so that requests get past "no such record" into the services.

Bounded for CI: at most FUZZ_MAX_EXAMPLES (5) generated examples an operation and role in the fuzzing phase, besides
the schema's examples and the coverage phase's boundary cases; fixed seed FUZZ_SEED (1313), derandomized.
`make fuzz` runs it with a larger budget (FUZZ_MAX_EXAMPLES=100). The run prints its summary line (tests/core/
conftest.py): operations x roles, examples, failures.
"""
import io
import json
import os
import time
import traceback
from datetime import timedelta
from decimal import Decimal

import pytest
import schemathesis
from django.core.handlers.wsgi import WSGIHandler
from django.core.management import call_command
from django.core.signals import got_request_exception, request_finished, request_started
from django.db import close_old_connections, transaction
from django.utils import timezone
from drf_spectacular.generators import SchemaGenerator
from drf_spectacular.renderers import OpenApiJsonRenderer
from hypothesis import HealthCheck
from hypothesis import settings as hypothesis_settings
from hypothesis import strategies as st
from knox.models import get_token_model
from rest_framework.throttling import SimpleRateThrottle
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import response_schema_conformance, status_code_conformance

from apps.core.roles import Role

MAX_EXAMPLES = int(os.environ.get("FUZZ_MAX_EXAMPLES", "5"))
SEED = int(os.environ.get("FUZZ_SEED", "1313"))
CHECKS = [not_a_server_error, status_code_conformance, response_schema_conformance]
ROLES = [*(role.value for role in Role), "anonymous"]

pytestmark = pytest.mark.django_db


def _openapi() -> dict:
    """The API's OpenAPI schema as /api/schema/ serves it (generated without a request)."""
    return json.loads(OpenApiJsonRenderer().render(SchemaGenerator().get_schema(request=None, public=True)))


def _schema(phases: dict) -> schemathesis.BaseSchema:
    loaded = schemathesis.openapi.from_dict(OPENAPI, config=schemathesis.Config.from_dict({
        "seed": SEED, "phases": phases,
        "generation": {"max-examples": MAX_EXAMPLES, "mode": "all", "deterministic": True, "database": "none"}}))
    loaded.app = APP
    loaded.hook(flatmap_path_parameters)
    loaded.hook(flatmap_body)
    return loaded


OPENAPI = _openapi()
APP = WSGIHandler()

#: The seeded room's ids by kind, filled by the `fuzz_room` fixture; read while examples are generated.
KNOWN: dict[str, list[int]] = {}
#: The first path segment after /api/ -> the kind of record its {id} or {table_id} names.
PATH_KINDS = {"claims": "claims", "jackpots": "jackpots", "rule-changes": "rule_changes", "phh-imports": "imports",
              "rake-records": "rake_records", "rounds": "rounds", "tables": "tables", "time-charges": "time_charges"}
#: A body's field -> the kind of record it names (table numbers where the API takes a number).
BODY_KINDS = {"table": "tables", "jackpot": "jackpots", "target": "jackpots", "round_of_play": "rounds",
              "supervisor_present": "users", "counted_by": "users", "witness": "users", "delivered_by": "users"}
BY_NUMBER = ("/api/counts/", "/api/late-corrections/")


def _known(kind: str, values: dict, name: str):
    ids = KNOWN.get(kind)
    if not ids:
        return st.just(values)
    return st.one_of(st.just(values), st.sampled_from(ids).map(lambda pk: {**values, name: pk}))


def flatmap_path_parameters(context, path_parameters):
    if not isinstance(path_parameters, dict):
        return st.just(path_parameters)
    kind = PATH_KINDS.get(context.operation.path.split("/")[2])
    name = next((n for n in ("id", "table_id") if n in path_parameters), None)
    if kind is None or name is None:
        return st.just(path_parameters)
    return _known(kind, path_parameters, name)


def flatmap_body(context, body):
    if not isinstance(body, dict):
        return st.just(body)
    strategy = st.just(body)
    for name, kind in BODY_KINDS.items():
        if name in body:
            kind = "table_numbers" if name == "table" and context.operation.path in BY_NUMBER else kind
            strategy = strategy.flatmap(lambda values, kind=kind, name=name: _known(kind, values, name))
    return strategy


#: Generated examples for every role: the schema's own examples and the fuzzing phase.
fuzzed = _schema({"examples": {"enabled": True}, "fuzzing": {"enabled": True}, "coverage": {"enabled": False}})
#: The coverage phase's boundary cases (missing, wrong-typed and out-of-range values of every parameter), as a role
#: that may perform the operation (CI) or as every role (`make fuzz`, FUZZ_COVERAGE_ROLES=all).
bounded = _schema({"examples": {"enabled": False}, "fuzzing": {"enabled": False}, "coverage": {"enabled": True}})


class FuzzRoom:
    """The seeded room: each role's API token (`tokens[role]`) and the ids of its records (KNOWN)."""

    def __init__(self, tokens: dict[str, str]) -> None:
        self.tokens = tokens


def _seed() -> FuzzRoom:
    """The demo room (seed_demo --no-rounds), a few rounds of play (a bad beat among them, with its claims), a rule
    change, a time charge and an import job; committed."""
    from apps.badbeat.models import Claim, Jackpot, RuleChange
    from apps.badbeat.services import propose_rule_change
    from apps.casinos.models import Casino, User
    from apps.feed.models import ImportJob
    from apps.feed.services import PlayerIn, RoundIn, record_round_of_play
    from apps.feed.simulator import simulate_day
    from apps.rake.models import RakeRecord, TimeCharge
    from apps.rake.services import collect_time_charge, post_time_charge_structure
    from apps.rounds.models import RoundOfPlay, RoundSource
    from apps.tables.models import PokerTable

    call_command("seed_demo", "--no-rounds", stdout=io.StringIO())
    casino = Casino.objects.get(code="boardwalk")
    users = {role.value: User.objects.get(username=role.value) for role in Role}
    tables = {t.number: t for t in PokerTable.objects.filter(casino=casino)}
    now = timezone.now()
    for table_id, round_in in simulate_day(seed=SEED, start=now - timedelta(minutes=40), end=now - timedelta(minutes=5),
                                           rounds_per_hour=12, tables=[(tables[n].pk, tables[n].small_blind,
                                                                        tables[n].big_blind) for n in (1, 2)]):
        record_round_of_play(table=PokerTable.objects.get(pk=table_id), round_in=round_in)
    record_round_of_play(table=tables[3], round_in=RoundIn(
        started_at=now - timedelta(minutes=3), board="9h 9d 6s 7s 8s", source=RoundSource.SIMULATOR,
        source_name="fuzz bad beat", players=[
            PlayerIn(seat=1, name="Ana", contributed=Decimal("480.00"), hole_cards="9s 9c"),
            PlayerIn(seat=4, name="Dee", contributed=Decimal("480.00"), hole_cards="5s 4s"),
            PlayerIn(seat=6, name="Fay", contributed=Decimal("5.00"), hole_cards="Kd 2c", folded=True),
            PlayerIn(seat=8, name="Hal", contributed=Decimal("5.00"), hole_cards="Qc Jd", folded=True)]))
    primary = Jackpot.objects.get(casino=casino, kind="primary")
    propose_rule_change(jackpot=primary, changes={"reset_percentage": "12.00"}, effective_at=now + timedelta(days=30),
                        proposed_by=users[Role.POKER_SHIFT_SUPERVISOR.value], summary="The reset goes to 12%.")
    post_time_charge_structure(table=tables[9], hourly_fee=Decimal("12.00"), interval_minutes=30)
    collect_time_charge(table=tables[9], period_start=now - timedelta(minutes=45), players_seated=5,
                        collected_by=users[Role.DEALER.value])
    ImportJob.objects.create(casino=casino, requested_by=users[Role.POKER_SHIFT_SUPERVISOR.value], name="fuzz.phhs",
                             text="", hands=0)
    KNOWN.update({
        "tables": sorted(t.pk for t in tables.values()), "table_numbers": sorted(tables),
        "rounds": list(RoundOfPlay.objects.filter(table__casino=casino).values_list("pk", flat=True)[:20]),
        "rake_records": list(RakeRecord.objects.filter(table__casino=casino).values_list("pk", flat=True)[:20]),
        "claims": list(Claim.objects.filter(jackpot__casino=casino).values_list("pk", flat=True)),
        "jackpots": list(Jackpot.objects.filter(casino=casino).values_list("pk", flat=True)),
        "rule_changes": list(RuleChange.objects.filter(jackpot__casino=casino).values_list("pk", flat=True)),
        "imports": list(ImportJob.objects.filter(casino=casino).values_list("pk", flat=True)),
        "time_charges": list(TimeCharge.objects.filter(table__casino=casino).values_list("pk", flat=True)),
        "users": sorted(u.pk for u in users.values()),
    })
    assert KNOWN["claims"] and KNOWN["rounds"] and KNOWN["time_charges"], KNOWN
    tokens = {role: get_token_model().objects.create(user=user, expiry=timedelta(hours=10))[1]
              for role, user in users.items()}
    return FuzzRoom(tokens)


@pytest.fixture(scope="module")
def fuzz_room(django_db_setup, django_db_blocker):
    """The seeded room, committed for the module's runs (each rolls its own writes back); flushed at the end. The
    throttles are lifted (429 stays declared) and Django's per-request connection clean-up is off while the app runs
    in-process, as Django's own test client does."""
    with django_db_blocker.unblock():
        room = _seed()
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(SimpleRateThrottle, "THROTTLE_RATES", {"anon": "1000000/min", "user": "1000000/min",
                                                              "api_token": "1000000/min"})
        request_started.disconnect(close_old_connections)
        request_finished.disconnect(close_old_connections)
        try:
            yield room
        finally:
            request_started.connect(close_old_connections)
            request_finished.connect(close_old_connections)
            KNOWN.clear()
            with django_db_blocker.unblock():
                call_command("flush", interactive=False, verbosity=0)


@pytest.fixture
def server_errors():
    """Tracebacks of the exceptions the app turned into a 500 during the test."""
    caught: list[str] = []

    def keep(sender, request=None, **kwargs):
        caught.append(traceback.format_exc())

    got_request_exception.connect(keep, weak=False)
    yield caught
    got_request_exception.disconnect(keep)


@pytest.fixture
def fuzz_run(request, fuzz_tally):
    """Tallies the run (operation x role) and its examples for the summary line."""
    run = {"examples": 0}
    started = time.monotonic()
    yield run
    fuzz_tally["runs"] += 1
    fuzz_tally["examples"] += run["examples"]
    fuzz_tally["seconds"] += time.monotonic() - started
    fuzz_tally["max_examples"], fuzz_tally["seed"] = MAX_EXAMPLES, SEED


def _call_and_validate(case, role: str, room: FuzzRoom, run: dict, tally: dict, server_errors: list) -> None:
    """Send `case` as `role` (its API token; none for "anonymous") and run the three checks; a 500's traceback is
    printed (pytest shows it with the failure)."""
    tally["operations"] = sorted({*tally["operations"], case.operation.label})
    tally["roles"] = sorted({*tally["roles"], role})
    run["examples"] += 1
    print("MEDIA", case.media_type, case.meta.phase.name if case.meta else None, file=__import__("sys").stderr)
    headers = {"Authorization": f"Token {room.tokens[role]}"} if role != "anonymous" else {}
    server_errors.clear()
    with transaction.atomic():  # a savepoint: a 500's broken transaction is rolled back, the next example runs
        response = case.call(headers=headers)
        if response.status_code >= 500:
            transaction.set_rollback(True)
    for caught in server_errors:
        print(caught)
    case.validate_response(response, checks=CHECKS)


def _acting_role(operation, room: FuzzRoom) -> str:
    """The first role (in ROLES' order) whose token gets past the operation's role check: one request as each role,
    with the seeded room's ids in the path and no body, rolled back; "anonymous" for an operation open to anyone."""
    if operation.label not in ACTING:
        from werkzeug.test import Client

        path = operation.path
        for name in ("{id}", "{table_id}"):
            kind = PATH_KINDS.get(path.split("/")[2], "")
            path = path.replace(name, str((KNOWN.get(kind) or [1])[0]))
        ACTING[operation.label] = "anonymous"
        for role in ROLES:
            headers = {"Authorization": f"Token {room.tokens[role]}"} if role != "anonymous" else {}
            with transaction.atomic():
                status = Client(APP).open(path, method=operation.method.upper(), headers=headers).status_code
                transaction.set_rollback(True)
            if status not in (401, 403):
                ACTING[operation.label] = role
                break
    return ACTING[operation.label]


#: Operation label -> the role the coverage phase runs it as (CI), found by `_acting_role`.
ACTING: dict[str, str] = {}
COVERAGE_ROLES = ROLES if os.environ.get("FUZZ_COVERAGE_ROLES") == "all" else ["acting"]


@fuzzed.parametrize()
@pytest.mark.parametrize("role", ROLES)
@hypothesis_settings(deadline=None, suppress_health_check=list(HealthCheck))
def test_api_operation(case, role, fuzz_room, fuzz_run, fuzz_tally, server_errors):
    """Every operation, as every role and as no one: no 500, a declared status, a body of the declared schema."""
    _call_and_validate(case, role, fuzz_room, fuzz_run, fuzz_tally, server_errors)


@bounded.parametrize()
@pytest.mark.parametrize("role", COVERAGE_ROLES)
@hypothesis_settings(deadline=None, suppress_health_check=list(HealthCheck))
def test_api_operation_boundaries(case, role, fuzz_room, fuzz_run, fuzz_tally, server_errors):
    """Every operation's boundary cases (the coverage phase), as a role that may perform it (every role with
    FUZZ_COVERAGE_ROLES=all): no 500, a declared status, a body of the declared schema."""
    role = _acting_role(case.operation, fuzz_room) if role == "acting" else role
    _call_and_validate(case, role, fuzz_room, fuzz_run, fuzz_tally, server_errors)
