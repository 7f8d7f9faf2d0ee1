"""The database refuses tampering (issue 13): the app's own login cannot change or remove a money record.

The suite connects as the app role (tests/conftest.py, TEST_DATABASE_APP_ROLE=1), which owns nothing and holds SELECT,
INSERT on every append-only table. PostgreSQL itself refuses its UPDATE, DELETE and TRUNCATE — permission denied,
SQLSTATE 42501, before any trigger runs — whatever the session sets; the append-only trigger refuses the owner's
UPDATE and DELETE as the second line. The append-only rule is the project's (design.md, "Money": a movement of money
is an append-only row); for the jackpot's records it keeps the record of N.J.A.C. 13:69F-14.19(c) (contributions) and
the one accounting reconciles, 14.19(k)."""
from decimal import Decimal

import psycopg.errors
import pytest
from django.apps import apps
from django.db import DatabaseError, connection, transaction
from django.utils import timezone

from apps.badbeat.models import Claim
from apps.badbeat.services import record_payout, verify_claim
from apps.core.database_roles import append_only_tables, grant_app_role, privilege_problems
from apps.core.roles import Role
from apps.feed.services import PlayerIn, RoundIn, record_round_of_play
from tests.factories import JackpotFactory, RakeStructureFactory, StaffFactory
from tests.support.database_roles import connected_as

D = Decimal
pytestmark = pytest.mark.django_db

# Every money table must be append-only (found from the models: a pgtrigger.Protect named "append_only").
MONEY_TABLES = {
    "rounds_roundofplay", "rounds_roundplayer", "rounds_pot", "rounds_potaward", "rounds_killrecord",
    "rake_rakerecord", "rake_timecharge", "rake_timechargeverification",
    "badbeat_contribution", "badbeat_claimshare", "badbeat_payout", "badbeat_resetseed", "badbeat_transfer",
    "badbeat_displayadjustment", "badbeat_dailyreset",
    "counts_badbeatcount", "counts_formreceipt", "counts_mastergamereportadjustment",
    "casinos_gamingdayclose", "casinos_backfill",
    "multicasino_poolentry", "multicasino_poolmovement",
}
APPEND_ONLY = append_only_tables()
PK = {model._meta.db_table: model._meta.pk.column for model in apps.get_models()}  # pghistory's events: pgh_id
TRIGGER_NAMES = r"pgtrigger\_append\_only\_%"  # pgtrigger names the append_only trigger so in the database
PROTECTED = sorted(set(APPEND_ONLY) - {t for t in APPEND_ONLY if t.endswith("event")})  # the pghistory events have
# no trigger of their own: only the first line guards them


def refused(statement: str, params=None) -> DatabaseError:
    """Run `statement` in a savepoint on the test's connection; the error it raised (it must raise)."""
    with pytest.raises(DatabaseError) as caught, transaction.atomic(), connection.cursor() as cursor:
        cursor.execute(statement, params)
    return caught.value


def assert_permission_denied(error: DatabaseError, what: str = "permission denied") -> None:
    """PostgreSQL's own refusal (insufficient_privilege, 42501), not the trigger's (raise_exception, P0001)."""
    assert isinstance(error.__cause__, psycopg.errors.InsufficientPrivilege), repr(error.__cause__)
    assert error.__cause__.sqlstate == "42501"
    assert what in str(error), str(error)


def trigger_of(table: str) -> str:
    with connection.cursor() as cursor:
        cursor.execute("SELECT tgname FROM pg_trigger WHERE tgrelid = %s::regclass AND tgname LIKE %s",
                       [table, TRIGGER_NAMES])
        row = cursor.fetchone()
    return row[0] if row else "pgtrigger_append_only"


def heads_up(table, *, board: str, a: str, b: str, each: str):
    return record_round_of_play(table=table, round_in=RoundIn(started_at=timezone.now(), board=board, players=[
        PlayerIn(seat=1, contributed=D(each), hole_cards=a), PlayerIn(seat=2, contributed=D(each), hole_cards=b)]))


