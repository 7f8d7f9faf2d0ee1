from django.apps import AppConfig


class IrregularitiesConfig(AppConfig):
    name = "apps.irregularities"
    label = "irregularities"
    verbose_name = "Irregularities (14.15)"
