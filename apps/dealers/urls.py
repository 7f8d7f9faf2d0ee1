from django.urls import path

from . import views

app_name = "dealers"
urlpatterns = [path("", views.rotation, name="rotation")]
