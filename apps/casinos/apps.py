from django.apps import AppConfig
from django.db.models.signals import post_migrate


class CasinosConfig(AppConfig):
    name = "apps.casinos"
    label = "casinos"
    verbose_name = "Casinos and staff"

    def ready(self) -> None:
        from .services import ensure_role_groups

        post_migrate.connect(lambda **kwargs: ensure_role_groups(), sender=self, weak=False)
