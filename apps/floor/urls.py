from django.urls import path

from . import search, views

app_name = "floor"
urlpatterns = [
    path("", views.DashboardView.as_view(), name="dashboard"),
    path("tables/<int:pk>/", views.TableView.as_view(), name="table"),
    path("tables/<int:pk>/sign/", views.TableSignView.as_view(), name="table-sign"),
    path("rounds/", search.RoundSearchView.as_view(), name="rounds"),
    path("rounds/<int:pk>/", views.RoundView.as_view(), name="round"),
    path("accounting/contributions/", views.ContributionLedgerView.as_view(), name="contributions"),
]
