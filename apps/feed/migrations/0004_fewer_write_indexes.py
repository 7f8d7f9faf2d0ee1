"""The source settlement's casino index dropped: source_settlement_newest (casino, -id) leads with the same column."""

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('casinos', '0004_gaming_day_closes'),
        ('feed', '0003_source_settlements'),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.AlterField(
                    model_name='sourcesettlement',
                    name='casino',
                    field=models.ForeignKey(db_index=False, on_delete=django.db.models.deletion.PROTECT, related_name='+', to='casinos.casino'),
                ),
            ],
            # the index dropped by name (the foreign key stays: Django would drop and re-add it)
            database_operations=[migrations.RunSQL(
                sql='DROP INDEX IF EXISTS feed_sourcesettlement_casino_id_588652c6',
                reverse_sql='CREATE INDEX feed_sourcesettlement_casino_id_588652c6 ON feed_sourcesettlement (casino_id)')],
        ),
    ]
