"""Badbeat's typed door into the multi-casino system (apps.badbeat.shared): the system this app registers
implements it, and a casino's contributions reach the host's outbox in their own transaction, one message each
and in order, whether reported one by one or as a batch (N.J.A.C. 13:69F-14.20(d), (e)2)."""
import inspect
import random
from decimal import Decimal

import pytest
from django.db import transaction
from django.utils import timezone

from apps.badbeat.models import Contribution, Funding, JackpotKind, QualifyingHand
from apps.badbeat.shared import SharedPayoutSystem, register_shared_payout_system, shared_payout_system
from apps.feed.services import PlayerIn, RoundIn, record_round_of_play
from apps.multicasino.models import Link, OutboxMessage, PoolEntry, Site
from apps.multicasino.shared_payout import MulticasinoSystem
from tests.factories import JackpotFactory, PokerTableFactory
from tests.multicasino.test_claims import host_system  # noqa: F401 - the fixture
from tests.multicasino.test_suspension import at_site  # noqa: F401 - the fixture

D = Decimal
pytestmark = pytest.mark.django_db


def play(table):
    """A round at `table` that contributes to the jackpot (no showdown that qualifies)."""
    return record_round_of_play(table=table, round_in=RoundIn(started_at=timezone.now(), board="2h 7d 9c Js Kd", players=[
        PlayerIn(seat=1, contributed=D("20"), hole_cards="As Ac"),
        PlayerIn(seat=2, contributed=D("20"), hole_cards="Qh Qd")]))


def play_unreported(table, count):
    """`count` rounds written while no system is registered: their contributions are not reported yet."""
    registered = shared_payout_system()
    register_shared_payout_system(None)
    try:
        return [play(table) for _ in range(count)]
    finally:
        register_shared_payout_system(registered)


def test_the_registered_system_implements_every_method_of_the_interface():
    system = shared_payout_system()
    assert isinstance(system, MulticasinoSystem)
    methods = {name for name, value in vars(SharedPayoutSystem).items()
               if callable(value) and not name.startswith("_")}
    assert methods == {"manages", "contribution_terms", "record_contributions", "submit_claim", "record_payout",
                       "display_panels"}
    for name in methods:
        wanted = inspect.signature(getattr(SharedPayoutSystem, name)).parameters.values()
        given = inspect.signature(getattr(type(system), name)).parameters.values()
        assert [(p.name, p.kind) for p in given] == [(p.name, p.kind) for p in wanted], name


