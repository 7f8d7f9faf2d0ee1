from django.apps import AppConfig


class BadbeatConfig(AppConfig):
    name = "apps.badbeat"
    label = "badbeat"
    verbose_name = "Bad-beat jackpot"

    def ready(self) -> None:
        from apps.rounds.signals import round_settled

        from . import receivers

        round_settled.connect(receivers.check_showdown_for_bad_beat, dispatch_uid="badbeat.check_showdown")
