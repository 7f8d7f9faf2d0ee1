from django.apps import AppConfig


class RoundsConfig(AppConfig):
    name = "apps.rounds"
    label = "rounds"
    verbose_name = "Rounds of play (hand feed)"
