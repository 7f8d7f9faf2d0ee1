"""factory-boy factories shared by the suite."""
from datetime import time
from decimal import Decimal

import factory
from django.contrib.auth.models import Group

from apps.badbeat.models import Jackpot, JackpotKind, QualifyingHand
from apps.casinos.models import Casino, User
from apps.rake.models import RakeStructure
from apps.tables.models import BettingStructure, Game, PokerTable


class CasinoFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Casino
        django_get_or_create = ("code",)

    code = factory.Sequence(lambda n: f"casino{n}")
    name = factory.Sequence(lambda n: f"Casino {n} Poker Room")
    licensee = "Test Casino Licensee LLC"
    address = "1 Boardwalk, Atlantic City, NJ"
    time_zone = "America/New_York"
    gaming_day_starts_at = time(6, 0)


class StaffFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = User
        skip_postgeneration_save = True

    username = factory.Sequence(lambda n: f"staff{n}")
    casino = factory.SubFactory(CasinoFactory)
    password = factory.PostGenerationMethodCall("set_password", "pw-for-tests-1")

    @factory.post_generation
    def roles(self, create, extracted, **kwargs):
        if create and extracted:
            self.groups.set([Group.objects.get_or_create(name=str(role))[0] for role in extracted])
        self.save()


class PokerTableFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = PokerTable

    casino = factory.SubFactory(CasinoFactory)
    number = factory.Sequence(lambda n: n + 1)
    game = Game.HOLDEM
    betting_structure = BettingStructure.NO_LIMIT
    seats = 9
    small_blind = Decimal("1.00")
    big_blind = Decimal("2.00")
    minimum_wager = Decimal("2.00")
    bad_beat_participation = True
    is_open = True


class RakeStructureFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = RakeStructure

    table = factory.SubFactory(PokerTableFactory)
    percentage = Decimal("10.00")
    maximum = Decimal("5.00")
    minimum_pot = Decimal("0.00")
    increment = Decimal("1.00")


class JackpotFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Jackpot
        django_get_or_create = ("casino", "kind")

    casino = factory.SubFactory(CasinoFactory)
    kind = JackpotKind.PRIMARY
    minimum_pot = Decimal("20.00")
    contribution_amount = Decimal("1.00")
    contribution_percentage = None
    maximum_contribution = Decimal("1.00")
    qualifying_hand = QualifyingHand.FOUR_OF_A_KIND
    minimum_players_dealt = 2
    both_hole_cards_must_play = False
