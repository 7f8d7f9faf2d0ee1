"""Rounds API: the hand feed (JSON rounds and PHH text) and reading recorded rounds."""
from django.shortcuts import get_object_or_404
from django.utils import timezone
from drf_spectacular.utils import extend_schema
from rest_framework import mixins, serializers, status, viewsets
from rest_framework.decorators import action
from rest_framework.response import Response

from apps.core.permissions import RulesPermission
from apps.tables.models import PokerTable

from .models import Pot, PotAward, RoundOfPlay, RoundPlayer, RoundSource
from .services import PlayerIn, RoundIn, import_phh, record_round


class RoundPlayerOutput(serializers.ModelSerializer):
    class Meta:
        model = RoundPlayer
        fields = ["seat", "name", "starting_stack", "contributed", "returned", "hole_cards", "folded", "at_showdown",
                  "high_hand", "high_cards", "low_hand", "low_cards", "awarded"]


class PotAwardOutput(serializers.ModelSerializer):
    class Meta:
        model = PotAward
        fields = ["seat", "amount"]


class PotOutput(serializers.ModelSerializer):
    awards = PotAwardOutput(many=True, read_only=True)

    class Meta:
        model = Pot
        fields = ["index", "gross", "deducted", "amount", "eligible_seats", "awards"]


class RoundOutput(serializers.ModelSerializer):
    players = RoundPlayerOutput(many=True, read_only=True)
    pots = PotOutput(many=True, read_only=True)

    class Meta:
        model = RoundOfPlay
        fields = ["id", "table", "game", "started_at", "gaming_day", "board", "total_bet", "uncalled_amount",
                  "refunded_amount", "pot_total", "betting_rounds", "went_to_showdown", "is_dead", "dead_reason", "source",
                  "source_name", "players", "pots"]


class PlayerInput(serializers.Serializer):
    seat = serializers.IntegerField(min_value=1, max_value=11)
    name = serializers.CharField(max_length=80, required=False, allow_blank=True, default="")
    contributed = serializers.DecimalField(max_digits=14, decimal_places=2, min_value=0)
    hole_cards = serializers.CharField(max_length=40, required=False, allow_blank=True, default="")
    folded = serializers.BooleanField(required=False, default=False)
    mucked = serializers.BooleanField(required=False, default=False)
    starting_stack = serializers.DecimalField(max_digits=14, decimal_places=2, min_value=0, required=False,
                                              allow_null=True, default=None)
    streets = serializers.ListField(child=serializers.DecimalField(max_digits=14, decimal_places=2, min_value=0),
                                    required=False, default=list, max_length=8,
                                    help_text="What the player put in each betting round (they add up to contributed).")


class RoundCreateInput(serializers.Serializer):
    table = serializers.PrimaryKeyRelatedField(queryset=PokerTable.objects.all())
    started_at = serializers.DateTimeField(required=False)
    board = serializers.CharField(max_length=40, required=False, allow_blank=True, default="")
    players = PlayerInput(many=True)
    external_id = serializers.CharField(max_length=120, required=False, allow_blank=True, default="",
                                        help_text="The feed's id of this round; a repeated id is refused.")
    deck = serializers.CharField(max_length=40, required=False, allow_blank=True, default="",
                                 help_text="Serial of the deck dealt (checked for shuffler alternation, 14.2(d)3).")
    dead_reason = serializers.CharField(max_length=200, required=False, allow_blank=True, default="",
                                        help_text="Set when the round was called dead: every chip is returned "
                                                  "(N.J.A.C. 13:69F-14.15(g)).")


class PhhImportInput(serializers.Serializer):
    table = serializers.PrimaryKeyRelatedField(queryset=PokerTable.objects.all())
    phh = serializers.CharField(help_text="The text of a .phh or .phhs hand history.")
    name = serializers.CharField(max_length=200, required=False, default="api.phhs")


class PhhImportOutput(serializers.Serializer):
    imported = serializers.IntegerField()
    skipped = serializers.IntegerField()


class RoundViewSet(mixins.ListModelMixin, mixins.RetrieveModelMixin, viewsets.GenericViewSet):
    """Rounds of play of the user's casino; POST records one (JSON), `phh/` imports a PHH text."""

    serializer_class = RoundOutput
    permission_classes = [RulesPermission]
    required_perm = "rounds.view_roundofplay"
    perms_by_method = {"POST": "rounds.add_roundofplay"}
    filterset_fields = ["table", "gaming_day", "went_to_showdown", "source"]

    def get_queryset(self):
        return (RoundOfPlay.objects.filter(table__casino_id=self.request.user.casino_id)
                .prefetch_related("players", "pots__awards").order_by("-started_at", "-pk"))

    def _table(self, request, table: PokerTable) -> PokerTable:
        table = get_object_or_404(PokerTable, pk=table.pk, casino_id=request.user.casino_id)
        self.check_object_permissions(request, table)
        return table

    @extend_schema(request=RoundCreateInput, responses={201: RoundOutput})
    def create(self, request):
        data = RoundCreateInput(data=request.data)
        data.is_valid(raise_exception=True)
        values = data.validated_data
        table = self._table(request, values["table"])
        external_id = values["external_id"]
        digest = None
        if external_id:
            import hashlib

            digest = hashlib.sha256(f"json:{table.casino_id}:{external_id}".encode()).hexdigest()
        round_of_play = record_round(table=table, recorded_by=request.user, round_in=RoundIn(
            players=[PlayerIn(**(p | {"streets": tuple(p["streets"])})) for p in values["players"]], started_at=values.get("started_at") or timezone.now(),
            board=values["board"], source=RoundSource.JSON, source_name=external_id, source_digest=digest,
            dead_reason=values["dead_reason"], extra={"deck": values["deck"]} if values["deck"] else {}))
        return Response(RoundOutput(round_of_play).data, status=status.HTTP_201_CREATED)

    @extend_schema(request=PhhImportInput, responses={201: PhhImportOutput})
    @action(detail=False, methods=["post"], url_path="phh")
    def phh(self, request):
        data = PhhImportInput(data=request.data)
        data.is_valid(raise_exception=True)
        table = self._table(request, data.validated_data["table"])
        result = import_phh(table=table, text=data.validated_data["phh"], name=data.validated_data["name"],
                            recorded_by=request.user)
        return Response(PhhImportOutput(result).data, status=status.HTTP_201_CREATED)
