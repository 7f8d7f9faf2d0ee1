from django.urls import path

from . import views

app_name = "seats"
urlpatterns = [
    path("", views.board, name="board"),
    path("kiosk/", views.kiosk, name="kiosk"),
    path("record/", views.record, name="record"),
]
