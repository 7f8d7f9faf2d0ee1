from django.urls import path

from . import views

app_name = "counts"
urlpatterns = [
    path("counts/", views.counts, name="counts"),
    path("counts/containers/", views.containers, name="containers"),
    path("counts/containers/<int:pk>/", views.container, name="container"),
    path("accounting/reconciliation/", views.reconciliation, name="reconciliation"),
    path("accounting/reconciliation/<str:day>/", views.reconciliation_day, name="reconciliation-day"),
    path("accounting/master-game-report/<str:day>/", views.master_game_report_view, name="mgr"),
    path("accounting/master-game-report/<str:day>/report.pdf", views.master_game_report_view, {"fmt": "pdf"},
         name="mgr-pdf"),
    path("accounting/master-game-report/<str:day>/report.csv", views.master_game_report_view, {"fmt": "csv"},
         name="mgr-csv"),
    path("accounting/forms/<str:day>/forms.pdf", views.forms_export, {"fmt": "pdf"}, name="forms-pdf"),
    path("accounting/forms/<str:day>/forms.csv", views.forms_export, {"fmt": "csv"}, name="forms-csv"),
]
