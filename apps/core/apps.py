from django.apps import AppConfig


class CoreConfig(AppConfig):
    name = "apps.core"
    label = "core"
    verbose_name = "Core"

    def ready(self) -> None:
        from . import database_roles, signals  # noqa: F401 - connects the receivers (database_roles: grants after migrate)
