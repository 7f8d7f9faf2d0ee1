from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerSplitView
from rest_framework.routers import APIRootView

from apps.badbeat.apis import (
    ClaimPayoutApi,
    ClaimRejectApi,
    ClaimsApi,
    ClaimVerifyApi,
    DiscontinueApi,
    DisplayAdjustmentApi,
    JackpotApi,
    JackpotsApi,
    RuleChangeApi,
    RuleChangeWithdrawApi,
)
from apps.core.apis import TokenLoginApi, TokenLogoutAllApi, TokenLogoutApi
from apps.core.health import LivenessView, ReadinessView
from apps.core.home import home
from apps.core.policy import public, signed_in
from apps.core.views import bad_request, favicon, page_not_found, permission_denied, server_error
from apps.counts.apis import (
    CountContainersApi,
    CountContainerVerifyApi,
    CountsApi,
    FormReceiptApi,
    LateCorrectionApi,
    ReconciliationApi,
)
from apps.feed.apis import ImportJobApi, ImportPhhApi, RoundBatchApi, RoundsApi
from apps.multicasino.apis import InboxApi
from apps.public.apis import PublicFeedApi
from apps.qualifiers.apis import QualifierOddsApi
from apps.rake.apis import RakeRecordApi, RakeRecordsApi, RakeStructureApi, TimeChargeApi, TimeChargeVerifyApi
from apps.rounds.apis import RoundApi
from apps.tables.apis import TableApi, TableCloseApi, TableOpenApi, TablesApi


@signed_in("The API's root: links to its collections, no record.")
class ApiRootView(APIRootView):
    """GET /api/: links to the tables and the rake records (DRF's browsable root; not in the schema), for any
    signed-in user."""


handler400 = bad_request  # a page's query parameter or path segment it cannot take: 400 with the message
# A page not for the user's role (page_access), an unknown address: the styled pages with the navigation (403.html,
# 404.html); JSON under /api/. An error: Django's handler renders 500.html without a request (no navigation).
handler403 = permission_denied
handler404 = page_not_found
# An error no view answered: 503 with Retry-After for a database that cannot serve now (apps.core.unavailable), JSON
# {detail, request_id} under /api/ or to a client asking for JSON, else 500.html (apps.core.middleware).
handler500 = server_error

