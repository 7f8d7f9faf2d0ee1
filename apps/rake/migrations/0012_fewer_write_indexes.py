"""The rake record's table index dropped: rake_record_table_newest (table, -id) leads with the same column."""

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('rake', '0011_no_flop_no_drop'),
        ('tables', '0008_contribution_container_capacity'),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.AlterField(
                    model_name='rakerecord',
                    name='table',
                    field=models.ForeignKey(db_index=False, on_delete=django.db.models.deletion.PROTECT, related_name='rake_records', to='tables.pokertable'),
                ),
            ],
            # the indexes dropped by name (the foreign keys stay as they are: Django would drop and re-add
            # them, checking every row again under an exclusive lock)
            database_operations=[migrations.RunSQL(sql='DROP INDEX IF EXISTS rake_rakerecord_table_id_7c403af1',
                                                   reverse_sql='CREATE INDEX rake_rakerecord_table_id_7c403af1 ON rake_rakerecord (table_id)')],
        ),
    ]
