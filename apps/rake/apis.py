"""Rake API: the rake records of the user's casino."""
from django.shortcuts import get_object_or_404
from drf_spectacular.utils import extend_schema
from rest_framework import mixins, serializers, viewsets
from rest_framework.response import Response
from rest_framework.views import APIView

from apps.core.permissions import RulesPermission
from apps.tables.models import PokerTable

from .models import RakeRecord, RakeStructure
from .services import post_rake_structure


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


class RakeLevelSerializer(serializers.Serializer):
    pot = serializers.DecimalField(max_digits=14, decimal_places=2, min_value=0)
    take = serializers.DecimalField(max_digits=14, decimal_places=2, min_value=0)


class RakeStructureSerializer(serializers.ModelSerializer):
    levels = RakeLevelSerializer(many=True, required=False)
    label = serializers.CharField(read_only=True)

    class Meta:
        model = RakeStructure
        fields = ["method", "percentage", "maximum", "minimum_pot", "increment", "levels", "label"]


class RakeStructureApi(APIView):
    """The rake posted at a table (N.J.A.C. 13:69F-14.14(b), (c)): everyone reads it, supervisors change it."""

    permission_classes = [RulesPermission]
    required_perm = "rake.view_rakerecord"
    perms_by_method = {"PUT": "rake.change_rakestructure"}

    def _table(self, request, table_id: int) -> PokerTable:
        table = get_object_or_404(PokerTable, pk=table_id, casino_id=request.user.casino_id)
        self.check_object_permissions(request, table)
        return table

    @extend_schema(responses={200: RakeStructureSerializer})
    def get(self, request, table_id: int):
        table = self._table(request, table_id)
        return Response(RakeStructureSerializer(get_object_or_404(RakeStructure, table=table)).data)

    @extend_schema(request=RakeStructureSerializer, responses={200: RakeStructureSerializer})
    def put(self, request, table_id: int):
        table = self._table(request, table_id)
        data = RakeStructureSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        values = dict(data.validated_data)
        values["levels"] = [{"pot": str(lv["pot"]), "take": str(lv["take"])} for lv in values.get("levels", [])]
        structure = post_rake_structure(table=table, **values)
        return Response(RakeStructureSerializer(structure).data)
