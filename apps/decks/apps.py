from django.apps import AppConfig


class DecksConfig(AppConfig):
    name = "apps.decks"
    label = "decks"
    verbose_name = "Decks and their rotation"

    def ready(self) -> None:
        from apps.rounds.signals import round_recorded

        from . import receivers

        round_recorded.connect(receivers.record_round_deck, dispatch_uid="decks.record_round_deck")
