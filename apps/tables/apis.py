"""Tables API: list and read the casino's poker tables; supervisors create and change them, a mixed-game table with
its rotation. Two views: the collection (GET list, POST create) and one table (GET, PUT, PATCH)."""
from django.db import transaction
from django.shortcuts import get_object_or_404
from drf_spectacular.utils import extend_schema
from rest_framework import generics, serializers, status
from rest_framework.response import Response
from rest_framework.views import APIView

from apps.core.pagination import BoundedLimitOffsetPagination
from apps.core.permissions import RulesPermission

from .models import PokerTable, RotationGame
from .services import create_table, post_rotation, update_table

ROTATION_HELP = ("A mixed-game table's games in the order dealt (14.8, 14.17); each with its own limits, forced bets "
                 "and bad beat eligibility.")


class RotationGameInput(serializers.ModelSerializer):
    class Meta:
        model = RotationGame
        fields = ["game", "betting_structure", "small_blind", "big_blind", "ante", "bring_in", "minimum_wager",
                  "maximum_wager", "raise_cap", "bad_beat_participation"]


class RotationGameOutput(serializers.ModelSerializer):
    class Meta:
        model = RotationGame
        fields = ["id", "position", "game", "betting_structure", "small_blind", "big_blind", "ante", "bring_in",
                  "minimum_wager", "maximum_wager", "raise_cap", "bad_beat_participation"]
        read_only_fields = ["id", "position"]


class PokerTableInput(serializers.ModelSerializer):
    """A poker table as a supervisor posts it (POST /api/tables/, PUT and PATCH /api/tables/{id}/)."""

    rotation = RotationGameInput(many=True, required=False, help_text=ROTATION_HELP)

    class Meta:
        model = PokerTable
        fields = ["number", "game", "betting_structure", "seats", "location", "small_blind", "big_blind", "ante",
                  "bring_in", "minimum_wager", "maximum_wager", "raise_cap", "bad_beat_participation",
                  "rotation_name", "rounds_per_game", "rotation", "kill_option", "kill_pot_minimum",
                  "uses_automated_shuffler"]
        extra_kwargs = {"minimum_wager": {"required": False}}


class PokerTableOutput(serializers.ModelSerializer):
    """A poker table as every answer about one shows it."""

    seat_maximum = serializers.IntegerField(read_only=True)
    rotation = RotationGameOutput(many=True, read_only=True, help_text=ROTATION_HELP)

    class Meta:
        model = PokerTable
        fields = ["id", "number", "game", "betting_structure", "seats", "seat_maximum", "location", "small_blind",
                  "big_blind", "ante", "bring_in", "minimum_wager", "maximum_wager", "raise_cap",
                  "bad_beat_participation", "rotation_name", "rounds_per_game", "rotation", "kill_option",
                  "kill_pot_minimum", "uses_automated_shuffler", "is_open", "opened_at"]
        read_only_fields = ["is_open", "opened_at"]


def casino_tables(request):
    """The poker tables of the user's casino (none for a user of no casino), by number, each with its rotation."""
    return PokerTable.objects.filter(casino_id=request.user.casino_id).prefetch_related("rotation").order_by("number")


class TablesApi(generics.ListAPIView):
    """GET: the poker tables of the user's casino by number, in pages (`?limit=` up to 200, `?offset=`), filtered by
    `game` and `is_open`. POST: a supervisor creates a table (14.8, 14.17), a mixed-game table with its `rotation`;
    a number the casino already has is a 409 with the table's `existing_id`."""

    Input = PokerTableInput
    Output = PokerTableOutput
    serializer_class = Output
    pagination_class = BoundedLimitOffsetPagination
    filterset_fields = ["game", "is_open"]
    permission_classes = [RulesPermission]
    required_perm = "tables.view_pokertable"
    perms_by_method = {"POST": "tables.add_pokertable"}

    def get_queryset(self):
        return casino_tables(self.request)

    @extend_schema(request=Input, responses={201: Output})
    def post(self, request):
        data = self.Input(data=request.data)
        data.is_valid(raise_exception=True)
        table = create_table(casino=request.user.casino, **data.validated_data)
        return Response(self.Output(table).data, status=status.HTTP_201_CREATED)


class TableApi(APIView):
    """GET: one poker table of the user's casino. PUT (the whole posting) or PATCH (some of it): a supervisor changes
    it; a mixed-game table posts its games anew as `rotation` (with `rotation_name`, `rounds_per_game`)."""

    Input = PokerTableInput
    Output = PokerTableOutput
    permission_classes = [RulesPermission]
    required_perm = "tables.view_pokertable"
    perms_by_method = {"PUT": "tables.change_pokertable", "PATCH": "tables.change_pokertable"}

    def _table(self, request, pk: int) -> PokerTable:
        table = get_object_or_404(casino_tables(request), pk=pk)
        self.check_object_permissions(request, table)
        return table

    @extend_schema(responses={200: Output})
    def get(self, request, pk: int):
        return Response(self.Output(self._table(request, pk)).data)

    @extend_schema(request=Input, responses={200: Output})
    def put(self, request, pk: int):
        return self._change(request, pk, partial=False)

    @extend_schema(request=Input, responses={200: Output})
    def patch(self, request, pk: int):
        return self._change(request, pk, partial=True)

    @transaction.atomic
    def _change(self, request, pk: int, *, partial: bool) -> Response:
        table = self._table(request, pk)
        data = self.Input(table, data=request.data, partial=partial)
        data.is_valid(raise_exception=True)
        values = dict(data.validated_data)
        rotation = values.pop("rotation", None)
        name, per_game = values.pop("rotation_name", table.rotation_name), values.pop("rounds_per_game", None)
        if values:
            table = update_table(table=table, **values)
        if rotation is not None:
            table = post_rotation(table=table, rotation_name=name, games=rotation, rounds_per_game=per_game)
        return Response(self.Output(PokerTable.objects.prefetch_related("rotation").get(pk=table.pk)).data)
