from django.urls import path

from . import views

app_name = "public"
urlpatterns = [
    path("<slug:code>/", views.public_page, name="page"),
]
