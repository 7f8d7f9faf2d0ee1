from django.apps import AppConfig


class BadbeatConfig(AppConfig):
    name = "apps.badbeat"
    label = "badbeat"
    verbose_name = "Bad-beat jackpot"
