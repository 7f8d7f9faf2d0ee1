from django.apps import AppConfig


class CountsConfig(AppConfig):
    name = "apps.counts"
    label = "counts"
    verbose_name = "Daily counts and reconciliation"
