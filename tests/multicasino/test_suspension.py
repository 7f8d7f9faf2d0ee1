"""Heartbeats, suspension and resumption (N.J.A.C. 13:69F-14.20(e)4.i), rules-hash checks (14.20(a)), and a
site's contributions reaching the host exactly once (14.20(d), (e)2)."""
import json
from datetime import UTC, datetime, timedelta
from decimal import Decimal

import pytest
import time_machine
from django.utils import timezone

from apps.feed.services import PlayerIn, RoundIn, record_round_of_play
from apps.multicasino.models import BadBeatSystem, Link, OutboxMessage, Site, SystemStatus
from apps.multicasino.services.heartbeats import apply_heartbeat, refresh_status, send_heartbeats
from apps.multicasino.services.outbox import enqueue
from apps.multicasino.services.setup import add_site, rules_hash, set_up_system
from apps.multicasino.signing import body_hash
from tests.factories import JackpotFactory, PokerTableFactory
from tests.multicasino.support import receive
from tests.multicasino.test_inbox import RULES, SITE_TO_HOST

D = Decimal
pytestmark = pytest.mark.django_db
T0 = datetime(2026, 11, 23, 15, 0, tzinfo=UTC)


@pytest.fixture
def at_site(settings, casino):
    calls = []

    def transport(url, text, headers):
        calls.append((url, text, headers))
        return 200, {"ack": body_hash(text)}

    globals()["TRANSPORT"] = transport
    settings.MULTICASINO_TRANSPORT = "tests.multicasino.test_suspension.TRANSPORT"
    jackpot = JackpotFactory(casino=casino, minimum_pot=D("0"))
    system = set_up_system(code="nj", name="NJ Bad Beat", host_name="Boardwalk", host_address="AC", rules=RULES,
                           jackpot=jackpot)
    me = add_site(system=system, code="borgata", name="Borgata", is_self=True)
    host = add_site(system=system, code="boardwalk", name="Boardwalk", is_host=True, inbox_url="http://host.test/",
                    outbound_secrets=[SITE_TO_HOST], inbound_secrets=[SITE_TO_HOST])
    return system, me, host, calls


def status(site):
    site.refresh_from_db()
    return site.status


