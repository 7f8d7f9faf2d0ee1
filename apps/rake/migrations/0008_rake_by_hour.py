
import django.db.models.deletion
from decimal import Decimal
from django.db import migrations, models


def backfill(apps, schema_editor):
    """The running totals by table, hour and game of the rake already recorded, re-derived from the records."""
    from datetime import UTC

    from django.db.models import Count, Sum
    from django.db.models.functions import TruncHour

    Record, Total = apps.get_model("rake", "RakeRecord"), apps.get_model("rake", "TableHourRake")
    rows = (Record.objects.annotate(hour=TruncHour("round_of_play__started_at", tzinfo=UTC))
            .values("table_id", "gaming_day", "hour", "round_of_play__game", "round_of_play__betting_structure")
            .order_by().annotate(n=Count("pk"), basis=Sum("basis"), amount=Sum("amount")))
    Total.objects.bulk_create([Total(table_id=r["table_id"], gaming_day=r["gaming_day"], hour=r["hour"],
                                     game=r["round_of_play__game"], betting_structure=r["round_of_play__betting_structure"],
                                     rounds=r["n"], basis=r["basis"], amount=r["amount"]) for r in rows.iterator()],
                              batch_size=1000)


class Migration(migrations.Migration):

    dependencies = [
        ('rake', '0007_running_totals'),
        ('tables', '0003_mixed_game_rotation'),
    ]

    operations = [
        migrations.CreateModel(
            name='TableHourRake',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('gaming_day', models.DateField()),
                ('hour', models.DateTimeField(help_text='The hour the rounds of play started in (its start, in UTC).')),
                ('game', models.CharField(help_text="The game dealt (at a mixed-game table, the rotation's game).", max_length=20)),
                ('betting_structure', models.CharField(blank=True, max_length=12)),
                ('rounds', models.PositiveIntegerField(default=0, help_text='Rake records (one per settled round).')),
                ('basis', models.DecimalField(decimal_places=2, default=Decimal('0.00'), help_text='Sums bet, uncalled bets excluded.', max_digits=14)),
                ('amount', models.DecimalField(decimal_places=2, default=Decimal('0.00'), help_text='Rake taken.', max_digits=14)),
                ('table', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='hour_rake', to='tables.pokertable')),
            ],
            options={
                'ordering': ['-gaming_day', 'table', 'hour'],
            },
        ),
        migrations.DeleteModel(
            name='TableDayRake',
        ),
        migrations.AddIndex(
            model_name='tablehourrake',
            index=models.Index(fields=['gaming_day'], name='rake_hour_total_by_day'),
        ),
        migrations.AddConstraint(
            model_name='tablehourrake',
            constraint=models.UniqueConstraint(fields=('table', 'gaming_day', 'hour', 'game', 'betting_structure'), name='one_rake_total_per_table_hour_game'),
        ),
        migrations.RunPython(backfill, migrations.RunPython.noop),
    ]
