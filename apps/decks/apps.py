from django.apps import AppConfig


class DecksConfig(AppConfig):
    name = "apps.decks"
    label = "decks"
    verbose_name = "Decks and their rotation"