def a_paid_bad_beat() -> None:
    """Rounds of play with rake and a contribution each (14.14, 14.19(c)), then a bad beat verified and paid (14.19(i),
    (j), (p)): rows in the rounds, rake, contribution, claim-share, payout and reset tables."""
    table = RakeStructureFactory().table
    JackpotFactory(casino=table.casino, minimum_pot=D("0"), reset_percentage=D("10"))
    for _ in range(3):
        heads_up(table, board="Ah Kd 5c 9s 3h", a="As Ks", b="2c 7d", each="50")
    bad_beat = heads_up(table, board="9h 9d 6s 7s 8s", a="9s 9c", b="5s 4s", each="100")
    supervisor = StaffFactory(casino=table.casino, roles=[Role.POKER_SHIFT_SUPERVISOR])
    guard = StaffFactory(casino=table.casino, roles=[Role.SECURITY])
    claim = verify_claim(claim=Claim.objects.get(round_of_play=bad_beat), supervisor=supervisor)
    record_payout(claim=claim, method="cash", location="table", delivered_by=guard, recorded_by=guard)


def test_every_money_table_is_append_only():
    """The project's rule (design.md, "Money"); the list the refusals below cover is found from the models."""
    assert MONEY_TABLES <= set(APPEND_ONLY), MONEY_TABLES - set(APPEND_ONLY)


def test_the_app_role_is_no_superuser_owns_nothing_and_holds_only_its_privileges(database_roles_in_use):
    with connection.cursor() as cursor:
        cursor.execute("SELECT current_user, rolsuper, rolcreatedb, rolcreaterole, rolreplication, rolbypassrls "
                       "FROM pg_roles WHERE rolname = current_user")
        assert cursor.fetchone() == (database_roles_in_use.app, False, False, False, False, False)
        cursor.execute("SELECT count(*) FROM pg_class WHERE relowner = (SELECT oid FROM pg_roles "
                       "WHERE rolname = current_user)")
        assert cursor.fetchone() == (0,)
        cursor.execute("SELECT DISTINCT pg_get_userbyid(c.relowner) FROM pg_class c JOIN pg_namespace n "
                       "ON n.oid = c.relnamespace WHERE n.nspname = 'public'")
        assert {owner for (owner,) in cursor.fetchall()} == {database_roles_in_use.owner}
    assert privilege_problems(role=database_roles_in_use.app) == []


@pytest.mark.parametrize("table", APPEND_ONLY)
@pytest.mark.proves("14.19(k)-official-record")
def test_14_19_c_k_the_app_role_may_not_update_delete_or_truncate(database_roles_in_use, table):
    """N.J.A.C. 13:69F-14.19(c), (k) for the jackpot's records; the project's append-only rule for every money table:
    PostgreSQL refuses the app's UPDATE, DELETE and TRUNCATE, with the trigger silenced or not."""
    quoted, pk = connection.ops.quote_name(table), PK[table]
    for statement in (f"UPDATE {quoted} SET {pk} = {pk}", f"DELETE FROM {quoted}", f"TRUNCATE {quoted}",
                      f"SELECT {pk} FROM {quoted} FOR UPDATE", f"ALTER TABLE {quoted} DISABLE TRIGGER ALL"):
        error = refused(statement)
        assert_permission_denied(error, "must be owner" if "ALTER" in statement else f"permission denied for table "
                                                                                      f"{table}")
    with transaction.atomic():  # the trigger's own escape hatch changes nothing for the app
        with connection.cursor() as cursor:
            cursor.execute("SELECT set_config('pgtrigger.ignore', %s, true)", ["{" + trigger_of(table) + "}"])
        assert_permission_denied(refused(f"UPDATE {quoted} SET {pk} = {pk}"), f"permission denied for table {table}")
        assert_permission_denied(refused(f"DELETE FROM {quoted}"), f"permission denied for table {table}")
    with connection.cursor() as cursor:  # reading and adding stay allowed
        cursor.execute("SELECT has_table_privilege(%s::regclass, 'SELECT'), has_table_privilege(%s::regclass, 'INSERT')",
                       [table, table])
        assert cursor.fetchone() == (True, True)


def test_the_app_role_may_not_switch_triggers_off_with_session_replication_role(database_roles_in_use):
    assert_permission_denied(refused("SET session_replication_role = replica"),
                             'permission denied to set parameter "session_replication_role"')
    assert_permission_denied(refused("SET LOCAL session_replication_role = replica"),
                             'permission denied to set parameter "session_replication_role"')


