"""Rake API: the rake records of the user's casino."""
from rest_framework import mixins, serializers, viewsets

from apps.core.permissions import RulesPermission

from .models import RakeRecord


class RakeRecordOutput(serializers.ModelSerializer):
    class Meta:
        model = RakeRecord
        fields = ["id", "round_of_play", "table", "gaming_day", "amount", "basis", "percentage", "maximum", "computed",
                  "explanation", "created_at"]


class RakeRecordViewSet(mixins.ListModelMixin, mixins.RetrieveModelMixin, viewsets.GenericViewSet):
    serializer_class = RakeRecordOutput
    permission_classes = [RulesPermission]
    required_perm = "rake.view_rakerecord"
    filterset_fields = ["table", "gaming_day", "round_of_play"]

    def get_queryset(self):
        return RakeRecord.objects.filter(table__casino_id=self.request.user.casino_id).order_by("-created_at", "-pk")
