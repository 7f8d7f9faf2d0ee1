from django.urls import path

from . import views

app_name = "feed"
urlpatterns = [
    path("", views.rake_audit, name="rake-audit"),
    path("export.csv", views.rake_audit_csv, name="rake-audit-csv"),
]
