"""Tables API: list and read the casino's poker tables; supervisors create and change them, a mixed-game table with
its rotation. Two views: the collection (GET list, POST create) and one table (GET, PUT, PATCH)."""
from django.db import transaction
from django.shortcuts import get_object_or_404
from drf_spectacular.utils import extend_schema
from rest_framework import generics, serializers, status
from rest_framework.response import Response
from rest_framework.views import APIView

from apps.casinos.models import User
from apps.core.idempotency import IdempotentPostMixin
from apps.core.pagination import BoundedLimitOffsetPagination
from apps.core.permissions import RulesPermission

from .models import BettingStructure, Game, PokerTable, RotationGame, TableStatusChange
from .services import close_table, create_table, open_table, post_rotation, update_table

ROTATION_HELP = ("A mixed-game table's games in the order dealt (14.8, 14.17); each with its own limits, forced bets, "
                 "straddles, bomb-pot ante and bad beat eligibility.")


class RotationGameInput(serializers.ModelSerializer):
    class Meta:
        model = RotationGame
        fields = ["game", "betting_structure", "small_blind", "big_blind", "ante", "bring_in", "minimum_wager",
                  "maximum_wager", "raise_cap", "bad_beat_participation", "straddles", "maximum_straddles",
                  "bomb_pot_ante"]


class RotationGameOutput(serializers.ModelSerializer):
    class Meta:
        model = RotationGame
        fields = ["id", "position", "game", "betting_structure", "small_blind", "big_blind", "ante", "bring_in",
                  "minimum_wager", "maximum_wager", "raise_cap", "bad_beat_participation", "straddles",
                  "maximum_straddles", "bomb_pot_ante"]
        read_only_fields = ["id", "position"]


class PokerTableInput(serializers.ModelSerializer):
    """A poker table as a supervisor posts it (POST /api/tables/, PUT and PATCH /api/tables/{id}/)."""

    rotation = RotationGameInput(many=True, required=False, help_text=ROTATION_HELP)

    class Meta:
        model = PokerTable
        fields = ["number", "game", "betting_structure", "seats", "location", "small_blind", "big_blind", "ante",
                  "bring_in", "minimum_wager", "maximum_wager", "raise_cap", "bad_beat_participation", "straddles",
                  "maximum_straddles", "bomb_pot_ante", "rotation_name", "rounds_per_game", "rotation", "kill_option",
                  "kill_pot_minimum", "uses_automated_shuffler", "counting_shuffler_approval",
                  "contribution_container_capacity"]
        extra_kwargs = {"minimum_wager": {"required": False}}


class PokerTableOutput(serializers.ModelSerializer):
    """A poker table as every answer about one shows it."""

    seat_maximum = serializers.IntegerField(read_only=True)
    rotation = RotationGameOutput(many=True, read_only=True, help_text=ROTATION_HELP)

    class Meta:
        model = PokerTable
        fields = ["id", "number", "game", "betting_structure", "seats", "seat_maximum", "location", "small_blind",
                  "big_blind", "ante", "bring_in", "minimum_wager", "maximum_wager", "raise_cap",
                  "bad_beat_participation", "straddles", "maximum_straddles", "bomb_pot_ante", "rotation_name",
                  "rounds_per_game", "rotation", "kill_option", "kill_pot_minimum", "uses_automated_shuffler",
                  "counting_shuffler_approval", "contribution_container_capacity", "is_open", "opened_at"]
        read_only_fields = ["is_open", "opened_at"]


def casino_tables(request):
    """The poker tables of the user's casino (none for a user of no casino), by number, each with its rotation."""
    return PokerTable.objects.filter(casino_id=request.user.casino_id).prefetch_related("rotation").order_by("number")


class TablesApi(generics.ListAPIView):
    """GET: the poker tables of the user's casino by number, in pages (`?limit=` up to 200, `?offset=`), filtered by
    `game` and `is_open`. POST: a supervisor creates a table (14.17-limits-posted, 14.17-raises-posted), a
    mixed-game table with its `rotation`; a number the casino already has is a 409 with the table's `existing_id`."""

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