class TestSuspension:
    @pytest.mark.proves("14.20(e)4-notify")
    def test_14_20_e_4_i_silence_suspends_after_the_timeout_and_the_link_resumes(self, at_site):
        system, me, host, _ = at_site
        with time_machine.travel(T0, tick=False):
            apply_heartbeat(peer=host, body={"rules_hash": system.rules_hash, "pool": "120.00"}, now=timezone.now())
            assert status(me) == SystemStatus.ACTIVE
            system.refresh_from_db()
            assert system.pool == D("120.00")  # the host's pool, shown on every display
        with time_machine.travel(T0 + timedelta(seconds=10), tick=False):
            assert refresh_status(system=system) == SystemStatus.ACTIVE  # exactly the timeout: not yet
        with time_machine.travel(T0 + timedelta(seconds=11), tick=False):
            assert refresh_status(system=system) == SystemStatus.SUSPENDED
            assert "no word for more than 10 s" in me.__class__.objects.get(pk=me.pk).status_reason
        with time_machine.travel(T0 + timedelta(seconds=30), tick=False):
            apply_heartbeat(peer=host, body={"rules_hash": system.rules_hash}, now=timezone.now())
            assert status(me) == SystemStatus.ACTIVE

    def test_resumes_only_once_the_backlog_is_delivered(self, at_site):
        system, me, host, _ = at_site
        with time_machine.travel(T0, tick=False):
            refresh_status(system=system)  # never heard: suspended
            assert status(me) == SystemStatus.SUSPENDED
            OutboxMessage.objects.create(link=host.link, sequence=1, message_id="msg_1", kind="contribution", body={},
                                         next_attempt_at=timezone.now())
            apply_heartbeat(peer=host, body={"rules_hash": system.rules_hash}, now=timezone.now())
            assert status(me) == SystemStatus.SUSPENDED
            assert "1 message(s) still to deliver" in me.__class__.objects.get(pk=me.pk).status_reason
            OutboxMessage.objects.update(acked_at=timezone.now())
            apply_heartbeat(peer=host, body={"rules_hash": system.rules_hash}, now=timezone.now())
            assert status(me) == SystemStatus.ACTIVE

    def test_traffic_written_after_the_peer_is_heard_again_does_not_keep_it_suspended(self, at_site):
        system, me, host, _ = at_site
        with time_machine.travel(T0, tick=False):
            assert refresh_status(system=system) == SystemStatus.SUSPENDED
            backlog = enqueue(link=host.link, kind="contribution", body={"n": 1})
            apply_heartbeat(peer=Site.objects.get(pk=host.pk), body={"rules_hash": system.rules_hash}, now=T0)
            assert status(me) == SystemStatus.SUSPENDED
            assert Link.objects.get(pk=host.link.pk).backlog_until == backlog.sequence
            enqueue(link=host.link, kind="contribution", body={"n": 2})  # a live link's ordinary traffic
            OutboxMessage.objects.filter(pk=backlog.pk).update(acked_at=T0)
            apply_heartbeat(peer=Site.objects.get(pk=host.pk), body={"rules_hash": system.rules_hash}, now=T0)
            assert status(me) == SystemStatus.ACTIVE
            assert OutboxMessage.objects.filter(acked_at__isnull=True).count() == 1
            assert Link.objects.get(pk=host.link.pk).backlog_until is None

    @pytest.mark.proves("14.20(a)")
    def test_14_20_a_rules_hash_mismatch_suspends(self, at_site):
        system, me, host, _ = at_site
        other = rules_hash(rules={**RULES, "minimum_pot": "25.00"}, two_claims_rule="first_received",
                           contributions_while_suspended=False)
        apply_heartbeat(peer=host, body={"rules_hash": other}, now=timezone.now())
        assert status(me) == SystemStatus.SUSPENDED
        assert "rules differ" in me.__class__.objects.get(pk=me.pk).status_reason

    @pytest.mark.proves("14.20(a)")
    def test_14_20_a_a_peer_is_one_of_the_system_while_it_reports_the_same_rules(self, at_site):
        """The host heard with the system's rules hash: active; with another: suspended, naming the rules; heard with
        none (a peer not yet reporting one): not a difference of rules; with the same again: active."""
        system, me, host, _ = at_site
        other = rules_hash(rules={**RULES, "minimum_pot": "25.00"}, two_claims_rule="first_received",
                           contributions_while_suspended=False)
        for reported, expected, why in [(system.rules_hash, SystemStatus.ACTIVE, ""),
                                        (other, SystemStatus.SUSPENDED, "rules differ"),
                                        ("", SystemStatus.ACTIVE, ""),
                                        ("0" * 64, SystemStatus.SUSPENDED, "rules differ"),  # below ours, and above
                                        (system.rules_hash, SystemStatus.ACTIVE, ""),
                                        ("f" * 64, SystemStatus.SUSPENDED, "rules differ"),
                                        (system.rules_hash, SystemStatus.ACTIVE, "")]:
            apply_heartbeat(peer=Site.objects.get(pk=host.pk), body={"rules_hash": reported}, now=timezone.now())
            peer = Site.objects.get(pk=host.pk)
            assert (status(me), peer.status) == (expected, expected), reported
            assert ("rules differ" in peer.status_reason) is bool(why)

    @pytest.mark.proves("14.20(a)")
    def test_14_20_a_the_system_holds_every_rule_and_nothing_else(self, casino):
        """Every casino's payout runs on the system's one rule set: set up with a rule missing, the system is refused
        naming the rules; with a rule of no system, naming that rule; the terms of which pots qualify may be left out
        (their defaults), and one rule set is the same whether or not it names them."""
        from apps.core.exceptions import DomainError
        from apps.multicasino.models import ELIGIBILITY_DEFAULTS

        for rules, field in [({k: v for k, v in RULES.items() if k != "minimum_pot"}, "rules"),
                             ({k: v for k, v in RULES.items() if k != "qualifying_hand"}, "rules"),
                             ({**RULES, "jackpot_name": "x", "bonus": "y"}, "bonus")]:
            with pytest.raises(DomainError) as refused:
                set_up_system(code="nj", name="NJ", host_name="Boardwalk", host_address="AC", rules=rules)
            assert refused.value.field == field
        assert not BadBeatSystem.objects.exists()
        explicit = {**RULES, **ELIGIBILITY_DEFAULTS}
        system = set_up_system(code="nj", name="NJ", host_name="Boardwalk", host_address="AC", rules=explicit)
        assert system.rules_hash == rules_hash(rules=RULES, two_claims_rule="first_received",
                                               contributions_while_suspended=False)

    def test_heartbeats_are_signed_and_carry_the_rules_hash_and_total(self, at_site):
        system, me, host, calls = at_site
        assert send_heartbeats() == 1
        url, text, headers = calls[0]
        assert url == "http://host.test/" and system.rules_hash in text and '"kind":"heartbeat"' in text
        assert headers["webhook-signature"].startswith("v1,")


    @pytest.mark.proves("14.20(d)1-participants")
    def test_14_20_d_1_the_hosts_heartbeat_names_every_participating_casino(self, at_site, client, staff):
        from apps.core.roles import Role
        system, me, host, _ = at_site
        listed = [{"code": "boardwalk", "name": "Boardwalk", "address": "1 Boardwalk", "status": "active"},
                  {"code": "borgata", "name": "Borgata", "address": "", "status": "suspended"},
                  {"code": "ocean", "name": "Ocean Casino", "address": "500 Boardwalk", "status": "suspended"}]
        apply_heartbeat(peer=host, body={"rules_hash": system.rules_hash, "participants": listed}, now=timezone.now())
        ocean = Site.objects.get(system=system, code="ocean")
        assert (ocean.name, ocean.address, ocean.status) == ("Ocean Casino", "500 Boardwalk", "suspended")
        assert not hasattr(ocean, "link")  # a site links with the host only
        assert status(me) == SystemStatus.ACTIVE  # this casino's status is its own observation, not the host's
        client.force_login(staff(Role.DEALER))
        assert "Ocean Casino" in client.get("/multicasino/posting/").content.decode()
        listed[2]["status"] = "active"
        apply_heartbeat(peer=host, body={"rules_hash": system.rules_hash, "participants": listed}, now=timezone.now())
        assert status(ocean) == SystemStatus.ACTIVE

    @pytest.mark.proves("14.20(d)1-participants")
    def test_14_20_d_1_the_hosts_list_is_taken_item_by_item_and_kept_current_without_rewriting(self, at_site):
        """The host's list reaches every site with its heartbeat, every 2 s: an item that is not a casino (no code,
        a code that is not text or is empty) is passed over and the rest still taken; names, addresses and codes are
        cut to what the posting keeps (a casino without a name is posted under its code); a status other than
        active or suspended is not taken. A casino already known (not this one, the host or a linked peer) follows
        the host's list when it changes, and an unchanged list rewrites nothing."""
        from django.db import connection
        from django.test.utils import CaptureQueriesContext

        system, me, host, _ = at_site
        long_name = {"code": "a" * 45, "name": "N" * 205, "address": "A" * 305, "status": "closed"}
        no_name = {"code": "b" * 45, "name": "", "address": "", "status": "suspended"}
        resorts = {"code": "resorts", "name": "Resorts", "address": "1133 Boardwalk", "status": "active"}
        listed = ["ocean", None, {"name": "No code"}, {"code": 7, "name": "Numbered"}, {"code": "", "name": "Blank"},
                  long_name, no_name, resorts]

        def beat():
            with CaptureQueriesContext(connection) as queries:
                apply_heartbeat(peer=host, body={"rules_hash": system.rules_hash, "participants": listed},
                                now=timezone.now())
            return [q["sql"] for q in queries.captured_queries if 'SET "name"' in q["sql"]]

        def learned():
            return {s.code: (s.name, s.address, s.status)
                    for s in Site.objects.filter(system=system).exclude(pk__in=[me.pk, host.pk])}

        beat()
        assert learned() == {"a" * 40: ("N" * 200, "A" * 300, SystemStatus.ACTIVE),
                             "b" * 40: ("b" * 40, "", SystemStatus.SUSPENDED),
                             "resorts": ("Resorts", "1133 Boardwalk", SystemStatus.ACTIVE)}
        assert beat() == []  # the same list: nothing rewritten, no duplicate
        assert len(learned()) == 3
        resorts.update(name="Resorts Casino Hotel", address="1133 Boardwalk, Atlantic City")  # each later in order
        long_name.update(status="suspended")
        assert len(beat()) == 2
        assert learned()["resorts"] == ("Resorts Casino Hotel", "1133 Boardwalk, Atlantic City", SystemStatus.ACTIVE)
        assert learned()["a" * 40][2] == SystemStatus.SUSPENDED
        resorts.update(name="Resorts", address="1133 Boardwalk")  # each earlier in order
        assert len(beat()) == 1
        assert learned()["resorts"] == ("Resorts", "1133 Boardwalk", SystemStatus.ACTIVE)
        listed[0] = {"code": "borgata", "name": "Not this casino", "address": "", "status": "suspended"}
        listed[1] = {"code": "boardwalk", "name": "Not the host's own record", "address": "", "status": "suspended"}
        assert beat() == []  # this casino's record and the host's are this deployment's own
        assert (Site.objects.get(pk=me.pk).name, Site.objects.get(pk=host.pk).name) == (me.name, host.name)
        peer = add_site(system=system, code="tropicana", name="Tropicana", inbox_url="http://tropicana.test/",
                        outbound_secrets=[SITE_TO_HOST], inbound_secrets=[SITE_TO_HOST])  # a peer linked here
        listed.append({"code": "tropicana", "name": "Not the linked peer's record", "address": "", "status": "active"})
        assert beat() == []  # a linked peer's record is this deployment's observation, as the host's is
        assert Site.objects.get(pk=peer.pk).name == "Tropicana"

    def test_the_host_sends_the_participants_in_its_heartbeat(self, settings, casino):
        calls = []
        globals()["TRANSPORT"] = lambda url, text, headers: calls.append(text) or (200, {"ack": body_hash(text)})
        settings.MULTICASINO_TRANSPORT = "tests.multicasino.test_suspension.TRANSPORT"
        system = set_up_system(code="nj", name="NJ Bad Beat", host_name="Boardwalk", host_address="AC",
                               rules=RULES, jackpot=JackpotFactory(casino=casino))
        add_site(system=system, code="boardwalk", name="Boardwalk", is_host=True, is_self=True)
        for code in ("borgata", "ocean"):
            add_site(system=system, code=code, name=code.title(), inbox_url=f"http://{code}.test/",
                     outbound_secrets=[SITE_TO_HOST], inbound_secrets=[SITE_TO_HOST])
        assert send_heartbeats() == 2
        body = json.loads(calls[0])["body"]
        assert [p["code"] for p in body["participants"]] == ["boardwalk", "borgata", "ocean"]


