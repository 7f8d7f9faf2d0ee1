"""The contribution's single-column indexes dropped where contribution_*_newest (column, -id) leads with the column."""

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('badbeat', '0013_eligible_pots'),
        ('tables', '0008_contribution_container_capacity'),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.AlterField(
                    model_name='contribution',
                    name='gaming_day',
                    field=models.DateField(),
                ),
                migrations.AlterField(
                    model_name='contribution',
                    name='jackpot',
                    field=models.ForeignKey(db_index=False, on_delete=django.db.models.deletion.PROTECT, related_name='contributions', to='badbeat.jackpot'),
                ),
                migrations.AlterField(
                    model_name='contribution',
                    name='table',
                    field=models.ForeignKey(db_index=False, on_delete=django.db.models.deletion.PROTECT, related_name='bad_beat_contributions', to='tables.pokertable'),
                ),
            ],
            # the indexes dropped by name (the foreign keys stay as they are: Django would drop and re-add
            # them, checking every row again under an exclusive lock)
            database_operations=[migrations.RunSQL(sql='DROP INDEX IF EXISTS badbeat_contribution_gaming_day_38041b80; DROP INDEX IF EXISTS badbeat_contribution_jackpot_id_ac79119e; DROP INDEX IF EXISTS badbeat_contribution_table_id_3e701c90',
                                                   reverse_sql='CREATE INDEX badbeat_contribution_gaming_day_38041b80 ON badbeat_contribution (gaming_day); CREATE INDEX badbeat_contribution_jackpot_id_ac79119e ON badbeat_contribution (jackpot_id); CREATE INDEX badbeat_contribution_table_id_3e701c90 ON badbeat_contribution (table_id)')],
        ),
    ]
