"""The indexes that read the verified claims still awaiting accounting's display adjustment, and a display's
adjustments since a moment, newest first (selectors.displays_to_adjust_upon_verification)."""

from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('badbeat', '0014_fewer_write_indexes'),
        ('rounds', '0012_fewer_write_indexes'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.AddIndex(
            model_name='claim',
            index=models.Index(condition=models.Q(('decided_at__isnull', False)), fields=['jackpot', '-decided_at'], name='claim_jackpot_decided_newest'),
        ),
        migrations.AddIndex(
            model_name='displayadjustment',
            index=models.Index(fields=['jackpot', '-created_at'], name='display_adjustment_newest'),
        ),
    ]
