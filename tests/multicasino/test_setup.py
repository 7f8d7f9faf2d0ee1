"""Setting up a multi-casino bad beat system: the agreement as the system records it (N.J.A.C. 13:69F-14.20(b), (c))."""
from decimal import Decimal

import pytest

from apps.core.exceptions import DomainError
from apps.core.roles import Role
from apps.multicasino.models import BadBeatSystem
from apps.multicasino.services.setup import add_site, rules_hash, set_up_system
from tests.factories import JackpotFactory
from tests.multicasino.test_inbox import RULES

pytestmark = pytest.mark.django_db


@pytest.mark.proves("14.20(b)-recorded", "14.20(c)2", "14.20(c)3")
def test_14_20_b_c_2_c_3_the_agreement_is_recorded_with_its_rules_funds_and_record_keeper(settings, casino, client,
                                                                                            staff):
    """14.20(b): the system runs under one written agreement, executed by each participating casino: it is recorded
    once with its one rule set (and that set's hash), a rule set missing a rule or with an unknown one is refused and
    writes nothing, and each participating casino is on it. 14.20(c)2: how funds and fees are kept and paid, and
    14.20(c)3: who keeps the records, are recorded and shown on the host's report."""
    settings.MULTICASINO_TRANSPORT = "tests.multicasino.test_claims.refuse_transport"
    for bad, field in (({k: v for k, v in RULES.items() if k != "losing_share"}, "rules"),
                       ({**RULES, "jackpot_colour": "red"}, "jackpot_colour")):
        with pytest.raises(DomainError) as exc:
            set_up_system(code="nj", name="NJ Bad Beat", host_name="Boardwalk", host_address="AC", rules=bad)
        assert exc.value.field == field
    assert not BadBeatSystem.objects.exists()
    system = set_up_system(code="nj", name="NJ Bad Beat", host_name="Boardwalk Casino Hotel LLC", host_address="AC",
                           rules=RULES, jackpot=JackpotFactory(casino=casino, minimum_pot=Decimal("0")),
                           funds_and_fees="Each casino pays a $250 monthly fee from its own funds",
                           records_kept_by="Boardwalk accounting department")
    assert system.rules == RULES
    assert system.rules_hash == rules_hash(rules=RULES, two_claims_rule=system.two_claims_rule,
                                           contributions_while_suspended=False)
    add_site(system=system, code="boardwalk", name="Boardwalk", is_host=True, is_self=True)
    add_site(system=system, code="borgata", name="Borgata", inbox_url="http://a.test/")
    assert sorted(system.sites.values_list("code", flat=True)) == ["boardwalk", "borgata"]
    client.force_login(staff(Role.ACCOUNTING))
    page = client.get("/multicasino/nj/report/").content.decode()
    assert "Each casino pays a $250 monthly fee from its own funds" in page
    assert "Records kept by: Boardwalk accounting department" in page


@pytest.mark.proves("14.20(c)-roles", "14.20(c)2", "14.20(c)3")
def test_14_20_c_configured_from_a_file_the_agreements_terms_and_roles_are_set_and_kept(casino, tmp_path):
    """`manage.py multicasino_configure FILE.json` records the agreement's terms — how funds and fees are kept and
    paid (14.20(c)2), who keeps the records ((c)3) — and each casino's role, authority and responsibilities ((c));
    run again without them (the usual run, changing a heartbeat), it keeps what is recorded instead of erasing it; a
    role longer than its field is refused naming the field, and nothing of that run is written."""
    import json

    from django.core.management import CommandError, call_command

    from apps.multicasino.models import Site

    JackpotFactory(casino=casino, minimum_pot=Decimal("0"))
    system = {"code": "nj", "name": "NJ Bad Beat", "host_name": "Boardwalk", "host_address": "AC", "rules": RULES,
              "casino": casino.code}
    sites = [{"code": "boardwalk", "name": "Boardwalk", "is_host": True, "is_self": True},
             {"code": "borgata", "name": "Borgata", "inbox_url": "http://a.test/"}]
    path = tmp_path / "system.json"

    def configure(system_spec, site_specs):
        path.write_text(json.dumps({"system": system_spec, "sites": site_specs}))
        call_command("multicasino_configure", str(path), stdout=open(tmp_path / "out.txt", "w"))

    configure({**system, "funds_and_fees": "A $250 monthly fee from each casino", "records_kept_by": "Boardwalk"},
              [{**sites[0], "role": "Host: keeps the pool", "authority": "Authorises payouts",
                "responsibilities": "Keeps the records"}, {**sites[1], "role": "Participating casino"}])
    configure({**system, "heartbeat_seconds": 5}, sites)  # the terms and roles left out: kept
    recorded = BadBeatSystem.objects.get(code="nj")
    assert (recorded.funds_and_fees, recorded.records_kept_by, recorded.heartbeat_seconds) == (
        "A $250 monthly fee from each casino", "Boardwalk", 5)
    assert {s.code: (s.role, s.authority, s.responsibilities) for s in Site.objects.all()} == {
        "boardwalk": ("Host: keeps the pool", "Authorises payouts", "Keeps the records"),
        "borgata": ("Participating casino", "", "")}
    with pytest.raises(CommandError, match="^role: At most 200 characters"):
        configure({**system, "heartbeat_seconds": 9, "records_kept_by": "Borgata"},
                  [sites[0], {**sites[1], "role": "x" * 201}])
    recorded.refresh_from_db()
    assert (recorded.records_kept_by, recorded.heartbeat_seconds) == ("Boardwalk", 5)
    assert Site.objects.get(code="borgata").role == "Participating casino"
    configure(system, [sites[0], {**sites[1], "role": " " + "x" * 200 + " ", "authority": "y" * 2000}])  # the limits
    assert (Site.objects.get(code="borgata").role, Site.objects.get(code="borgata").authority) == ("x" * 200, "y" * 2000)
