"""The system's audit trail (N.J.A.C. 13:69F-14.20(e)1-3, (f)): every configuration change, key rotation and
suspension is on record, the secrets never are, and neither is the traffic of a live link (heartbeats, sequence
numbers, the pool's mirror), which has append-only records of its own."""
import hashlib
import re
from datetime import timedelta

import pytest
from django.apps import apps
from django.utils import timezone

from apps.multicasino.models import Link, SystemStatus
from apps.multicasino.services.heartbeats import apply_heartbeat, refresh_status
from apps.multicasino.services.outbox import enqueue
from apps.multicasino.services.setup import add_site
from tests.multicasino.test_inbox import SITE_TO_HOST
from tests.multicasino.test_suspension import at_site  # noqa: F401 - the fixture

pytestmark = pytest.mark.django_db
LinkEvent = apps.get_model("multicasino", "LinkEvent")
SiteEvent = apps.get_model("multicasino", "SiteEvent")
SystemEvent = apps.get_model("multicasino", "BadBeatSystemEvent")


@pytest.mark.proves("14.20(e)1")
def test_14_20_e_1_key_rotation_is_on_record_by_fingerprint_never_by_secret(at_site):  # noqa: F811
    system, me, host, _ = at_site
    link = Link.objects.get(peer=host)
    assert LinkEvent.objects.filter(pgh_obj=link).count() == 1  # its creation
    rotated = "whsec_" + "QUJDREVGR0hJSktMTU5PUFFSU1RVVldY"
    add_site(system=system, code="boardwalk", name="Boardwalk", is_host=True, inbox_url="http://host.test/",
             outbound_secrets=[rotated, SITE_TO_HOST], inbound_secrets=[SITE_TO_HOST])
    events = list(LinkEvent.objects.filter(pgh_obj=link).order_by("pgh_id"))
    assert [e.pgh_label for e in events] == ["insert", "update"]
    assert events[0].keys_fingerprint != events[1].keys_fingerprint
    assert events[1].keys_fingerprint.startswith("out=") and events[1].keys_fingerprint.count(",") == 1
    assert re.fullmatch(r"out=[0-9a-f]{12},[0-9a-f]{12}; in=[0-9a-f]{12}", events[1].keys_fingerprint)
    assert events[1].keys_fingerprint.split(",")[0] == "out=" + hashlib.sha256(rotated.encode()).hexdigest()[:12]
    for event in events:  # the audit trail holds no secret, whole or in part
        row = " ".join(str(value) for value in vars(event).values())
        assert "whsec_" not in row and SITE_TO_HOST[6:20] not in row and rotated[6:20] not in row


def test_messages_on_a_link_add_nothing_to_its_key_history(at_site):  # noqa: F811
    system, me, host, _ = at_site
    link = Link.objects.get(peer=host)
    for _ in range(3):
        enqueue(link=link, kind="contribution", body={"reference": "x"})
    assert Link.objects.get(pk=link.pk).next_out_sequence == 4
    assert LinkEvent.objects.filter(pgh_obj=link).count() == 1


def test_14_20_e_4_i_each_suspension_and_resumption_is_on_record_not_each_heartbeat(at_site):  # noqa: F811
    system, me, host, _ = at_site
    now = timezone.now()
    before = SiteEvent.objects.filter(pgh_obj=me).count()
    refresh_status(system=system, now=now)  # the host never heard: suspended
    for second in range(0, 10, 2):  # heard again, every 2 s
        apply_heartbeat(peer=host, body={"rules_hash": system.rules_hash, "pool": f"{100 + second}.00"},
                        now=now + timedelta(seconds=second))
    me.refresh_from_db()
    assert me.status == SystemStatus.ACTIVE
    statuses = list(SiteEvent.objects.filter(pgh_obj=me).order_by("pgh_id").values_list("status", flat=True))
    assert statuses[before:] == [SystemStatus.SUSPENDED, SystemStatus.ACTIVE]
    host_statuses = list(SiteEvent.objects.filter(pgh_obj=host).order_by("pgh_id")
                         .values_list("status", "status_reason"))
    assert [s for s, _ in host_statuses] == [SystemStatus.ACTIVE, SystemStatus.SUSPENDED, SystemStatus.ACTIVE]
    assert "no word" in host_statuses[1][1]  # the reason is kept with the suspension
    assert SystemEvent.objects.filter(pgh_obj=system).count() == 1  # the pool's mirror moved, the agreement not


def test_14_20_c_a_change_to_the_agreement_is_on_record(at_site):  # noqa: F811
    system, *_ = at_site
    system.contributions_while_suspended = True
    system.save()
    events = SystemEvent.objects.filter(pgh_obj=system).order_by("pgh_id")
    assert [e.contributions_while_suspended for e in events] == [False, True]
