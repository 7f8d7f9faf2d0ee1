"""Celery application: the daily count, deck-rotation alerts and jackpot sync run here."""
import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "pokerroom.settings")

app = Celery("pokerroom")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
