"""Tables API: list and read tables; supervisors create and change them."""
from drf_spectacular.utils import extend_schema
from rest_framework import mixins, serializers, status, viewsets
from rest_framework.response import Response

from apps.core.permissions import RulesPermission

from .models import PokerTable
from .services import create_table, update_table


class PokerTableSerializer(serializers.ModelSerializer):
    seat_maximum = serializers.IntegerField(read_only=True)

    class Meta:
        model = PokerTable
        fields = ["id", "number", "game", "betting_structure", "seats", "seat_maximum", "location", "small_blind",
                  "big_blind", "ante", "minimum_wager", "maximum_wager", "raise_cap", "bad_beat_participation",
                  "kill_option", "kill_pot_minimum", "uses_automated_shuffler", "is_open", "opened_at"]
        read_only_fields = ["is_open", "opened_at"]


class PokerTableViewSet(mixins.ListModelMixin, mixins.RetrieveModelMixin, mixins.CreateModelMixin,
                        mixins.UpdateModelMixin, viewsets.GenericViewSet):
    serializer_class = PokerTableSerializer
    permission_classes = [RulesPermission]
    required_perm = "tables.view_pokertable"
    perms_by_method = {"POST": "tables.add_pokertable", "PUT": "tables.change_pokertable",
                       "PATCH": "tables.change_pokertable"}
    filterset_fields = ["game", "is_open"]

    def get_queryset(self):
        return PokerTable.objects.filter(casino_id=self.request.user.casino_id).order_by("number")

    @extend_schema(responses={201: PokerTableSerializer})
    def create(self, request, *args, **kwargs):
        data = PokerTableSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        table = create_table(casino=request.user.casino, **data.validated_data)
        return Response(PokerTableSerializer(table).data, status=status.HTTP_201_CREATED)

    def update(self, request, *args, **kwargs):
        table = self.get_object()
        data = PokerTableSerializer(table, data=request.data, partial=kwargs.get("partial", False))
        data.is_valid(raise_exception=True)
        table = update_table(table=table, **data.validated_data)
        return Response(PokerTableSerializer(table).data)