urlpatterns = [
    path("favicon.ico", public("The site's icon, as any site's (a browser asks for it before any sign-in).")(
        favicon), name="favicon"),
    path("", include("apps.floor.urls")),
    path("decks/", include("apps.decks.urls")),
    path("rake/", include("apps.rake.urls")),
    path("rake-audit/", include("apps.feed.urls")),
    path("irregularities/", include("apps.irregularities.urls")),
    path("dealers/", include("apps.dealers.urls")),
    path("jackpot/", include("apps.badbeat.urls")),
    path("multicasino/", include("apps.multicasino.urls")),
    path("screens/", include("apps.screens.urls")),
    path("seats/", include("apps.seats.urls")),
    path("compliance/", include("apps.compliance.urls")),
    path("qualifiers/", include("apps.qualifiers.urls")),
    path("public/", include("apps.public.urls")),
    path("", include("apps.counts.urls")),
    path("home/", home, name="home"),
    # docker-compose's and a load balancer's probes (apps.core.health): the process answers; it may be sent traffic
    path("health/live/", LivenessView.as_view(), name="health-live"),
    path("health/ready/", ReadinessView.as_view(), name="health-ready"),
    path("accounts/login/", public("The sign-in page.")(auth_views.LoginView.as_view()), name="login"),
    path("accounts/logout/", public("Signing out ends the session that sends it (a POST, CSRF-checked).")(
        auth_views.LogoutView.as_view()), name="logout"),
    # The admin site checks staff status and each model's permissions itself (tests/core/test_role_policy.py).
    path("admin/", admin.site.urls),
    path("api/rounds/", RoundsApi.as_view(), name="rounds"),
    path("api/rounds/batch/", RoundBatchApi.as_view(), name="rounds-batch"),
    path("api/rounds/phh/", ImportPhhApi.as_view(), name="rounds-phh"),
    path("api/rounds/<int:pk>/", RoundApi.as_view(), name="round-detail"),
    path("api/phh-imports/<int:pk>/", ImportJobApi.as_view(), name="phh-import"),
    path("api/", ApiRootView.as_view(api_root_dict={"tables": "table-list", "rake-records": "rake-record-list"}),
         name="api-root"),
    path("api/tables/", TablesApi.as_view(), name="table-list"),
    path("api/tables/<int:pk>/", TableApi.as_view(), name="table-detail"),
    path("api/tables/<int:pk>/open/", TableOpenApi.as_view(), name="table-open"),
    path("api/tables/<int:pk>/close/", TableCloseApi.as_view(), name="table-close"),
    path("api/rake-records/", RakeRecordsApi.as_view(), name="rake-record-list"),
    path("api/rake-records/<int:pk>/", RakeRecordApi.as_view(), name="rake-record-detail"),
    path("api/jackpot/", JackpotApi.as_view(), name="jackpot"),
    path("api/jackpots/", JackpotsApi.as_view(), name="jackpots"),
    path("api/jackpots/<int:pk>/display-adjustments/", DisplayAdjustmentApi.as_view(), name="display-adjustments"),
    path("api/jackpots/<int:pk>/rule-changes/", RuleChangeApi.as_view(), name="rule-changes"),
    path("api/jackpots/<int:pk>/discontinue/", DiscontinueApi.as_view(), name="jackpot-discontinue"),
    path("api/rule-changes/<int:pk>/withdraw/", RuleChangeWithdrawApi.as_view(), name="rule-change-withdraw"),
    path("api/claims/", ClaimsApi.as_view(), name="claims"),
    path("api/claims/<int:pk>/verify/", ClaimVerifyApi.as_view(), name="claim-verify"),
    path("api/claims/<int:pk>/reject/", ClaimRejectApi.as_view(), name="claim-reject"),
    path("api/claims/<int:pk>/payout/", ClaimPayoutApi.as_view(), name="claim-payout"),
    path("api/counts/", CountsApi.as_view(), name="counts"),
    path("api/counts/containers/", CountContainersApi.as_view(), name="count-containers"),
    path("api/counts/containers/<int:pk>/verify/", CountContainerVerifyApi.as_view(), name="count-container-verify"),
    path("api/multicasino/inbox/", InboxApi.as_view(), name="multicasino-inbox"),
    path("api/public/<slug:code>/", PublicFeedApi.as_view(), name="public-feed"),
    path("api/qualifiers/odds/", QualifierOddsApi.as_view(), name="qualifier-odds"),
    path("api/form-receipts/", FormReceiptApi.as_view(), name="form-receipts"),
    path("api/reconciliations/", ReconciliationApi.as_view(), name="reconciliations"),
    path("api/late-corrections/", LateCorrectionApi.as_view(), name="late-corrections"),
    path("api/tables/<int:table_id>/rake-structure/", RakeStructureApi.as_view(), name="rake-structure"),
    path("api/tables/<int:table_id>/time-charges/", TimeChargeApi.as_view(), name="time-charges"),
    path("api/time-charges/<int:pk>/verify/", TimeChargeVerifyApi.as_view(), name="time-charge-verify"),
    path("api/token/", TokenLoginApi.as_view(), name="api-token"),
    path("api/token/logout/", TokenLogoutApi.as_view(), name="api-token-logout"),
    path("api/token/logout-all/", TokenLogoutAllApi.as_view(), name="api-token-logout-all"),
    path("api/schema/", signed_in("The API's description (SERVE_PERMISSIONS).")(SpectacularAPIView.as_view()),
         name="schema"),
    # Swagger UI's start-up script is served as a file (?script), not inline: it runs under the CSP.
    path("api/docs/", signed_in("The API's documentation (SERVE_PERMISSIONS).")(
        SpectacularSwaggerSplitView.as_view(url_name="schema", template_name="api/swagger_ui.html")), name="swagger-ui"),
]
