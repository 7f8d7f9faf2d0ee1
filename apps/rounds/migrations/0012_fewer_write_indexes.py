"""The indexes that another index leading with the same columns already gives, dropped: each cost every round of play
recorded a write (bench/README.md, issue 35). The source digest's uniqueness is the same constraint, renamed."""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('rounds', '0011_round_features'),
        ('tables', '0008_contribution_container_capacity'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.AlterField(
                    model_name='pot',
                    name='round_of_play',
                    field=models.ForeignKey(db_index=False, on_delete=django.db.models.deletion.PROTECT, related_name='pots', to='rounds.roundofplay'),
                ),
                migrations.AlterField(
                    model_name='potaward',
                    name='pot',
                    field=models.ForeignKey(db_index=False, on_delete=django.db.models.deletion.PROTECT, related_name='awards', to='rounds.pot'),
                ),
                migrations.AlterField(
                    model_name='roundofplay',
                    name='source_digest',
                    field=models.CharField(blank=True, help_text='SHA-256 of the source hand: each source hand is stored once.', max_length=64, null=True),
                ),
                migrations.AlterField(
                    model_name='roundofplay',
                    name='started_at',
                    field=models.DateTimeField(),
                ),
                migrations.AlterField(
                    model_name='roundofplay',
                    name='table',
                    field=models.ForeignKey(db_index=False, on_delete=django.db.models.deletion.PROTECT, related_name='rounds', to='tables.pokertable'),
                ),
                migrations.AlterField(
                    model_name='roundplayer',
                    name='round_of_play',
                    field=models.ForeignKey(db_index=False, on_delete=django.db.models.deletion.PROTECT, related_name='players', to='rounds.roundofplay'),
                ),
                migrations.AddConstraint(
                    model_name='roundofplay',
                    constraint=models.UniqueConstraint(fields=('source_digest',), name='round_source_digest_unique'),
                ),
            ],
            # the indexes dropped by name (the foreign keys stay as they are: Django would drop and re-add
            # them, checking every row again under an exclusive lock)
            database_operations=[migrations.RunSQL(sql='DROP INDEX IF EXISTS rounds_pot_round_of_play_id_01532c62; DROP INDEX IF EXISTS rounds_potaward_pot_id_23cefb4e; DROP INDEX IF EXISTS rounds_roundofplay_source_digest_20fab88b_like; DROP INDEX IF EXISTS rounds_roundofplay_started_at_3074cf53; DROP INDEX IF EXISTS rounds_roundofplay_table_id_eef1c3ce; DROP INDEX IF EXISTS rounds_roundplayer_round_of_play_id_95dbdba1; ALTER TABLE rounds_roundofplay RENAME CONSTRAINT rounds_roundofplay_source_digest_key TO round_source_digest_unique',
                                                   reverse_sql='ALTER TABLE rounds_roundofplay RENAME CONSTRAINT round_source_digest_unique TO rounds_roundofplay_source_digest_key; CREATE INDEX rounds_pot_round_of_play_id_01532c62 ON rounds_pot (round_of_play_id); CREATE INDEX rounds_potaward_pot_id_23cefb4e ON rounds_potaward (pot_id); CREATE INDEX rounds_roundofplay_source_digest_20fab88b_like ON rounds_roundofplay (source_digest varchar_pattern_ops); CREATE INDEX rounds_roundofplay_started_at_3074cf53 ON rounds_roundofplay (started_at); CREATE INDEX rounds_roundofplay_table_id_eef1c3ce ON rounds_roundofplay (table_id); CREATE INDEX rounds_roundplayer_round_of_play_id_95dbdba1 ON rounds_roundplayer (round_of_play_id)')],
        ),
    ]
