from django.urls import path

from . import views

app_name = "multicasino"
urlpatterns = [
    path("", views.status, name="status"),
    path("posting/", views.posting, name="posting"),
    path("notices/<int:pk>/delivered/", views.notice_delivered, name="notice-delivered"),
    path("rule-changes/<int:pk>/approve/", views.approve_rules, name="approve-rules"),
    path("<slug:code>/rules/", views.propose_rules, name="propose-rules"),
    path("<slug:code>/report/", views.report, name="report"),
    path("<slug:code>/report.csv", views.report, {"fmt": "csv"}, name="report-csv"),
    path("<slug:code>/report.pdf", views.report, {"fmt": "pdf"}, name="report-pdf"),
    path("<slug:code>/contributions.csv", views.contributions_csv, name="contributions-csv"),
]
