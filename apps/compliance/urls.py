from django.urls import path

from . import views

app_name = "compliance"
urlpatterns = [
    path("", views.matrix_page, name="matrix"),
    path("matrix.csv", views.matrix_export, {"fmt": "csv"}, name="csv"),
    path("matrix.pdf", views.matrix_export, {"fmt": "pdf"}, name="pdf"),
]
