from django.apps import AppConfig


class PublicConfig(AppConfig):
    name = "apps.public"
    label = "public"
    verbose_name = "Public feed and page (14.18)"
