from django.apps import AppConfig


class FeedConfig(AppConfig):
    name = "apps.feed"
    label = "feed"
    verbose_name = "Hand feed (rounds of play in, the money path)"
