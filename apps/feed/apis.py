"""The hand feed's API: a round of play as JSON, PHH text, and import jobs. Thin: validate, call one service."""
import hashlib
from decimal import Decimal

from django.db.models import prefetch_related_objects
from django.http import Http404
from django.shortcuts import get_object_or_404
from django.urls import reverse
from django.utils import timezone
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import generics, serializers, status
from rest_framework.response import Response
from rest_framework.views import APIView

from apps.core.exceptions import AlreadyRecorded
from apps.core.idempotency import IdempotentPostMixin
from apps.core.pagination import RoundsNewestFirst
from apps.core.permissions import RulesPermission
from apps.core.serializers import ModelOutput
from apps.core.validation import aware_datetime, column_decimal, money_decimal, text
from apps.rounds.apis import RoundOutput
from apps.rounds.filters import RoundFilter
from apps.rounds.models import RoundOfPlay, RoundPlayer, RoundSource
from apps.rounds.selectors import casino_rounds
from apps.tables.models import BettingStructure, Game, PokerTable
from apps.tables.selectors import tables_by_id

from . import selectors
from .models import ImportJob
from .services import (
    ASYNC_IMPORT_HANDS,
    DrawIn,
    PlayerIn,
    RoundIn,
    count_hands,
    import_phh,
    queue_import,
    record_batch_of_rounds,
    record_round_of_play,
    verify_rounds,
)


class DrawInput(serializers.Serializer):
    discarded = serializers.CharField(max_length=40, required=False, allow_blank=True, default="",
                                      help_text="Cards thrown away ('' to stand pat), e.g. 'As Qs'.")
    drawn = serializers.CharField(max_length=40, required=False, allow_blank=True, default="",
                                  help_text="Cards dealt in their place.")


class PlayerInput(serializers.Serializer):
    seat = serializers.IntegerField(min_value=1, max_value=11)
    name = text(max_length=80, required=False, allow_blank=True, default="")
    contributed = column_decimal(RoundPlayer, "contributed", min_value=0)
    hole_cards = serializers.CharField(max_length=40, required=False, allow_blank=True, default="",
                                       help_text="The cards held at the end (in a draw game, after the last draw).")
    dealt_cards = serializers.CharField(max_length=40, required=False, allow_blank=True, default="",
                                        help_text="Draw games: the hand as first dealt.")
    draws = DrawInput(many=True, required=False, default=list, max_length=3,  # type: ignore[call-arg]  # many=True: the ListSerializer's bounds (not in DRF's stubs)
                      help_text="Draw games: each draw, in order.")
    folded = serializers.BooleanField(required=False, default=False)
    mucked = serializers.BooleanField(required=False, default=False)
    starting_stack = column_decimal(RoundPlayer, "starting_stack", min_value=0, required=False, allow_null=True,
                                    default=None)
    streets = serializers.ListField(child=money_decimal(min_value=0),
                                    required=False, default=list, max_length=8,
                                    help_text="What the player put in each betting round (they add up to contributed).")
    straddle = column_decimal(RoundPlayer, "straddle", min_value=0, required=False, default=Decimal("0.00"),
                              help_text="The straddle posted (a live blind raise before the cards), part of "
                                        "contributed and of the first betting round; refused where the game does not "
                                        "allow it as posted.")
    dead_blind = column_decimal(RoundPlayer, "dead_money", min_value=0, required=False, default=Decimal("0.00"),
                                help_text="A returning player's dead blind (a missed small blind posted dead): it goes "
                                          "to the main pot unmatched. Part of contributed, as is the live part.")


def _tables_of(request, ids: list[int], field) -> dict[int, PokerTable]:
    """The poker tables `ids` of the user's casino, by id, each mixed-game table with its posted rotation (a
    single-game table posts itself). ValidationError (400) naming `field(index)` for an id of no table; Http404 for
    a table of another casino."""
    tables = tables_by_id(ids=ids)
    for index, pk in enumerate(ids):
        if pk not in tables:
            raise serializers.ValidationError({field(index): [f"No poker table {pk}."]})
        if tables[pk].casino_id != request.user.casino_id:
            raise Http404("No such poker table at your casino.")
    prefetch_related_objects([t for t in tables.values() if t.is_mixed], "rotation")
    return tables


