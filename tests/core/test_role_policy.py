"""One role policy, tested from the URL configuration (issue 13, item 7).

Every URL pattern — pages, htmx partials (served at their page's URL), CSV and PDF exports, API operations —
declares which permission (so which roles) may read it and which may write it (apps.core.policy). The walk below
fails naming any pattern, or any operation of the OpenAPI schema, that declares none; then each role, an anonymous
visitor and a user of another casino request every URL with every method it answers, on one seeded room, and the
answer must be the one the policy implies: allowed (no 401/403, no redirect to sign in, a read answers 200),
refused (403; an anonymous visitor is sent to sign in, or gets 401/403 from the API; a user of another casino gets
403 or 404 for a record of this casino) and, for a refused request, nothing written in the database (PostgreSQL's
own count of the rows inserted, updated and deleted by the transaction). Each request runs in a savepoint that is
rolled back, so an allowed write changes nothing for the next request.

Django's admin site (/admin/) is left out: it checks staff status and each model's permissions itself, and only
administrators are staff (apps/*/admin.py).

Dealers see no balances, rake records or display adjustments (the issue's findings): named in TestDealersSeeNoMoney.
"""
import json
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import timedelta
from decimal import Decimal

import pytest
import rules
from django.conf import settings
from django.db import connection, transaction
from django.shortcuts import resolve_url
from django.urls import URLResolver, get_resolver, resolve, reverse
from django.utils import timezone
from knox.models import AuthToken

from apps.badbeat.models import Claim, DisplayAdjustment, RuleChange
from apps.badbeat.previews import payment_preview, verification_preview
from apps.badbeat.selectors import payable_amount
from apps.badbeat.services import propose_rule_change
from apps.casinos.selectors import current_gaming_day
from apps.core.policy import WRITE_METHODS, policy_of
from apps.core.roles import Role
from apps.counts.models import CountMethod, WitnessKind
from apps.counts.services import combine_counts, record_count
from apps.dealers.models import DealerDown
from apps.decks.services import receive_deck
from apps.feed.models import ImportJob
from apps.feed.services import PlayerIn, RoundIn, record_round_of_play
from apps.irregularities.services import log_irregularity
from apps.multicasino.models import Notice, SystemClaim, SystemRuleChange, UndeliveredNotice
from apps.multicasino.services.setup import add_site, set_up_system
from apps.rake.models import RakeRecord, TimeCharge
from apps.rake.services import collect_time_charge, post_time_charge_structure
from apps.screens.selectors import token_for
from apps.screens.services import issue_display_link
from tests.decks.factories import deck_at_table
from tests.factories import (
    CasinoFactory,
    JackpotFactory,
    PokerTableFactory,
    RakeStructureFactory,
    StaffFactory,
)

D = Decimal
pytestmark = pytest.mark.django_db
ADMIN_SITE = "admin"  # see the module's docstring
ANONYMOUS, ELSEWHERE = "anonymous", "another casino"
WHO = [*Role, ANONYMOUS, ELSEWHERE]
MULTICASINO_RULES = {
    "qualifying_hand": "four_of_a_kind", "qualifying_minimum_rank": None, "both_hole_cards_must_play": True,
    "minimum_players_dealt": 4, "contribution_amount": "1.00", "contribution_percentage": None, "minimum_pot": "20.00",
    "maximum_contribution": "1.00", "reset_percentage": "10.00", "losing_share": "50.00", "winning_share": "25.00",
    "table_share": "25.00"}


# --- the URL configuration ------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Route:
    name: str  # with its namespace, as reverse() takes it
    route: str  # as written, for the messages
    callback: Callable
    params: frozenset[str]


def routes() -> list[Route]:
    """Every URL pattern of the project, the admin site's aside."""

    def walk(resolver, prefix: str, namespace: str, params: frozenset[str]):
        for entry in resolver.url_patterns:
            found = params | set(entry.pattern.regex.groupindex)
            if isinstance(entry, URLResolver):
                if entry.app_name != ADMIN_SITE:
                    yield from walk(entry, prefix + str(entry.pattern),
                                    ":".join(filter(None, [namespace, entry.namespace])), found)
            else:
                yield Route(":".join(filter(None, [namespace, entry.name or ""])), prefix + str(entry.pattern),
                            entry.callback, frozenset(found))

    return list(walk(get_resolver(), "/", "", frozenset()))


def test_every_url_declares_its_role_policy():
    found = routes()
    assert len(found) > 60
    assert [r.route for r in found if policy_of(r.callback) is None] == []
    assert [r.route for r in found if not r.name or r.name.endswith(":")] == []  # named: the walk below reverses them


