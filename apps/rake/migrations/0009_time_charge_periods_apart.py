"""The periods of a table's time charges do not overlap (N.J.A.C. 13:69F-14.14(b)3: each period of play is charged
once): an exclusion constraint over each charge's period, [period_start, period_start +
interval_minutes), per table — two collections at 07:00 and 07:13 every 30 minutes cannot both be written, also when two
requests make them at the same moment (apps.rake.services.collect_time_charge answers 409 with the period collected).

`table_id WITH =` in a GiST index needs btree_gist, a trusted extension since PostgreSQL 13: the database's owner, who
runs `migrate` (README, "Database roles"), creates it without being a superuser. The period's end is computed in UTC
(timestamp + interval is immutable there, as an index expression must be). Time charges are append-only: when charges
collected before this migration overlap, the constraint holds from the charge after the last of them (each charge
involved is listed), and the service's check refuses a new charge over any of them.
"""
from django.db import migrations

CONSTRAINT = "time_charge_periods_do_not_overlap"


def _end(alias: str = "") -> str:
    column = f"{alias}." if alias else ""
    return (f"(({column}period_start AT TIME ZONE 'UTC') + make_interval(mins => {column}interval_minutes::integer)) "
            "AT TIME ZONE 'UTC'")


#: The ids of the charges whose period overlaps another's at the same table, in one pass in period order: a charge
#: overlaps one that starts before it when it starts before the furthest end so far, and one that starts after it
#: when the next one starts before it ends.
OVERLAPPING = f"""
SELECT id FROM (
    SELECT id, period_start, {_end()} AS period_end,
           max({_end()}) OVER (PARTITION BY table_id ORDER BY period_start, id
                               ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING) AS reach,
           lead(period_start) OVER (PARTITION BY table_id ORDER BY period_start, id) AS next_start
    FROM rake_timecharge) AS periods
WHERE period_start < reach OR next_start < period_end
ORDER BY id
"""


def keep_periods_apart(apps, schema_editor):
    schema_editor.execute("CREATE EXTENSION IF NOT EXISTS btree_gist")
    with schema_editor.connection.cursor() as cursor:
        cursor.execute(OVERLAPPING)
        overlapping = [pk for (pk,) in cursor.fetchall()]
    where = ""
    if overlapping:
        where = f" WHERE (id > {int(overlapping[-1])})"
        print(f"\n  Time charges collected before this migration overlap at their table (ids {overlapping}): the "
              f"periods of the charges after time charge {overlapping[-1]} are kept apart.")
    schema_editor.execute(
        f'ALTER TABLE rake_timecharge ADD CONSTRAINT "{CONSTRAINT}" EXCLUDE USING gist '
        f"(table_id WITH =, tstzrange(period_start, {_end()}, '[)') WITH &&){where}")


def drop_constraint(apps, schema_editor):
    schema_editor.execute(f'ALTER TABLE rake_timecharge DROP CONSTRAINT IF EXISTS "{CONSTRAINT}"')


class Migration(migrations.Migration):

    dependencies = [
        ("rake", "0008_rake_by_hour"),
    ]

    operations = [
        migrations.RunPython(keep_periods_apart, drop_constraint, elidable=False),
    ]
