from django.urls import path

from . import views

app_name = "screens"
urlpatterns = [
    path("", views.links, name="links"),
    path("<int:pk>/revoke/", views.revoke, name="revoke"),
    path("<str:token>/", views.screen, name="screen"),
]