def test_every_api_operation_declares_its_method():
    """Each operation of the OpenAPI schema, resolved to its view: the policy names its method (or is open)."""
    from drf_spectacular.generators import SchemaGenerator

    schema = SchemaGenerator().get_schema(request=None, public=True)
    operations = [(path, method.upper()) for path, item in schema["paths"].items() for method in item]
    assert len(operations) > 30
    undeclared = []
    for path, method in operations:
        policy = policy_of(resolve(re.sub(r"\{[^}]+\}", "1", path)).func)
        if policy is None or method not in policy.methods:
            undeclared.append(f"{method} {path}")
    assert undeclared == []


def test_every_declared_permission_is_a_rule():
    """A permission misspelt in a policy would refuse everyone: each one is a rule of an app's rules.py."""
    named = {perm for r in routes() if (p := policy_of(r.callback)) for perm in p.perms.values()}
    assert {perm for perm in named if not rules.perm_exists(perm)} == set()
    assert {"badbeat.view_display_adjustments", "rake.view_rakerecord", "rake.view_rakestructure"} <= named


def test_open_urls_say_why():
    open_ones = {r.name: p for r in routes() if (p := policy_of(r.callback)) and not p.perms}
    assert {name for name, p in open_ones.items() if p.anyone} == {"login", "logout", "api-token", "multicasino-inbox",
                                                                   "screens:screen", "public-feed", "public:page",
                                                                   "health-live", "health-ready", "favicon"}
    assert {name for name, p in open_ones.items() if p.signed_in} == {
        "api-root", "api-token-logout", "api-token-logout-all", "schema", "swagger-ui", "home"}
    assert all(len(p.anyone or p.signed_in) > 10 for p in open_ones.values())


