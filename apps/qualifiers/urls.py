from django.urls import path

from . import views

app_name = "qualifiers"
urlpatterns = [
    path("", views.designer, name="designer"),
]
