from django.apps import AppConfig


class DecksConfig(AppConfig):
    name = "apps.decks"
    label = "decks"
    verbose_name = "Decks and their rotation"

    def ready(self) -> None:
        from apps.tables.closing import register

        from .selectors import decks_still_at_table

        register(decks_still_at_table)  # a closing table asks which of its decks are still there (14.2(a))
