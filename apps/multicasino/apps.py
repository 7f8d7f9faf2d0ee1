from django.apps import AppConfig


class MulticasinoConfig(AppConfig):
    name = "apps.multicasino"
    label = "multicasino"
    verbose_name = "Multi-casino bad beat system (14.20)"

    def ready(self) -> None:
        from apps.badbeat.signals import contribution_recorded

        from . import receivers

        contribution_recorded.connect(receivers.report_contribution, dispatch_uid="multicasino.report_contribution")