def _round_in(values: dict, table: PokerTable) -> RoundIn:
    """A round of play as the money path takes it, from RoundsApi.Input's validated data; a feed's `external_id`
    becomes a digest unique in the casino."""
    external_id = values["external_id"]
    digest = hashlib.sha256(f"json:{table.casino_id}:{external_id}".encode()).hexdigest() if external_id else None
    players = [PlayerIn(**({k: v for k, v in p.items() if k != "dead_blind"}
                           | {"streets": tuple(p["streets"]), "draws": tuple(DrawIn(**d) for d in p["draws"]),
                              "dead": p["dead_blind"]}))
               for p in values["players"]]
    return RoundIn(players=players, started_at=values.get("started_at") or timezone.now(), board=values["board"],
                   game=values["game"], betting_structure=values["betting_structure"], source=RoundSource.JSON,
                   source_name=external_id, source_digest=digest, dead_reason=values["dead_reason"],
                   deck=values["deck"], boards=tuple(values["boards"]), bomb_pot=values["bomb_pot"],
                   button=values["button"])


class RoundsApi(IdempotentPostMixin, generics.ListAPIView):
    """GET: the rounds of play of the user's casino, newest first, in keyset pages (`?cursor=` from the `next` link,
    `?limit=` up to 200), searched as the floor's round search page searches them (apps.rounds.filters.RoundFilter:
    table, game, gaming day, time, player name, pot, hand shown, showdown, source). POST: record one round of play
    (JSON) along the money path: pots, rake, contribution, awards, deck, bad beat check."""

    class Input(serializers.Serializer):
        """A round of play as a feed sends it (also each round of a batch, RoundBatchApi)."""

        table = serializers.IntegerField(min_value=1, max_value=2**63 - 1, help_text="The poker table's id.")
        game = serializers.ChoiceField(choices=Game.choices, required=False, allow_null=True, default=None,
                                       help_text="The game dealt; required at a mixed-game table.")
        betting_structure = serializers.ChoiceField(
            choices=BettingStructure.choices, required=False, allow_null=True, default=None,
            help_text="Where the rotation deals the game in several.")
        started_at = aware_datetime(required=False, help_text="When the round started, with its offset from UTC "
                                                             "(e.g. 2026-11-20T21:30:00-05:00); now when left out.")
        board = serializers.CharField(max_length=40, required=False, allow_blank=True, default="")
        boards = serializers.ListField(
            child=serializers.CharField(max_length=40), required=False, default=list, max_length=3,
            help_text="A hand run two or three times (players all in): each run's full board, e.g. ['Ah Kd 5c 9s 3h', "
                      "'Ah Kd 5c 2d Jc'] when all in on the flop. The boards share the cards dealt before the all-in "
                      "and differ after; `board` is then empty or the first run's. Each pot is split into equal "
                      "shares, one per run (the odd chip to the first run), after the rake and the bad beat "
                      "contribution are taken once.")
        bomb_pot = serializers.BooleanField(
            required=False, default=False,
            help_text="A bomb pot: every player dealt in puts in the game's posted bomb-pot ante (each player's first "
                      "betting round in `streets`), no betting before the flop.")
        button = serializers.IntegerField(
            min_value=1, max_value=11, required=False, allow_null=True, default=None,
            help_text="The seat of the dealer button; needed for a straddle where the game allows one under the gun "
                      "or on the button only.")
        players = PlayerInput(many=True, max_length=11)  # type: ignore[call-arg]  # many=True: the ListSerializer's bounds (not in DRF's stubs)
        external_id = text(max_length=120, required=False, allow_blank=True, default="",
                           help_text="The feed's id of this round; a repeated id is refused (409 with the stored "
                                     "round's existing_id).")
        deck = text(max_length=40, required=False, allow_blank=True, default="",
                    help_text="Serial of the deck dealt (checked for shuffler alternation, 14.2(d)3).")
        dead_reason = text(max_length=200, required=False, allow_blank=True, default="",
                           help_text="Set when the round was called dead: every chip is returned "
                                     "(N.J.A.C. 13:69F-14.15(g)).")

    Output = RoundOutput
    serializer_class = Output
    pagination_class = RoundsNewestFirst
    filterset_class = RoundFilter
    permission_classes = [RulesPermission]
    required_perm = "rounds.view_roundofplay"
    perms_by_method = {"POST": "rounds.add_roundofplay"}

    def get_queryset(self):
        return casino_rounds(casino_id=self.request.user.casino_id)

    @extend_schema(request=Input, responses={201: Output})
    def post(self, request):
        data = self.Input(data=request.data)
        data.is_valid(raise_exception=True)
        values = data.validated_data
        table = _tables_of(request, [values["table"]], lambda _: "table")[values["table"]]
        self.check_object_permissions(request, table)
        round_of_play = record_round_of_play(table=table, recorded_by=request.user, round_in=_round_in(values, table))
        return Response(self.Output(round_of_play).data, status=status.HTTP_201_CREATED)


