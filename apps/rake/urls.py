from django.urls import path

from . import views

app_name = "rake"
urlpatterns = [
    path("", views.revenue, name="revenue"),
    path("export.csv", views.revenue_csv, name="revenue-csv"),
]
