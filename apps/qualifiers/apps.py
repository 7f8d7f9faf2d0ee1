from django.apps import AppConfig


class QualifiersConfig(AppConfig):
    name = "apps.qualifiers"
    verbose_name = "Bad beat qualifier designer"
