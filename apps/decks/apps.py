from django.apps import AppConfig


class DecksConfig(AppConfig):
    name = "apps.decks"
    label = "decks"
    verbose_name = "Decks and their rotation"

    def ready(self) -> None:
        from apps.tables.closing import Keeper, register

        from .selectors import decks_still_at_table
        from .services import collect_decks

        # A closing table asks which of its decks are still there and, once their collection is confirmed, has them
        # removed from the table (N.J.A.C. 13:69F-14.2(a)).
        register(Keeper(field="decks_collected", ask="Collect its decks (N.J.A.C. 13:69F-14.2(a))",
                        still_at=decks_still_at_table, collect=collect_decks))
