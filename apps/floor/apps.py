from django.apps import AppConfig


class FloorConfig(AppConfig):
    name = "apps.floor"
    label = "floor"
    verbose_name = "Floor (supervisor pages)"