SUPERVISOR, FLOOR, DEALER, ACCOUNTING = Role.POKER_SHIFT_SUPERVISOR, Role.FLOORPERSON, Role.DEALER, Role.ACCOUNTING
SECURITY, SURVEILLANCE, ADMIN = Role.SECURITY, Role.SURVEILLANCE, Role.ADMIN
EVERY_ROLE = set(Role)
#: The role policy in one table: each permission a URL declares (and badbeat.view_balance, which hides accounting's
#: figures of a payout inside the jackpot pages and API) and the roles that hold it. A change of the rules shows here.
ROLE_POLICY = {
    "badbeat.act_on_claim": {SUPERVISOR, ACCOUNTING, SECURITY},
    "badbeat.adjust_display": {ACCOUNTING},
    "badbeat.change_rules": {SUPERVISOR, ADMIN},
    "badbeat.discontinue_jackpot": {ADMIN},
    "badbeat.record_payout": {ACCOUNTING, SECURITY},
    "badbeat.verify_claim": {SUPERVISOR},
    "badbeat.view_balance": EVERY_ROLE - {DEALER},
    "badbeat.view_claim": EVERY_ROLE,
    "badbeat.view_contribution_ledger": {SUPERVISOR, ACCOUNTING, SECURITY, SURVEILLANCE, ADMIN},
    "badbeat.view_display_adjustments": EVERY_ROLE - {DEALER},
    "badbeat.view_jackpot": EVERY_ROLE,
    "compliance.view_matrix": {ACCOUNTING, SURVEILLANCE, ADMIN},  # auditors: the compliance matrix (issue 16)
    "counts.combine_counts": {SUPERVISOR},  # the contents of boxes counted at closed tables, in one container
    "counts.reconcile": {ACCOUNTING},
    "counts.record_count": {SUPERVISOR, ACCOUNTING},
    "counts.verify_aggregate_count": {ACCOUNTING},  # the cage cashier verifies a container's aggregate count
    "counts.view_counts": {SUPERVISOR, ACCOUNTING, SECURITY, SURVEILLANCE, ADMIN},
    "counts.view_reconciliation": {SUPERVISOR, ACCOUNTING, SURVEILLANCE, ADMIN},
    "dealers.plan_rotation": {SUPERVISOR, ADMIN},
    "dealers.record_own_deck_event": {DEALER},  # from the dealer's home, a deck at the table dealt now
    "dealers.view_own_table": {DEALER},  # the dealer's home: the table dealt now
    "dealers.view_rotation": {SUPERVISOR, FLOOR, DEALER, SURVEILLANCE, ADMIN},
    "decks.distribute": {SUPERVISOR, ADMIN},
    "decks.manage_decks": {SUPERVISOR, FLOOR, ADMIN},
    "decks.record_event": {SUPERVISOR, FLOOR, DEALER, SECURITY, ADMIN},
    "decks.view_board": EVERY_ROLE - {ACCOUNTING},
    "floor.view_dashboard": EVERY_ROLE - {DEALER},
    "irregularities.add_irregularity": {SUPERVISOR, FLOOR, DEALER, ADMIN},
    "irregularities.view_irregularity": EVERY_ROLE - {ACCOUNTING},
    "irregularities.resolve_irregularity": {SUPERVISOR, FLOOR},  # the floor sees to what a dealer reported (14.15)
    "multicasino.approve_rules": {ADMIN},  # or a supervisor holding a casino key employee license, 14.20(c)1
    "multicasino.record_notice_delivery": {SUPERVISOR, ADMIN},
    "multicasino.view_system": EVERY_ROLE,
    "qualifiers.design_qualifiers": {SUPERVISOR, ADMIN},  # the designer: who proposes qualifying hands (14.19(q))
    "rake.change_rakestructure": {SUPERVISOR, ADMIN},
    "rake.collect_time_charge": {SUPERVISOR, FLOOR, DEALER, ADMIN},
    "rake.verify_time_charge": {SUPERVISOR, FLOOR, ADMIN},
    "rake.view_rakerecord": EVERY_ROLE - {DEALER},
    "rake.view_rakestructure": EVERY_ROLE,
    "rake.view_revenue": {SUPERVISOR, ACCOUNTING, SURVEILLANCE, ADMIN},
    "rounds.add_roundofplay": {SUPERVISOR, FLOOR, DEALER, ADMIN},
    "rounds.view_roundofplay": EVERY_ROLE,
    "seats.keep_board": {SUPERVISOR, FLOOR, ADMIN},  # the floor keeps the seats and the lists; a dealer reads them
    "seats.view_board": {SUPERVISOR, FLOOR, DEALER, SURVEILLANCE, ADMIN},
    "screens.add_displaylink": {ADMIN},  # a display link opens a room screen with no sign-in: issued by an admin
    "screens.change_displaylink": {ADMIN},
    "screens.view_displaylink": {SUPERVISOR, ADMIN},  # the supervisor sees the screens, not their links
    "tables.add_pokertable": {SUPERVISOR, ADMIN},
    "tables.change_pokertable": {SUPERVISOR, ADMIN},
    "tables.open_close_table": {SUPERVISOR, FLOOR},
    "tables.view_pokertable": EVERY_ROLE,
}
#: Accounting's record and the room's money: balances and reserves, display adjustments, rake records and revenue,
#: counts, forms and the Master Game Report, the contributions ledger and the floor's totals. No dealer holds one.
MONEY = {"badbeat.view_balance", "badbeat.view_display_adjustments", "badbeat.view_contribution_ledger",
         "rake.view_rakerecord", "rake.view_revenue", "counts.view_counts", "counts.view_reconciliation",
         "floor.view_dashboard"}


