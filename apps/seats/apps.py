from django.apps import AppConfig


class SeatsConfig(AppConfig):
    name = "apps.seats"
    label = "seats"
    verbose_name = "Seats and waitlists"
