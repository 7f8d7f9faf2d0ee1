"""Tables API: list and read tables; supervisors create and change them, a mixed-game table with its rotation."""
from django.db import transaction
from drf_spectacular.utils import extend_schema
from rest_framework import mixins, serializers, status, viewsets
from rest_framework.response import Response

from apps.core.permissions import RulesPermission

from .models import PokerTable, RotationGame
from .services import create_table, post_rotation, update_table


class RotationGameSerializer(serializers.ModelSerializer):
    class Meta:
        model = RotationGame
        fields = ["id", "position", "game", "betting_structure", "small_blind", "big_blind", "ante", "bring_in",
                  "minimum_wager", "maximum_wager", "raise_cap", "bad_beat_participation"]
        read_only_fields = ["id", "position"]


class PokerTableSerializer(serializers.ModelSerializer):
    seat_maximum = serializers.IntegerField(read_only=True)
    rotation = RotationGameSerializer(many=True, required=False,
                                      help_text="A mixed-game table's games in the order dealt (14.8, 14.17); each "
                                                "with its own limits, forced bets and bad beat eligibility.")

    class Meta:
        model = PokerTable
        fields = ["id", "number", "game", "betting_structure", "seats", "seat_maximum", "location", "small_blind",
                  "big_blind", "ante", "bring_in", "minimum_wager", "maximum_wager", "raise_cap",
                  "bad_beat_participation", "rotation_name", "rounds_per_game", "rotation", "kill_option",
                  "kill_pot_minimum", "uses_automated_shuffler", "is_open", "opened_at"]
        read_only_fields = ["is_open", "opened_at"]
        extra_kwargs = {"minimum_wager": {"required": False}}


class PokerTableViewSet(mixins.ListModelMixin, mixins.RetrieveModelMixin, mixins.CreateModelMixin,
                        mixins.UpdateModelMixin, viewsets.GenericViewSet):
    serializer_class = PokerTableSerializer
    permission_classes = [RulesPermission]
    required_perm = "tables.view_pokertable"
    perms_by_method = {"POST": "tables.add_pokertable", "PUT": "tables.change_pokertable",
                       "PATCH": "tables.change_pokertable"}
    filterset_fields = ["game", "is_open"]

    def get_queryset(self):
        return (PokerTable.objects.filter(casino_id=self.request.user.casino_id).prefetch_related("rotation")
                .order_by("number"))

    @extend_schema(responses={201: PokerTableSerializer})
    def create(self, request, *args, **kwargs):
        data = PokerTableSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        table = create_table(casino=request.user.casino, **data.validated_data)
        return Response(PokerTableSerializer(table).data, status=status.HTTP_201_CREATED)

    @transaction.atomic
    def update(self, request, *args, **kwargs):
        table = self.get_object()
        data = PokerTableSerializer(table, data=request.data, partial=kwargs.get("partial", False))
        data.is_valid(raise_exception=True)
        values = dict(data.validated_data)
        rotation = values.pop("rotation", None)
        name, per_game = values.pop("rotation_name", table.rotation_name), values.pop("rounds_per_game", None)
        if values:
            table = update_table(table=table, **values)
        if rotation is not None:
            table = post_rotation(table=table, rotation_name=name, games=rotation, rounds_per_game=per_game)
        return Response(PokerTableSerializer(PokerTable.objects.prefetch_related("rotation").get(pk=table.pk)).data)
