from django.apps import AppConfig


class CountsConfig(AppConfig):
    name = "apps.counts"
    label = "counts"
    verbose_name = "Daily counts and reconciliation"

    def ready(self) -> None:
        from apps.tables.closing import Keeper, register

        from .selectors import container_uncounted_at_closing

        # A table whose contribution container holds chips not yet counted closes only once a count of it is recorded
        # (N.J.A.C. 13:69F-14.19(f)1, "upon table closing"): no confirmation at the closing takes its place.
        register(Keeper(field="container_counted",
                        ask="Record a count of its contribution container (reason: table closing) before closing it "
                            "(N.J.A.C. 13:69F-14.19(f)1)",
                        still_at=container_uncounted_at_closing))