#: The most rounds of play one batch may carry: its jackpot row locks are held until it commits.
BATCH_MAX_ROUNDS = 100


class RoundSummaryOutput(ModelOutput):
    """A round of play as a batch answers it: what identifies it and its sums; GET /api/rounds/{id}/ has the rest
    (players, cards, pots and awards)."""

    class Meta:
        model = RoundOfPlay
        fields = ["id", "table", "game", "betting_structure", "started_at", "gaming_day", "total_bet",
                  "uncalled_amount", "refunded_amount", "pot_total", "went_to_showdown", "is_dead", "straddles",
                  "bomb_pot", "run_boards", "source_name"]


class RoundBatchApi(IdempotentPostMixin, APIView):
    """Record several rounds of play at once (a feed that sends them in batches, or catches up after an outage):
    each along the money path as POST /api/rounds/ records one, all in one transaction — every round is recorded or
    none (a 400 names the round at fault, e.g. `rounds[2].players`)."""

    class Input(serializers.Serializer):
        rounds = RoundsApi.Input(many=True, min_length=1, max_length=BATCH_MAX_ROUNDS,  # type: ignore[call-arg]  # many=True: the ListSerializer's bounds (not in DRF's stubs)
                                 help_text=f"1 to {BATCH_MAX_ROUNDS} rounds of play, each as POST /api/rounds/ takes "
                                           "it, at any tables of the casino.")

    class Output(serializers.Serializer):
        results = RoundSummaryOutput(many=True, help_text="The rounds recorded, in the order given, each in short "
                                                          "(GET /api/rounds/{id}/ gives the whole round).")

    permission_classes = [RulesPermission]
    required_perm = "rounds.add_roundofplay"

    @extend_schema(request=Input, responses={201: Output})
    def post(self, request):
        data = self.Input(data=request.data)
        data.is_valid(raise_exception=True)
        rounds = data.validated_data["rounds"]
        tables = _tables_of(request, [r["table"] for r in rounds], lambda index: f"rounds[{index}].table")
        for table in tables.values():
            self.check_object_permissions(request, table)
        verified = verify_rounds(rounds=[(tables[r["table"]], _round_in(r, tables[r["table"]])) for r in rounds])
        recorded = record_batch_of_rounds(rounds=verified, recorded_by=request.user)
        return Response(self.Output({"results": recorded}).data, status=status.HTTP_201_CREATED)


class VariantSummaryOutput(serializers.Serializer):
    imported = serializers.IntegerField()
    already_stored = serializers.IntegerField()
    refused = serializers.ListField(child=serializers.DictField(child=serializers.CharField()))


