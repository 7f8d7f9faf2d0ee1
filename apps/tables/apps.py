from django.apps import AppConfig


class TablesConfig(AppConfig):
    name = "apps.tables"
    label = "tables"
    verbose_name = "Poker tables"
