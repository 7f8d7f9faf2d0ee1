from django.apps import AppConfig


class MulticasinoConfig(AppConfig):
    name = "apps.multicasino"
    label = "multicasino"
    verbose_name = "Multi-casino bad beat system (14.20)"

    def ready(self) -> None:
        from apps.badbeat.shared import register_shared_payout_system

        from .shared_payout import MulticasinoSystem

        register_shared_payout_system(MulticasinoSystem())
