from django.apps import AppConfig


class RakeConfig(AppConfig):
    name = "apps.rake"
    label = "rake"
    verbose_name = "Rake"
