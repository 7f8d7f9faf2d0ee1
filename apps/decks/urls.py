from django.urls import path

from . import views

app_name = "decks"
urlpatterns = [
    path("", views.board, name="board"),
    path("receive/", views.receive, name="receive"),
    path("distribution/", views.distribution, name="distribution"),
    path("assign/", views.assign, name="assign"),
    path("<int:pk>/events/", views.record_event, name="record-event"),
]
