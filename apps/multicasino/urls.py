from django.urls import path

from . import views

app_name = "multicasino"
urlpatterns = [
    path("", views.status, name="status"),
    path("posting/", views.posting, name="posting"),
    path("<slug:code>/contributions.csv", views.contributions_csv, name="contributions-csv"),
]
