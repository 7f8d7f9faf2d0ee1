from django.apps import AppConfig


class IrregularitiesConfig(AppConfig):
    name = "apps.irregularities"
    label = "irregularities"
    verbose_name = "Irregularities (14.15)"

    def ready(self) -> None:
        from apps.rounds.signals import round_recorded

        from . import receivers

        round_recorded.connect(receivers.log_dead_round, dispatch_uid="irregularities.log_dead_round")