class TestContributionsReachTheOutbox:
    @pytest.mark.proves("14.20(e)2-complete")
    def test_14_20_e_2_a_contribution_and_its_message_are_written_and_rolled_back_together(
            self, at_site, casino, django_capture_on_commit_callbacks):  # noqa: F811
        system, me, host, calls = at_site
        table = PokerTableFactory(casino=casino)

        class Abandoned(Exception):
            pass

        with django_capture_on_commit_callbacks() as callbacks, pytest.raises(Abandoned):
            with transaction.atomic():
                contribution = play(table).bad_beat_contributions.get()
                message = OutboxMessage.objects.get()  # written in the contribution's transaction
                assert message.body["reference"] == str(contribution.pk) and message.sequence == 1
                raise Abandoned
        assert not Contribution.objects.exists() and not OutboxMessage.objects.exists()
        assert Link.objects.get(pk=host.link.pk).next_out_sequence == 1  # its number is not used up
        assert callbacks == [] and calls == []  # nothing is sent of what was rolled back

    @pytest.mark.proves("14.20(e)2-complete")
    def test_14_20_e_2_only_the_contributions_of_the_jackpot_funding_the_system_are_sent_to_it(
            self, at_site, casino):  # noqa: F811
        """A casino's own secondary payout, funded by its own contributions (14.19(m)1), is not the multi-casino
        system's: of a round's two contributions, the host is sent the system jackpot's, once, and not the other."""
        system, me, host, _ = at_site
        primary = system.jackpot
        local = JackpotFactory(casino=casino, kind=JackpotKind.SECONDARY, primary=primary, minimum_pot=D("0"),
                               funding=Funding.CONTRIBUTIONS, qualifying_hand=QualifyingHand.FULL_HOUSE)
        table = PokerTableFactory(casino=casino)
        contributions = {c.jackpot_id: c for c in play(table).bad_beat_contributions.all()}
        assert set(contributions) == {primary.pk, local.pk}  # both jackpots took their contribution
        messages = list(OutboxMessage.objects.filter(link=host.link))
        assert [m.body["reference"] for m in messages] == [str(contributions[primary.pk].pk)]
        assert messages[0].body["site_total"] == f"{contributions[primary.pk].amount:.2f}"

    def test_14_20_e_2_a_contribution_fails_when_its_message_cannot_be_written(self, at_site, casino):  # noqa: F811
        table = PokerTableFactory(casino=casino)

        class Broken(MulticasinoSystem):
            def record_contributions(self, *, contributions):
                raise RuntimeError("the outbox is unavailable")

        registered = shared_payout_system()
        register_shared_payout_system(Broken())
        try:
            with pytest.raises(RuntimeError, match="outbox"):
                play(table)
        finally:
            register_shared_payout_system(registered)
        assert not Contribution.objects.exists() and not OutboxMessage.objects.exists()

    def test_14_20_e_2_a_batch_writes_one_message_per_contribution_in_order_with_running_totals(
            self, at_site, casino, django_assert_num_queries):  # noqa: F811
        system, me, host, _ = at_site
        table = PokerTableFactory(casino=casino)
        first = play(table).bad_beat_contributions.get()  # reported on its own, as a round reports it
        batch = [r.bad_beat_contributions.get() for r in play_unreported(table, 4)]
        assert OutboxMessage.objects.count() == 1
        shuffled = random.Random(7).sample(batch, len(batch))
        with django_assert_num_queries(5):  # systems with their jackpots' kept totals, sites, the link's lock, the
            # messages, its number
            shared_payout_system().record_contributions(contributions=shuffled)
        messages = list(OutboxMessage.objects.filter(link=host.link).order_by("sequence"))
        assert [m.sequence for m in messages] == [1, 2, 3, 4, 5]
        assert [m.body["reference"] for m in messages] == [str(c.pk) for c in [first, *batch]]
        total = D("0.00")
        for contribution, message in zip([first, *batch], messages, strict=True):
            total += contribution.amount
            assert message.kind == "contribution" and message.body == {
                "reference": str(contribution.pk), "amount": f"{contribution.amount:.2f}",
                "to_reset": f"{contribution.to_reset:.2f}", "gaming_day": contribution.gaming_day.isoformat(),
                "site_total": f"{total:.2f}"}
        assert total == sum(c.amount for c in Contribution.objects.all())

    @pytest.mark.proves("14.20(e)2-identified")
    def test_14_20_d_a_batch_at_the_host_enters_the_pool_in_order_with_the_running_total(
            self, host_system, casino):  # noqa: F811
        system, me, _, _ = host_system
        table = PokerTableFactory(casino=casino)
        batch = [r.bad_beat_contributions.get() for r in play_unreported(table, 3)]
        pool = system.pool
        shared_payout_system().record_contributions(contributions=list(reversed(batch)))
        entries = list(PoolEntry.objects.filter(site=me).order_by("pk"))
        assert [e.reference for e in entries] == [str(c.pk) for c in batch]
        system.refresh_from_db()
        assert system.pool == pool + sum(c.amount - c.to_reset for c in batch)
        assert Site.objects.get(pk=me.pk).reported_total == sum(c.amount for c in batch)
        assert not OutboxMessage.objects.filter(kind="contribution").exists()  # the host tells no one

    @pytest.mark.proves("14.20(e)2-identified", "14.20(e)2-complete")
    def test_14_20_e_2_in_a_mixed_batch_each_contribution_of_the_system_is_sent_as_this_casinos(
            self, at_site, casino):  # noqa: F811
        """Handed contributions of the system's jackpot and of a jackpot of no system, in any order: every one of
        the system's is sent to the host over this casino's link, in order, with this casino's running total; the
        others are passed over, wherever they stand in the batch."""
        system, me, host, _ = at_site
        local = JackpotFactory(casino=casino, kind=JackpotKind.SECONDARY, primary=system.jackpot,
                               minimum_pot=D("0"), funding=Funding.CONTRIBUTIONS,
                               qualifying_hand=QualifyingHand.FULL_HOUSE)
        table = PokerTableFactory(casino=casino)
        rounds = play_unreported(table, 2)
        mixed = [c for r in rounds for c in r.bad_beat_contributions.order_by("pk")]
        assert [c.jackpot_id for c in mixed] == [system.jackpot_id, local.pk] * 2  # the system's, then the other
        shared_payout_system().record_contributions(contributions=mixed[::-1])
        sent = list(OutboxMessage.objects.filter(link=host.link).order_by("sequence"))
        ours = [c for c in mixed if c.jackpot_id == system.jackpot_id]
        assert [m.body["reference"] for m in sent] == [str(c.pk) for c in ours]
        assert [m.body["site_total"] for m in sent] == [f"{ours[0].amount:.2f}", f"{ours[0].amount + ours[1].amount:.2f}"]

    @pytest.mark.proves("14.20(e)2-identified", "14.20(e)2-complete")
    def test_14_20_e_2_nothing_is_sent_before_the_host_or_this_casino_is_known(self, casino, settings):
        """A system being set up, whose host or whose own casino is not recorded yet, has nobody to send to or
        nobody to send as: its jackpot's contribution is recorded and nothing is sent, without an error."""
        from apps.multicasino.services.setup import add_site, set_up_system
        from tests.multicasino.test_inbox import RULES, SITE_TO_HOST

        settings.MULTICASINO_TRANSPORT = "tests.multicasino.test_suspension.TRANSPORT"
        jackpot = JackpotFactory(casino=casino, minimum_pot=D("0"))
        system = set_up_system(code="nj", name="NJ Bad Beat", host_name="Boardwalk", host_address="AC", rules=RULES,
                               jackpot=jackpot)
        table = PokerTableFactory(casino=casino)
        add_site(system=system, code="borgata", name="Borgata", is_self=True)  # no host yet
        first = play_unreported(table, 1)[0].bad_beat_contributions.get()
        shared_payout_system().record_contributions(contributions=[first])
        assert not OutboxMessage.objects.exists() and not PoolEntry.objects.exists()
        system.sites.all().delete()
        add_site(system=system, code="boardwalk", name="Boardwalk", is_host=True, inbox_url="http://host.test/",
                 outbound_secrets=[SITE_TO_HOST], inbound_secrets=[SITE_TO_HOST])  # the host, not this casino
        second = play_unreported(table, 1)[0].bad_beat_contributions.get()
        shared_payout_system().record_contributions(contributions=[second])
        assert not OutboxMessage.objects.exists() and not PoolEntry.objects.exists()
        assert Contribution.objects.filter(jackpot=jackpot).count() == 2

    def test_contributions_of_a_jackpot_of_no_system_are_left_alone(self, casino):
        table = PokerTableFactory(casino=casino)
        JackpotFactory(casino=casino, minimum_pot=D("0"))
        contribution = play(table).bad_beat_contributions.get()
        shared_payout_system().record_contributions(contributions=[contribution])
        assert not OutboxMessage.objects.exists() and not PoolEntry.objects.exists()
