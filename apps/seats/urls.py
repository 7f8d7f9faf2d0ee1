from django.urls import path

from . import views

app_name = "seats"
urlpatterns = [
    path("", views.board, name="board"),
    path("tables/<int:pk>/accept-round/", views.accept_round, name="accept-round"),
    path("kiosk/", views.kiosk, name="kiosk"),
    path("record/", views.record, name="record"),
]