def test_the_role_policy_in_one_table(settings):
    """The roles holding each permission a URL declares are ROLE_POLICY's; a new permission is added there. Dealers
    hold none of the money permissions; surveillance only reads (no write of any URL)."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    casino = CasinoFactory()
    users = {role: StaffFactory(casino=casino, roles=[role]) for role in Role}
    declared = {r.name: p for r in routes() if (p := policy_of(r.callback))}
    named = {perm for p in declared.values() for perm in p.perms.values()} | {"badbeat.view_balance"}
    assert set(ROLE_POLICY) == named
    assert {perm: {role for role in Role if users[role].has_perm(perm)} for perm in named} == ROLE_POLICY
    assert {perm for perm in MONEY if DEALER in ROLE_POLICY[perm]} == set()
    writes = {f"{m} {name}" for name, p in declared.items() for m, perm in p.perms.items()
              if m in WRITE_METHODS and SURVEILLANCE in ROLE_POLICY[perm]}
    assert writes == set()


# --- one room, with a record behind every URL -----------------------------------------------------------------------

@dataclass
class Room:
    casino: object
    staff: dict
    elsewhere: object
    table: object
    round: object
    claim: object
    jackpot: object
    objects: dict = field(default_factory=dict)  # URL name -> (kwargs, a record of this casino?)
    payloads: dict = field(default_factory=dict)  # URL name -> (room, user) -> request data


def refuse_transport(url, text, headers):
    raise ConnectionError("No message leaves the test.")


@pytest.fixture
def room(settings):
    settings.MULTICASINO_TRANSPORT = "tests.core.test_role_policy.refuse_transport"
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]  # nobody signs in with one here
    casino = CasinoFactory()
    staff = {role: StaffFactory(casino=casino, roles=[role]) for role in Role}
    supervisor, dealer = staff[Role.POKER_SHIFT_SUPERVISOR], staff[Role.DEALER]
    jackpot = JackpotFactory(casino=casino, minimum_pot=D("0"))
    table = PokerTableFactory(casino=casino)
    RakeStructureFactory(table=table)
    round_of_play = record_round_of_play(table=table, round_in=RoundIn(
        started_at=timezone.now(), board="9h 9d 6s 7s 8s", players=[
            PlayerIn(seat=1, name="Ann", contributed=D("50"), hole_cards="9s 9c"),
            PlayerIn(seat=2, name="Ben", contributed=D("50"), hole_cards="5s 4s")]))
    claim = Claim.objects.get(round_of_play=round_of_play)
    timed = PokerTableFactory(casino=casino)
    post_time_charge_structure(table=timed, hourly_fee=D("12.00"), interval_minutes=30)
    now = timezone.now().replace(second=0, microsecond=0)
    charge = collect_time_charge(table=timed, period_start=now - timedelta(hours=1), players_seated=5,
                                 collected_by=dealer)
    deck = deck_at_table(table, "R-1", "red", staff[Role.FLOORPERSON])
    reported = log_irregularity(table=table, kind="face_up_in_deck", description="Card face up", reported_by=dealer)
    DealerDown.objects.create(casino=casino, dealer=dealer, table=table, starts_at=timezone.now() - timedelta(minutes=5),
                              ends_at=timezone.now() + timedelta(minutes=25), planned_by=supervisor)  # deck R-1's table
    stored = receive_deck(casino=casino, serial="B-1", back_colour="blue", by=staff[Role.FLOORPERSON])
    change = propose_rule_change(jackpot=jackpot, changes={"minimum_pot": "25.00"},
                                 effective_at=timezone.now() + timedelta(days=2), proposed_by=supervisor)
    form = record_count(table=table, method=CountMethod.TABLE_INVENTORY, chips={"1": 1}, counted_by=dealer,
                        witness=supervisor, witness_kind=WitnessKind.SUPERVISOR, surveillance_recorded=True,
                        recorded_by=supervisor)
    closed = PokerTableFactory(casino=casino, is_open=False)  # its box counted there, twice (14.19(d)1)
    boxes = [record_count(table=closed, method=CountMethod.CLOSED_TABLE, amount=D("2.00"), counted_by=dealer,
                          witness=supervisor, witness_kind=WitnessKind.SUPERVISOR, surveillance_recorded=True,
                          recorded_by=supervisor) for _ in range(2)]
    container = combine_counts(casino=casino, count_ids=[boxes[0].pk], combined_by=supervisor,
                               transported_by=staff[Role.SECURITY])
    job = ImportJob.objects.create(casino=casino, requested_by=dealer, name="night.phhs", text="", hands=2000)
    system = set_up_system(code="nj", name="NJ Bad Beat", host_name="Boardwalk", host_address="AC",
                           rules=MULTICASINO_RULES)
    add_site(system=system, code="boardwalk", name="Boardwalk", is_host=True, is_self=True)
    peer = add_site(system=system, code="borgata", name="Borgata", inbox_url="http://a.test/",
                    inbound_secrets=["whsec_" + "c2l0ZS1hLXRvLWhvc3Qtc2VjcmV0LTEyMzQ1Njc4"],
                    outbound_secrets=["whsec_" + "aG9zdC10by1zaXRlLXNlY3JldC0xMjM0NTY3OA=="])
    system_claim = SystemClaim.objects.create(
        system=system, site=peer, reference="9", status="pending", amount=D("100.00"), table_number=4,
        round_reference="r9", losing_hand="Four of a kind", losing_cards="", winning_hand="Straight flush",
        winning_cards="", verified_by="Sam", verified_at=now)
    notice = Notice.objects.create(system=system, claim=system_claim, kind="pending", reference="n1", text="Pending",
                                   issued_at=now)
    undelivered = UndeliveredNotice.objects.create(notice=notice, site=peer)
    system_change = SystemRuleChange.objects.create(
        system=system, reference="rc_1", rules={**MULTICASINO_RULES, "minimum_pot": "10.00"},
        two_claims_rule=system.two_claims_rule, rules_hash="0" * 64, summary="Minimum pot $10",
        effective_at=now + timedelta(days=7), proposed_by="Key employee", proposed_at=now)
    elsewhere = StaffFactory(casino=CasinoFactory(), roles=list(Role))
    screen = issue_display_link(casino=casino, kind="jackpot", name="Rail 1", issued_by=staff[Role.ADMIN])
    day = current_gaming_day(casino=casino).isoformat()
    mine = {
        "floor:table": {"pk": table.pk}, "floor:table-sign": {"pk": table.pk}, "floor:round": {"pk": round_of_play.pk},
        "decks:record-event": {"pk": deck.pk}, "dealers:record-deck-event": {"pk": deck.pk},
        "irregularities:resolve": {"pk": reported.pk}, "badbeat:rule-change-withdraw": {"pk": change.pk},
        "badbeat:claim": {"pk": claim.pk}, "round-detail": {"pk": round_of_play.pk}, "phh-import": {"pk": job.pk},
        "table-detail": {"pk": table.pk}, "table-open": {"pk": table.pk}, "table-close": {"pk": table.pk},
        "rake-record-detail": {"pk": RakeRecord.objects.get(round_of_play=round_of_play).pk},
        "display-adjustments": {"pk": jackpot.pk}, "rule-changes": {"pk": jackpot.pk},
        "jackpot-discontinue": {"pk": jackpot.pk}, "rule-change-withdraw": {"pk": change.pk},
        "claim-verify": {"pk": claim.pk}, "claim-reject": {"pk": claim.pk}, "claim-payout": {"pk": claim.pk},
        "rake-structure": {"table_id": table.pk}, "time-charges": {"table_id": timed.pk},
        "time-charge-verify": {"pk": charge.pk}, "screens:revoke": {"pk": screen.pk},
        "screens:screen": {"token": token_for(screen)}, "seats:accept-round": {"pk": table.pk},
        "public-feed": {"code": casino.code}, "public:page": {"code": casino.code},
        "counts:container": {"pk": container.pk}, "count-container-verify": {"pk": container.pk}}
    # The multi-casino system is the deployment's, not one casino's; a gaming day is a date.
    shared = {"multicasino:notice-delivered": {"pk": undelivered.pk},
              "multicasino:approve-rules": {"pk": system_change.pk},
              **{f"multicasino:{name}": {"code": system.code}
                 for name in ("propose-rules", "report", "report-csv", "report-pdf", "contributions-csv")},
              **{f"counts:{name}": {"day": day}
                 for name in ("reconciliation-day", "mgr", "mgr-pdf", "mgr-csv", "forms-pdf", "forms-csv")}}
    security = staff[Role.SECURITY]
    later = (timezone.now() + timedelta(days=2)).isoformat()
    a_round = {"table": table.pk, "board": "Ah Kd 5c 9s 3h", "players": [
        {"seat": 1, "name": "Ana", "contributed": "50.00", "hole_cards": "As Ks"},
        {"seat": 2, "name": "Ben", "contributed": "50.00", "hole_cards": "2c 7d"}]}
    # What each write sends: a request that writes when it is allowed, so that a refusal proves something.
    payloads = {
        "decks:receive": lambda user: {"serial": "G-7", "back_colour": "green"},
        "decks:assign": lambda user: {"deck": stored.pk, "table": timed.pk},
        "decks:record-event": lambda user: {"kind": "counted", "card_count": "52"},
        "dealers:record-deck-event": lambda user: {"kind": "counted", "card_count": "52"},
        "decks:distribution": lambda user: {"line": f"{timed.pk}:{stored.pk}", "considerations": "Fresh deck"},
        "irregularities:list": lambda user: {"table": table.pk, "kind": "misdeal", "description": "Two cards exposed"},
        "irregularities:resolve": lambda user: {"note": "Deck changed"},
        "dealers:rotation": lambda user: {"start": f"{now:%Y-%m-%dT%H:00}", "hours": "2", "down_minutes": "20",
                                          "dealers": [dealer.pk], "tables": [table.pk]},
        "badbeat:rules": lambda user: {"jackpot": jackpot.pk, "field": "minimum_pot", "value": "30.00",
                                       "effective_at": later[:16], "summary": "Minimum pot $30"},
        "badbeat:rule-change-withdraw": lambda user: {"confirm": "yes"},
        "badbeat:claims": lambda user: {"jackpot": jackpot.pk, "round_of_play": round_of_play.pk},
        # confirmed, with the figures the page showed (apps.badbeat.previews), as a person sends them
        "badbeat:claim": lambda user: (
            {"action": "payout", "method": "cash", "location": "table", "delivered_by": security.pk, "confirm": "on",
             "checked": getattr(payment_preview(claim=Claim.objects.get(pk=claim.pk)), "fingerprint", "")}
            if user and user.has_perm("badbeat.record_payout") else
            {"action": "verify", "confirm": "on",
             "checked": getattr(verification_preview(claim=Claim.objects.get(pk=claim.pk)), "fingerprint", "")}),
        # signed by both people with their own passwords (tests.factories.StaffFactory's)
        "badbeat:adjust-display": lambda user: {"jackpot": jackpot.pk, "displayed_amount": payable_amount(
            jackpot=jackpot), "supervisor_present": supervisor.pk, "reason": "daily",
            "accounting_password": "pw-for-tests-1", "supervisor_password": "pw-for-tests-1"},
        "multicasino:notice-delivered": lambda user: {"means": "telephone"},
        "counts:reconciliation-day": lambda user: {"action": "receive", "part": "duplicate",
                                                   "serial_numbers": str(form.serial_number)},
        "counts:containers": lambda user: {"counts": [boxes[1].pk], "transported_by": security.pk},
        "counts:container": lambda user: {"amount": "2.00"},
        "count-containers": lambda user: {"counts": [boxes[1].pk], "transported_by": security.pk},
        "count-container-verify": lambda user: {"amount": "2.00"},
        "rounds": lambda user: a_round,
        "table-list": lambda user: {"number": 77, "game": "holdem", "betting_structure": "no_limit", "seats": 9,
                                    "small_blind": "1.00", "big_blind": "2.00", "minimum_wager": "2.00"},
        "table-detail": lambda user: {"location": "High limit"},
        "display-adjustments": lambda user: {"displayed_amount": str(payable_amount(jackpot=jackpot)),
                                             "supervisor_present": supervisor.pk},
        "rule-changes": lambda user: {"changes": {"minimum_pot": "30.00"}, "effective_at": later},
        "claims": lambda user: {"jackpot": jackpot.pk, "round_of_play": round_of_play.pk},
        "claim-reject": lambda user: {"note": "Not a bad beat"},
        "counts": lambda user: {"table": table.number, "method": "table_inventory", "counted_by": dealer.pk,
                                "witness": supervisor.pk, "witness_kind": "supervisor",
                                "surveillance_recorded": True, "chips": {"1": 2}},
        "form-receipts": lambda user: {"serial_number": form.serial_number, "part": "duplicate"},
        "reconciliations": lambda user: {"gaming_day": day},
        "rake-structure": lambda user: {"method": "percentage", "percentage": "10.00", "maximum": "4.00"},
        "time-charges": lambda user: {"period_start": (now - timedelta(minutes=30)).isoformat(),
                                      "players_seated": 4},
        "multicasino:propose-rules": lambda user: {},
        "screens:links": lambda user: {"kind": "games", "name": "Board by the desk"},
        "screens:revoke": lambda user: {"confirm": "yes"},
        "seats:board": lambda user: {"action": "seat", "table": table.pk, "number": "3", "player": "Ann"},
        "seats:accept-round": lambda user: {"round": round_of_play.pk},  # its seats 1, 2: the record has none
    }
    return Room(casino=casino, staff=staff, elsewhere=elsewhere, table=table, round=round_of_play, claim=claim,
                jackpot=jackpot, objects={**{n: (kw, True) for n, kw in mine.items()},
                                          **{n: (kw, False) for n, kw in shared.items()}}, payloads=payloads)


# --- each role against each URL -------------------------------------------------------------------------------------

WRITES_SQL = ("SELECT relname, n_tup_ins, n_tup_upd, n_tup_del FROM pg_stat_xact_user_tables "
              "WHERE n_tup_ins + n_tup_upd + n_tup_del > 0")


def rows_written() -> dict[str, tuple]:
    """PostgreSQL's count of the rows this transaction inserted, updated and deleted, per table (subtransactions
    included, rolled back or not)."""
    with connection.cursor() as cursor:
        cursor.execute(WRITES_SQL)
        return {table: counts for table, *counts in cursor.fetchall()}


def attempt(client, method: str, url: str, data: dict | None, token: str | None):
    """(response, tables written) of one request, in a savepoint rolled back afterwards."""
    api = url.startswith("/api/")
    headers = {"HTTP_AUTHORIZATION": f"Token {token}"} if api and token else {}
    with transaction.atomic():
        before = rows_written()
        if method == "GET":
            response = client.get(url, **headers)
        elif api:
            response = client.generic(method, url, json.dumps(data or {}), content_type="application/json", **headers)
        else:
            response = client.post(url, data or {}, **headers)
        after = rows_written()
        transaction.set_rollback(True)
    return response, sorted(t for t in after.keys() | before.keys() if after.get(t) != before.get(t))


def expected(policy, method: str, user, *, elsewhere: bool) -> str:
    """What the policy implies for `user` (None: anonymous): open, allowed, refused, or elsewhere (a record of
    another casino than the user's)."""
    if policy.anyone:
        return "open"
    if user is None:
        return "refused"
    if elsewhere:
        return "elsewhere"
    if policy.signed_in or user.has_perm(policy.perms[method]):
        return "allowed"
    return "refused"


#: URLs whose allowed read sends the user on to a page (a redirect, not to sign in): each user's home, which
#: redirects to the first page the user's role may open (apps.core.navigation; tests/core/test_navigation.py).
REDIRECTING_READS = {"home"}


def judge(outcome: str, method: str, url: str, response, written: list[str], *, anonymous: bool,
          redirects: bool = False) -> str | None:
    """The failure, if the answer is not what `outcome` asks; None when it is. `redirects`: an allowed read answers
    302 (REDIRECTING_READS), not 200."""
    status = response.status_code
    to_sign_in = status == 302 and response["Location"].startswith(resolve_url(settings.LOGIN_URL))
    if status >= 500:
        return f"answered {status}"
    if outcome == "open":
        return f"answered {status} though open" if status == 403 else None
    if outcome == "allowed":
        if status in (401, 403, 405) or to_sign_in:
            return f"refused ({status}) though allowed"
        if method == "GET" and status != (302 if redirects else 200):
            return f"answered {status} to an allowed read"
        return "answered 404 to an allowed write: the test's record is wrong" if status == 404 else None
    if written:
        return f"refused ({status}) but wrote to {written}"
    if outcome == "elsewhere":
        return None if status in (403, 404) else f"answered {status} for a record of another casino"
    if anonymous and not url.startswith("/api/"):
        return None if to_sign_in else f"answered {status}, not the sign-in page, to an anonymous visitor"
    if anonymous:
        return None if status in (401, 403) else f"answered {status} to an anonymous visitor"
    return None if status == 403 else f"answered {status} though refused"


@pytest.mark.parametrize("who", WHO, ids=str)
def test_each_role_against_each_url(client, room, who, monkeypatch):
    """Each role (and an anonymous visitor, and a user of another casino, for this casino's records) against every
    URL and method: the answer the declared policy implies; a refused request writes nothing. The PDF exports render
    their page but skip weasyprint's layout (tests/counts and tests/multicasino print them), to keep this quick."""
    import weasyprint

    monkeypatch.setattr(weasyprint.HTML, "write_pdf", lambda self, *args, **kwargs: b"%PDF-1.7 not laid out")
    client.raise_request_exception = False
    user = None if who == ANONYMOUS else room.elsewhere if who == ELSEWHERE else room.staff[who]
    token = None
    if user is not None:
        client.force_login(user)
        token = AuthToken.objects.create(user=user)[1]
    failures, checks = [], 0
    for route in routes():
        policy = policy_of(route.callback)
        kwargs, of_this_casino = {}, False
        params = set(route.params) - {"format"}
        if params:
            if route.name not in room.objects:
                failures.append(f"{route.route}: no record to request it with (Room.objects)")
                continue
            kwargs, of_this_casino = room.objects[route.name]
        if who == ELSEWHERE and not of_this_casino:
            continue  # a user of another casino differs from this casino's users only on this casino's records
        url = reverse(route.name, kwargs=kwargs | ({"format": "json"} if "format" in route.params else {}))
        for method in policy.methods:
            outcome = expected(policy, method, user, elsewhere=who == ELSEWHERE)
            payload = room.payloads.get(route.name, lambda user: {})(user) if method != "GET" else None
            response, written = attempt(client, method, url, payload, token)
            checks += 1
            if failure := judge(outcome, method, url, response, written, anonymous=user is None,
                                redirects=route.name in REDIRECTING_READS):
                failures.append(f"{method} {url} ({route.name}, {outcome}): {failure}")
    assert failures == []
    assert checks >= (15 if who == ELSEWHERE else 80)


# --- the dealers' leaks (the issue's findings) ----------------------------------------------------------------------

class TestDealersSeeNoMoney:
    """A dealer collects the rake and the contribution of the rounds dealt (14.10(e)8, 9) and reads what patrons
    read (the displayed amount and the posted rules, 14.19(b)); never accounting's record (14.19(k)): no rake
    records, time charges or revenue (14.14), no jackpot balance or reserve (14.19(k), (p)), no display adjustment
    (14.19(k)), no count, form or Master Game Report (14.19(f), (h))."""

    @pytest.fixture
    def dealer_api(self, client, room):
        client.force_login(room.staff[Role.DEALER])
        return client

    def test_rake_records_and_time_charges_are_refused(self, dealer_api, room):
        record = RakeRecord.objects.get(round_of_play=room.round)
        assert dealer_api.get("/api/rake-records/").status_code == 403
        assert dealer_api.get(f"/api/rake-records/{record.pk}/").status_code == 403
        timed = TimeCharge.objects.get().table_id
        assert dealer_api.get(f"/api/tables/{timed}/time-charges/").status_code == 403
        assert dealer_api.get("/rake/").status_code == 403 and dealer_api.get("/rake/export.csv").status_code == 403
        posted = dealer_api.get(f"/api/tables/{room.table.pk}/rake-structure/")  # posted at the table, 14.14(c)
        assert posted.status_code == 200 and posted.json()["percentage"] == "10.00"

    def test_the_floor_reads_rake_records(self, client, room):
        client.force_login(room.staff[Role.FLOORPERSON])
        assert client.get("/api/rake-records/").json()["results"][0]["amount"] == str(room.round.rake_record.amount)

    def test_jackpots_without_balances(self, dealer_api, room):
        hidden = {"balance", "payable_amount", "reset_reserve", "contributions_total"}
        for answer in (dealer_api.get("/api/jackpots/").json()[0], dealer_api.get("/api/jackpot/").json()):
            assert {name for name in hidden if answer[name] is not None} == set()
            assert answer["displayed_amount"] == "0.00" and answer["qualifying"]  # what patrons see
        dealer_api.force_login(room.staff[Role.ACCOUNTING])
        answer = dealer_api.get("/api/jackpot/").json()
        room.jackpot.refresh_from_db()
        assert answer["balance"] == str(room.jackpot.balance) == "1.00" and answer["payable_amount"] == "1.00"

    def test_rules_page_shows_the_displayed_amount_only(self, dealer_api, room):
        room.jackpot.refresh_from_db()
        page = dealer_api.get("/jackpot/rules/").content.decode()
        assert "Displayed amount" in page and "now set aside" not in page and "Current amount" not in page
        dealer_api.force_login(room.staff[Role.POKER_SHIFT_SUPERVISOR])
        page = dealer_api.get("/jackpot/rules/").content.decode()
        assert "Current amount" in page and "now set aside" in page

    def test_display_adjustments_are_refused(self, dealer_api, room):
        supervisor = room.staff[Role.POKER_SHIFT_SUPERVISOR]
        assert dealer_api.get("/jackpot/display/adjust/").status_code == 403
        data = {"jackpot": room.jackpot.pk, "displayed_amount": "1.00", "supervisor_present": supervisor.pk}
        assert dealer_api.post("/jackpot/display/adjust/", data | {"reason": "daily"}).status_code == 403
        api = dealer_api.post(f"/api/jackpots/{room.jackpot.pk}/display-adjustments/", data,
                              content_type="application/json")
        assert api.status_code == 403 and not DisplayAdjustment.objects.exists()
        assert dealer_api.get("/jackpot/display/").status_code == 200  # the room's display, as patrons see it

    @pytest.mark.parametrize("url", ["/counts/", "/accounting/reconciliation/", "/accounting/contributions/", "/"])
    def test_counts_forms_reports_and_the_dashboard_are_refused(self, dealer_api, url):
        assert dealer_api.get(url).status_code == 403

    def test_a_dealer_still_records_rounds_and_time_charges(self, dealer_api, room):
        """What a dealer posts comes back: the round (its own chips, pots and deductions) and the charge collected."""
        posted = dealer_api.post("/api/rounds/", {"table": room.table.pk, "board": "Ah Kd 5c 9s 3h", "players": [
            {"seat": 1, "contributed": "50.00", "hole_cards": "As Ks"},
            {"seat": 2, "contributed": "50.00", "hole_cards": "2c 7d"}]}, content_type="application/json")
        assert posted.status_code == 201  # $100 less the $5 rake and the $1 contribution, 14.14, 14.19(c)
        assert posted.json()["pots"][0]["awards"] == [{"seat": 1, "amount": "94.00"}]
        timed = TimeCharge.objects.get().table_id
        charge = dealer_api.post(f"/api/tables/{timed}/time-charges/", {
            "period_start": (timezone.now() - timedelta(minutes=5)).isoformat(), "players_seated": 3},
            content_type="application/json")
        assert charge.status_code == 201 and charge.json()["amount"] == "18.00"
        assert RuleChange.objects.count() == 1  # untouched