@pytest.mark.proves("14.19(k)-official-record")
def test_14_19_c_the_app_login_cannot_tamper_with_contributions_it_just_recorded(database_roles_in_use):
    """The issue's attack, on real rows, through the app's own connection: `SET LOCAL pgtrigger.ignore` then UPDATE,
    TRUNCATE, `session_replication_role` then DELETE — each refused by PostgreSQL; the rows and the jackpot's balance
    are unchanged (14.19(c): contributions are segregated and recorded; 14.19(k): accounting's record)."""
    from apps.badbeat.models import Contribution, Payout

    a_paid_bad_beat()
    contributions = list(Contribution.objects.order_by("pk").values_list("pk", "amount"))
    payouts = list(Payout.objects.values_list("pk", "amount"))
    assert len(contributions) == 4 and len(payouts) == 1
    trigger = trigger_of("badbeat_contribution")
    with transaction.atomic():
        with connection.cursor() as cursor:
            cursor.execute("SELECT set_config('pgtrigger.ignore', %s, true)", ["{" + trigger + "}"])
        assert_permission_denied(refused("UPDATE badbeat_contribution SET amount = 0 WHERE id = %s",
                                         [contributions[0][0]]))
        assert_permission_denied(refused("DELETE FROM badbeat_payout"))
    assert_permission_denied(refused("TRUNCATE badbeat_contribution CASCADE"))
    assert_permission_denied(refused("SET session_replication_role = replica"))
    assert_permission_denied(refused("DELETE FROM badbeat_contribution"))
    assert list(Contribution.objects.order_by("pk").values_list("pk", "amount")) == contributions
    assert list(Payout.objects.values_list("pk", "amount")) == payouts


@pytest.mark.proves("14.19(k)-official-record")
def test_14_19_c_k_the_append_only_trigger_is_the_second_line_for_the_owner(database_roles_in_use):
    """The owner holds every privilege on its tables, yet each append-only table's trigger refuses its UPDATE and
    DELETE (raise_exception, not a permission error); nor may the owner, no superuser, switch triggers off with
    session_replication_role. All of it is rolled back."""
    with connection.cursor() as cursor:
        cursor.execute(  # tgtype 27: ROW (1), BEFORE (2), DELETE (8), UPDATE (16); 'O': enabled
            "SELECT c.relname FROM pg_class c JOIN pg_trigger t ON t.tgrelid = c.oid WHERE t.tgname LIKE %s "
            "AND t.tgenabled = 'O' AND t.tgtype & 27 = 27", [TRIGGER_NAMES])
        enabled = {name for (name,) in cursor.fetchall()}
    assert set(PROTECTED) <= enabled, set(PROTECTED) - enabled
    with connected_as(database_roles_in_use.owner) as owner, transaction.atomic():
        with owner.cursor() as cursor:
            cursor.execute("SELECT current_user")
            assert cursor.fetchone() == (database_roles_in_use.owner,)
        a_paid_bad_beat()
        exercised = set()
        for table in PROTECTED:
            quoted = owner.ops.quote_name(table)
            with owner.cursor() as cursor:
                cursor.execute(f"SELECT {PK[table]} FROM {quoted} LIMIT 1")
                row = cursor.fetchone()
            if row is None:
                continue
            for statement in (f"UPDATE {quoted} SET {PK[table]} = {PK[table]} WHERE {PK[table]} = %s",
                              f"DELETE FROM {quoted} WHERE {PK[table]} = %s"):
                error = refused(statement, row)
                assert isinstance(error.__cause__, psycopg.errors.RaiseException), repr(error.__cause__)
                assert "pgtrigger: Cannot" in str(error)
            exercised.add(table)
        assert_permission_denied(refused("SET session_replication_role = replica"))
        transaction.set_rollback(True)
    assert {"rounds_roundofplay", "rounds_roundplayer", "rounds_pot", "rounds_potaward", "rake_rakerecord",
            "badbeat_contribution", "badbeat_claimshare", "badbeat_payout"} <= exercised, exercised


def test_migrate_grants_again_whatever_was_granted_by_hand(database_roles_in_use):
    """A privilege granted by hand (UPDATE on the contributions) is seen, and the pass after migrate takes it back."""
    app = database_roles_in_use.app
    with connected_as(database_roles_in_use.owner) as owner, transaction.atomic():
        with owner.cursor() as cursor:
            cursor.execute(f'GRANT UPDATE, TRUNCATE ON badbeat_contribution TO "{app}"')
        assert privilege_problems(role=app) == [
            f"badbeat_contribution: {app} holds INSERT, SELECT, TRUNCATE, UPDATE; expected INSERT, SELECT"]
        grant_app_role(role=app)
        assert privilege_problems(role=app) == []
        transaction.set_rollback(True)
