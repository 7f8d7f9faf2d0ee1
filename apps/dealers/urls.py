from django.urls import path

from . import home, views

app_name = "dealers"
urlpatterns = [path("", views.rotation, name="rotation"), path("home/", home.dealer_home, name="home"),
               path("home/decks/<int:pk>/events/", home.record_deck_event, name="record-deck-event")]