class TestContributionsReachTheHost:
    def test_14_20_e_2_a_sites_contribution_is_in_the_outbox_of_its_transaction(self, at_site, casino,
                                                                                 django_capture_on_commit_callbacks):
        system, me, host, calls = at_site
        table = PokerTableFactory(casino=casino)
        with django_capture_on_commit_callbacks(execute=True):
            record_round_of_play(table=table, round_in=RoundIn(started_at=timezone.now(), board="2h 7d 9c Js Kd", players=[
                PlayerIn(seat=1, contributed=D("20"), hole_cards="As Ac"),
                PlayerIn(seat=2, contributed=D("20"), hole_cards="Qh Qd")]))
        message = OutboxMessage.objects.get()
        assert message.body["amount"] == "1.00" and message.body["site_total"] == "1.00"
        assert message.acked_at is not None and '"kind":"contribution"' in calls[0][1]

    @pytest.mark.proves("14.20(c)1")
    @pytest.mark.parametrize("continue_while_suspended", [False, True])
    def test_14_20_e_4_i_while_suspended_contributions_follow_the_agreement(self, at_site, casino,
                                                                           continue_while_suspended):
        """14.20(c)1, 14.20(e)4: a casino suspended from the system takes contributions for it, and reports them,
        only when the agreement says contributions continue while suspended."""
        system, me, host, _ = at_site
        BadBeatSystem.objects.filter(pk=system.pk).update(contributions_while_suspended=continue_while_suspended)
        assert refresh_status(system=system) == SystemStatus.SUSPENDED  # the host was never heard
        table = PokerTableFactory(casino=casino)
        round_of_play = record_round_of_play(table=table, round_in=RoundIn(
            started_at=timezone.now(), board="2h 7d 9c Js Kd", players=[
                PlayerIn(seat=1, contributed=D("20"), hole_cards="As Ac"),
                PlayerIn(seat=2, contributed=D("20"), hole_cards="Qh Qd")]))
        assert round_of_play.bad_beat_contributions.count() == int(continue_while_suspended)
        assert OutboxMessage.objects.filter(kind="contribution").count() == int(continue_while_suspended)

    def test_the_host_pools_its_own_casinos_contributions_directly(self, casino):
        jackpot = JackpotFactory(casino=casino, minimum_pot=D("0"))
        system = set_up_system(code="nj", name="NJ", host_name="H", host_address="A", rules=RULES, jackpot=jackpot)
        add_site(system=system, code="boardwalk", name="Boardwalk", is_host=True, is_self=True)
        table = PokerTableFactory(casino=casino)
        for _ in range(3):
            record_round_of_play(table=table, round_in=RoundIn(started_at=timezone.now(), board="2h 7d 9c Js Kd", players=[
                PlayerIn(seat=1, contributed=D("20"), hole_cards="As Ac"),
                PlayerIn(seat=2, contributed=D("20"), hole_cards="Qh Qd")]))
        system.refresh_from_db()
        assert system.pool == D("3.00") and system.pool_entries.count() == 3


