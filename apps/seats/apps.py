from django.apps import AppConfig


class SeatsConfig(AppConfig):
    name = "apps.seats"
    label = "seats"
    verbose_name = "Seats and waitlists"

    def ready(self) -> None:
        from apps.tables.closing import Keeper, register

        from .selectors import players_still_at_table
        from .services import unseat_at_closing

        # A closing table lists the players still in its seats and, once the person closing it confirms they have
        # left or moved, has their seats vacated (a closed table seats no one).
        register(Keeper(field="players_unseated", ask="See its players leave or move to another table",
                        still_at=players_still_at_table, collect=unseat_at_closing))
