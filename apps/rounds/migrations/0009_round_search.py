"""The round search's indexes (apps.rounds.filters): the players who showed a hand, by category (a partial index),
and the players by the start of their name in capitals — UPPER(name) with the
text_pattern_ops operator class, so that `UPPER(name) LIKE 'ANA%'` (Django's istartswith) and `UPPER(name) = 'ANA'`
(iexact) are served whatever the database's collation."""
from django.db import migrations, models

NAME_INDEX = "round_player_name_prefix"


def create_name_index(apps, schema_editor):
    schema_editor.execute(f'CREATE INDEX "{NAME_INDEX}" ON "rounds_roundplayer" (UPPER("name"::text) text_pattern_ops)')


def drop_name_index(apps, schema_editor):
    schema_editor.execute(f'DROP INDEX IF EXISTS "{NAME_INDEX}"')


class Migration(migrations.Migration):

    dependencies = [
        ('rounds', '0008_running_totals'),
    ]

    operations = [
        migrations.AddIndex(
            model_name='roundplayer',
            index=models.Index(condition=models.Q(('high_hand', ''), _negated=True), fields=['high_hand', 'round_of_play'], name='round_player_high_hand'),
        ),
        migrations.RunPython(create_name_index, drop_name_index, elidable=False),
    ]
