from django.urls import path

from . import views

app_name = "irregularities"
urlpatterns = [path("", views.irregularity_list, name="list"),
               path("<int:pk>/resolve/", views.resolve, name="resolve")]
