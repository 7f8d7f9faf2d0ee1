"""apps.core.serializers.ModelOutput: the representation DRF's ModelSerializer gives, with fields built once a class."""
from decimal import Decimal

import pytest
from django.utils import timezone
from rest_framework import serializers

from apps.feed.services import PlayerIn, RoundIn, record_round_of_play
from apps.rounds.apis import PotAwardOutput, PotOutput, RoundOutput, RoundPlayerOutput
from apps.rounds.models import Pot, PotAward, RoundOfPlay, RoundPlayer
from tests.factories import CasinoFactory, JackpotFactory, PokerTableFactory

pytestmark = pytest.mark.django_db
D = Decimal


class PlainPlayer(serializers.ModelSerializer):
    class Meta:
        model = RoundPlayer
        fields = RoundPlayerOutput.Meta.fields


class PlainAward(serializers.ModelSerializer):
    class Meta:
        model = PotAward
        fields = PotAwardOutput.Meta.fields


class PlainPot(serializers.ModelSerializer):
    awards = PlainAward(many=True, read_only=True)

    class Meta:
        model = Pot
        fields = PotOutput.Meta.fields


class PlainRound(serializers.ModelSerializer):
    players = PlainPlayer(many=True, read_only=True)
    pots = PlainPot(many=True, read_only=True)

    class Meta:
        model = RoundOfPlay
        fields = RoundOutput.Meta.fields


def recorded_rounds():
    casino = CasinoFactory(code="one")
    JackpotFactory(casino=casino)
    table = PokerTableFactory(casino=casino)
    rounds = []
    for stacks in (("50.00", "50.00"), ("10.00", "40.00", "40.00")):
        players = [PlayerIn(seat=i + 1, name=f"P{i}", contributed=D(amount),
                            hole_cards=["As Ks", "2c 7d", "Qh Qd"][i]) for i, amount in enumerate(stacks)]
        rounds.append(record_round_of_play(table=table, round_in=RoundIn(
            players=players, started_at=timezone.now(), board="Ah Kd 5c 9s 3h")))
    return rounds


def test_the_representation_is_drfs_for_a_round_as_recorded_and_as_read_back():
    rounds = recorded_rounds()
    read_back = list(RoundOfPlay.objects.prefetch_related("players", "pots__awards").order_by("pk"))
    for round_of_play in [*rounds, *read_back]:
        assert RoundOutput(round_of_play).data == PlainRound(round_of_play).data
    assert RoundOutput(read_back, many=True).data == PlainRound(read_back, many=True).data
    assert len(read_back[1].pots.all()) == 2  # a side pot, nested with its awards


def test_fields_are_built_once_a_class(monkeypatch):
    rounds = recorded_rounds()
    RoundOutput(rounds[0]).data  # noqa: B018 - built here, if no test did before
    built = []
    original = serializers.ModelSerializer.get_fields
    monkeypatch.setattr(serializers.ModelSerializer, "get_fields", lambda self: built.append(self) or original(self))
    for round_of_play in rounds:
        assert RoundOutput(round_of_play).data["id"] == round_of_play.pk
    assert built == []
    assert RoundOutput(rounds[0]).fields is RoundOutput(rounds[1]).fields
