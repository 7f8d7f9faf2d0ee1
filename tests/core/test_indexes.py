"""The indexes of the tables every round of play writes: none that another index already gives.

An index whose columns lead another index of the same table (a foreign key's own index beside a composite one that
begins with it, say) answers no query the longer one does not, and costs every round of play recorded a write
(bench/README.md, issue 35: about 7 % of a PHH import's time)."""
import pytest
from django.db import connection, transaction

from apps.badbeat.models import Contribution
from apps.feed.models import SourceSettlement
from apps.rake.models import RakeRecord
from apps.rounds.models import Pot, PotAward, RoundOfPlay, RoundPlayer
from tests.support.database_roles import connected_as

#: The records the money path writes for each round of play (apps.feed.services.money_path).
PER_ROUND = [RoundOfPlay, RoundPlayer, Pot, PotAward, RakeRecord, Contribution, SourceSettlement]

#: (table, index, the index that already gives it): a plain index (not unique, no predicate, no expression) whose
#: key columns, with their operator classes, begin another index of the table; for more than one column, in the
#: same directions (a btree is read either way, so one column's direction does not matter).
REDUNDANT = """
SELECT t.relname, i.relname, o.relname
FROM pg_index a
JOIN pg_index b ON a.indrelid = b.indrelid AND a.indexrelid <> b.indexrelid
JOIN pg_class i ON i.oid = a.indexrelid
JOIN pg_class o ON o.oid = b.indexrelid
JOIN pg_class t ON t.oid = a.indrelid
WHERE t.relname = ANY(%s) AND NOT a.indisunique AND a.indexprs IS NULL AND a.indpred IS NULL
  AND b.indpred IS NULL AND b.indexprs IS NULL AND a.indnkeyatts <= b.indnkeyatts
  AND (a.indkey::int2[])[0:a.indnkeyatts - 1] = (b.indkey::int2[])[0:a.indnkeyatts - 1]
  AND (a.indclass::oid[])[0:a.indnkeyatts - 1] = (b.indclass::oid[])[0:a.indnkeyatts - 1]
  AND (a.indnkeyatts = 1 OR (a.indoption::int2[])[0:a.indnkeyatts - 1] = (b.indoption::int2[])[0:a.indnkeyatts - 1])
ORDER BY 1, 2
"""


def _redundant(tables: list[str]) -> list[tuple[str, str, str]]:
    with connection.cursor() as cursor:
        cursor.execute(REDUNDANT, [tables])
        return [tuple(row) for row in cursor.fetchall()]


@pytest.mark.django_db
def test_no_index_of_a_round_of_plays_records_repeats_the_lead_of_another():
    assert _redundant([model._meta.db_table for model in PER_ROUND]) == []


@pytest.mark.django_db
def test_the_check_finds_an_index_that_repeats_the_lead_of_another(database_roles_in_use):
    """The query above is not vacuous: a single-column index on round_of_play_id beside round_player_seat_unique
    (round_of_play_id, seat) is found, and so is one on started_at beside round_newest_first (started_at DESC, id
    DESC); an index on (seat, round_of_play_id) is not (another lead). Made by the tables' owner, rolled back."""
    with connected_as(database_roles_in_use.owner), transaction.atomic():
        with connection.cursor() as cursor:
            cursor.execute("CREATE INDEX test_player_round ON rounds_roundplayer (round_of_play_id)")
            cursor.execute("CREATE INDEX test_round_started ON rounds_roundofplay (started_at)")
            cursor.execute("CREATE INDEX test_player_seat_round ON rounds_roundplayer (seat, round_of_play_id)")
        found = _redundant(["rounds_roundplayer", "rounds_roundofplay"])
        transaction.set_rollback(True)
    assert ("rounds_roundplayer", "test_player_round", "round_player_seat_unique") in found
    assert ("rounds_roundofplay", "test_round_started", "round_newest_first") in found
    assert not [row for row in found if row[1] == "test_player_seat_round"]