class TableOpenInput(serializers.Serializer):
    """Opening a table (POST /api/tables/{id}/open/): as posted, or with changes to a single-game table's posting."""

    game = serializers.ChoiceField(choices=Game.choices, required=False)
    betting_structure = serializers.ChoiceField(choices=BettingStructure.choices, required=False)
    small_blind = serializers.DecimalField(max_digits=14, decimal_places=2, min_value=0, required=False)
    big_blind = serializers.DecimalField(max_digits=14, decimal_places=2, min_value=0, required=False)
    minimum_wager = serializers.DecimalField(max_digits=14, decimal_places=2, min_value=0, required=False)
    maximum_wager = serializers.DecimalField(max_digits=14, decimal_places=2, min_value=0, required=False,
                                             allow_null=True)
    seats = serializers.IntegerField(min_value=2, max_value=11, required=False)
    dealer = serializers.IntegerField(min_value=1, required=False, help_text="The dealer in the box (a user id).")


class TableCloseInput(serializers.Serializer):
    """Closing a table (POST /api/tables/{id}/close/)."""

    reason = serializers.CharField(max_length=300, help_text="Why the table closes.")
    drop_box_removed = serializers.BooleanField(
        help_text="The drop box was removed for the count, at the closed table (N.J.A.C. 13:69F-14.19(d)1): true.")
    decks_collected = serializers.BooleanField(
        default=False, help_text="The decks still at the table have been collected (14.2(a)); without it a closing "
                                 "with decks at the table is refused with their list.")
    players_unseated = serializers.BooleanField(
        default=False, help_text="The players still in the table's seats have left or moved (their seats are then "
                                 "vacated); without it a closing with seats taken is refused with their numbers.")

    def validate_drop_box_removed(self, value: bool) -> bool:
        if not value:
            raise serializers.ValidationError("Confirm the drop box was removed for the count (14.19(d)1).")
        return value


class TableStatusChangeOutput(serializers.ModelSerializer):
    """One opening or closing of a table, as recorded on its history."""

    table = PokerTableOutput(read_only=True)

    class Meta:
        model = TableStatusChange
        fields = ["id", "kind", "at", "by", "reason", "game", "limits", "seats", "dealer", "decks_collected",
                  "players_unseated", "drop_box_removed", "table"]


class _TableStatusApi(IdempotentPostMixin, APIView):
    permission_classes = [RulesPermission]
    required_perm = "tables.open_close_table"

    def _table(self, request, pk: int) -> PokerTable:
        table = get_object_or_404(casino_tables(request), pk=pk)
        self.check_object_permissions(request, table)
        return table

    @staticmethod
    def _answer(table: PokerTable) -> Response:
        change = TableStatusChange.objects.filter(table=table).select_related("table").order_by("-id").first()
        return Response(TableStatusChangeOutput(change).data, status=status.HTTP_201_CREATED)


class TableOpenApi(_TableStatusApi):
    """POST: a poker shift supervisor or floorperson opens a closed table, as posted or with changes to its game,
    limits or seats, with the dealer in the box; the opening is recorded on the table's history. Honours
    Idempotency-Key; 409 when the table is open already."""

    @extend_schema(request=TableOpenInput, responses={201: TableStatusChangeOutput})
    def post(self, request, pk: int):
        table = self._table(request, pk)
        data = TableOpenInput(data=request.data)
        data.is_valid(raise_exception=True)
        values = dict(data.validated_data)
        dealer = None
        if "dealer" in values:
            dealer = User.objects.filter(pk=values.pop("dealer"), casino_id=table.casino_id).first()
            if dealer is None:
                raise serializers.ValidationError({"dealer": ["No such dealer at this casino."]})
        return self._answer(open_table(table=table, by=request.user, dealer=dealer, **values))


class TableCloseApi(_TableStatusApi):
    """POST: a poker shift supervisor or floorperson closes an open table with a `reason`, confirming the drop box
    removed for the count and, when decks are still at the table, that they are collected (else a 400 listing them).
    A table whose contribution container holds contributions not yet counted closes once a count of it is recorded
    (else a 400 under `container_counted` naming the amount): close_table's checks. Recorded on the table's history; a round, a time charge or a seat there is
    then refused. Honours Idempotency-Key; 409 when the table is closed already."""

    @extend_schema(request=TableCloseInput, responses={201: TableStatusChangeOutput})
    def post(self, request, pk: int):
        table = self._table(request, pk)
        data = TableCloseInput(data=request.data)
        data.is_valid(raise_exception=True)
        return self._answer(close_table(table=table, by=request.user, **data.validated_data))
