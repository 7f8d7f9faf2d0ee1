from django.urls import path

from . import views

app_name = "badbeat"
urlpatterns = [
    path("display/", views.display, name="display"),
    path("rules/", views.posted_rules, name="rules"),
    path("rules/changes/<int:pk>/withdraw/", views.withdraw_rule_change, name="rule-change-withdraw"),
    path("claims/", views.claim_list, name="claims"),
    path("claims/<int:pk>/", views.claim_detail, name="claim"),
    path("display/adjust/", views.adjust_display, name="adjust-display"),
]