class ImportJobOutput(serializers.ModelSerializer):
    """A PHH import job as its URL reports it (GET /api/phh-imports/{id}/) and as a large import answers it (202)."""

    url = serializers.SerializerMethodField()

    class Meta:
        model = ImportJob
        fields = ["id", "url", "name", "status", "hands", "processed", "summary", "error", "created_at", "started_at",
                  "finished_at"]

    def get_url(self, job) -> str:
        return reverse("phh-import", args=[job.pk])


class ImportPhhApi(IdempotentPostMixin, APIView):
    """Import a PHH text (.phh or .phhs): up to 1,000 hands at once (201 with the summary per variant); more as a
    background job (202 with the job, whose progress GET /api/phh-imports/{id}/ reports). A text whose every hand
    is stored already (posted again, or by two clients at once) is a 409 with a stored round's `existing_id`."""

    class Input(serializers.Serializer):
        table = serializers.PrimaryKeyRelatedField(
            queryset=PokerTable.objects.all(), required=False, allow_null=True, default=None,
            help_text="Record every hand at this table; without it each hand goes to a table of the casino that deals "
                      "its game.")
        phh = text(max_length=None, multiline=True, help_text="The text of a .phh or .phhs hand history.")
        name = text(max_length=200, required=False, default="api.phhs")

    class Output(serializers.Serializer):
        """The summary of an import done at once (201)."""

        imported = serializers.IntegerField()
        skipped = serializers.IntegerField(help_text="Hands already stored.")
        refused = serializers.IntegerField(help_text="Hands no table of the casino can take (see variants).")
        variants = serializers.DictField(child=VariantSummaryOutput())
        tables = serializers.DictField(child=serializers.IntegerField(), help_text="Table number -> rounds imported.")

    permission_classes = [RulesPermission]
    required_perm = "rounds.add_roundofplay"
    idempotency_in_one_transaction = False  # commits batch by batch; a second run skips every hand already stored

    @extend_schema(request=Input, responses={201: Output, 202: ImportJobOutput,
                                             400: OpenApiResponse(description="Malformed PHH: nothing stored")})
    def post(self, request):
        data = self.Input(data=request.data)
        data.is_valid(raise_exception=True)
        values = data.validated_data
        table = values["table"]
        if table is not None:
            table = get_object_or_404(PokerTable, pk=table.pk, casino_id=request.user.casino_id)
            self.check_object_permissions(request, table)
        hands_count = count_hands(text=values["phh"], name=values["name"])
        if hands_count > ASYNC_IMPORT_HANDS:
            job = queue_import(casino=request.user.casino, text=values["phh"], name=values["name"], table=table,
                               hands_count=hands_count, requested_by=request.user)
            job.refresh_from_db()
            response = Response(ImportJobOutput(job).data, status=status.HTTP_202_ACCEPTED)
            response["Location"] = reverse("phh-import", args=[job.pk])
            return response
        summary = import_phh(casino=request.user.casino, text=values["phh"], name=values["name"], table=table,
                             recorded_by=request.user)
        if summary.nothing_new:
            raise AlreadyRecorded(f"Every hand of this text is already recorded ({summary.already_stored}); nothing "
                                  "was added.", field="phh", existing_id=summary.existing_round_id)
        if summary.refused and not (summary.imported or summary.already_stored):
            reasons = "; ".join(f"{label}: {reason}" for t in summary.variants.values() for label, reason in t.refused)
            return Response({"phh": [f"No hand could be taken in. {reasons}"[:2000]]},
                            status=status.HTTP_400_BAD_REQUEST)
        return Response(summary.as_json(), status=status.HTTP_201_CREATED)


class ImportJobApi(APIView):
    """A PHH import job: its status and progress (hands processed of all), then its summary."""

    permission_classes = [RulesPermission]
    required_perm = "rounds.add_roundofplay"
    Output = ImportJobOutput

    @extend_schema(responses={200: Output})
    def get(self, request, pk: int):
        job = selectors.import_job(casino=request.user.casino, pk=pk)
        if job is None:
            return Response({"detail": "No such import."}, status=status.HTTP_404_NOT_FOUND)
        return Response(self.Output(job).data)
