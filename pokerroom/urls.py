from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerView
from rest_framework.authtoken.views import obtain_auth_token
from rest_framework.routers import DefaultRouter

from apps.badbeat.apis import JackpotApi
from apps.rake.apis import RakeRecordViewSet, RakeStructureApi, TimeChargeApi, TimeChargeVerifyApi
from apps.rounds.apis import RoundViewSet
from apps.tables.apis import PokerTableViewSet

router = DefaultRouter()
router.register("tables", PokerTableViewSet, basename="table")
router.register("rounds", RoundViewSet, basename="round")
router.register("rake-records", RakeRecordViewSet, basename="rake-record")

urlpatterns = [
    path("", include("apps.floor.urls")),
    path("decks/", include("apps.decks.urls")),
    path("rake/", include("apps.rake.urls")),
    path("irregularities/", include("apps.irregularities.urls")),
    path("dealers/", include("apps.dealers.urls")),
    path("accounts/login/", auth_views.LoginView.as_view(), name="login"),
    path("accounts/logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("admin/", admin.site.urls),
    path("api/", include(router.urls)),
    path("api/jackpot/", JackpotApi.as_view(), name="jackpot"),
    path("api/tables/<int:table_id>/rake-structure/", RakeStructureApi.as_view(), name="rake-structure"),
    path("api/tables/<int:table_id>/time-charges/", TimeChargeApi.as_view(), name="time-charges"),
    path("api/time-charges/<int:pk>/verify/", TimeChargeVerifyApi.as_view(), name="time-charge-verify"),
    path("api/token/", obtain_auth_token, name="api-token"),
    path("api/schema/", SpectacularAPIView.as_view(), name="schema"),
    path("api/docs/", SpectacularSwaggerView.as_view(url_name="schema"), name="swagger-ui"),
]
