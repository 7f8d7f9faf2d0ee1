from django.apps import AppConfig


class DealersConfig(AppConfig):
    name = "apps.dealers"
    label = "dealers"
    verbose_name = "Dealer rotation"