def test_inbox_endpoint_needs_no_session_but_a_signature(client, at_site):
    response = client.post("/api/multicasino/inbox/", data=b"{}", content_type="application/json")
    assert response.status_code == 401 and response.json()["error"] == "Unknown sender"
    assert receive(headers={}, raw=b"{}")[0] == 401


def test_the_display_shows_the_host_pool_and_suspended(client, at_site, staff):
    from apps.core.roles import Role
    system, me, host, _ = at_site
    refresh_status(system=system)  # the host was never heard: suspended
    client.force_login(staff(Role.SURVEILLANCE))
    partial = client.get("/jackpot/display/", HTTP_HX_REQUEST="true").content.decode()
    assert "NJ Bad Beat — multi-casino" in partial and "SUSPENDED" in partial
    apply_heartbeat(peer=host, body={"rules_hash": system.rules_hash, "pool": "250.00"}, now=timezone.now())
    partial = client.get("/jackpot/display/", HTTP_HX_REQUEST="true").content.decode()
    assert '$250<span class="cents">.00</span>' in partial and "SUSPENDED" not in partial  # whole dollars, small cents


@pytest.mark.parametrize("url", ["/multicasino/", "/multicasino/posting/", "/multicasino/nj/contributions.csv"])
def test_14_20_d_1_every_role_reads_the_posting_and_status(client, at_site, staff, url):
    from apps.core.roles import Role
    for role in Role:
        client.force_login(staff(role))
        assert client.get(url).status_code == 200
    client.logout()
    assert client.get(url).status_code == 302


@pytest.mark.proves("14.20(e)1")
def test_14_20_e_1_only_administrators_configure_links_and_keys(client, at_site, staff):
    from apps.core.roles import Role
    system, me, host, _ = at_site
    for role in (Role.POKER_SHIFT_SUPERVISOR, Role.SURVEILLANCE, Role.ACCOUNTING):
        user = staff(role)
        user.is_staff = True  # even with access to the admin site
        user.save()
        client.force_login(user)
        assert client.get(f"/admin/multicasino/link/{host.link.pk}/change/").status_code in (302, 403)
    admin_user = staff(Role.ADMIN)
    admin_user.is_staff = True
    admin_user.save()
    client.force_login(admin_user)
    assert client.get(f"/admin/multicasino/link/{host.link.pk}/change/").status_code == 200
