"""Counts as 13:69F-14.19 asks them, requirement by requirement: who counts a box at a closed table and who carries
it (14.19(d)1), what a Bad Beat Payout Contribution Form gives (14.19(f)3), and the gaming day's close naming a
display accounting did not adjust that day (14.19(k))."""
import csv
import io
from datetime import timedelta
from decimal import Decimal

import pytest
import time_machine
from django.utils import timezone

from apps.badbeat.models import Funding, QualifyingHand
from apps.badbeat.selectors import payable_amount
from apps.badbeat.services import adjust_display, create_secondary_jackpot
from apps.casinos.models import Department, LicenseType
from apps.core.exceptions import DomainError
from apps.core.roles import Role
from apps.counts.models import BadBeatCount, CountMethod, WitnessKind
from apps.counts.services import close_gaming_day, receive_form_part, record_count
from apps.feed.services import PlayerIn, RoundIn, record_round_of_play
from tests.factories import JackpotFactory, PokerTableFactory

D = Decimal
pytestmark = pytest.mark.django_db


def pot(table):
    return record_round_of_play(table=table, round_in=RoundIn(started_at=timezone.now(), board="2h 7d 9c Js Kd", players=[
        PlayerIn(seat=1, contributed=D("15.00"), hole_cards="As Ac"),
        PlayerIn(seat=2, contributed=D("15.00"), hole_cards="Qh Qd")]))


@pytest.fixture
def people(staff):
    return {"dealer": staff(Role.DEALER), "supervisor": staff(Role.POKER_SHIFT_SUPERVISOR),
            "floor": staff(Role.FLOORPERSON), "clerk": staff(Role.ACCOUNTING),
            "guard": staff(Role.SECURITY, department=Department.SECURITY, license_type=LicenseType.CASINO_KEY_EMPLOYEE,
                           approved_count_witness=True)}


@pytest.fixture
def closed_table(casino):
    JackpotFactory(casino=casino, minimum_pot=D("0"))
    table = PokerTableFactory(casino=casino, number=6)
    pot(table)
    table.is_open = False
    table.save()
    return table


def closed_table_count(table, people, **changes):
    kwargs = {"table": table, "method": CountMethod.CLOSED_TABLE, "amount": D("1.00"), "counted_by": people["dealer"],
              "witness": people["supervisor"], "witness_kind": WitnessKind.SUPERVISOR,
              "surveillance_recorded": True, "transported_by": people["guard"], "recorded_by": people["supervisor"]}
    return record_count(**(kwargs | changes))


@pytest.mark.proves("14.19(d)1-people")
def test_14_19_d_1_a_poker_dealer_counts_before_a_poker_supervisor_recorded_by_surveillance(closed_table, people):
    """14.19(d)1: the box of a closed table is counted by a poker dealer (not a floorperson), in the presence of a
    poker supervisor (not a floorperson), and recorded by surveillance; each refusal names its field and writes
    nothing; as the clause says, it is recorded."""
    for changes, field in [({"counted_by": people["floor"]}, "counted_by"),
                           ({"witness": people["floor"]}, "witness"),
                           ({"surveillance_recorded": False}, "surveillance_recorded")]:
        with pytest.raises(DomainError, match=r"14\.19\(d\)1") as refused:
            closed_table_count(closed_table, people, **changes)
        assert refused.value.field == field
    # the supervisor witnesses as a poker supervisor: named as any other kind of witness, the count is refused
    for kind in (WitnessKind.SECOND_DEPARTMENT, WitnessKind.CASHIER, "visitor"):
        with pytest.raises(DomainError, match=r"14\.19\(d\)1") as refused:
            closed_table_count(closed_table, people, witness_kind=kind)
        assert refused.value.field == "witness"
    assert not BadBeatCount.objects.exists()
    count = closed_table_count(closed_table, people, witness_kind="supervisor")  # as the page and the API send it
    assert (count.counted_by, count.witness) == (people["dealer"], people["supervisor"])


@pytest.mark.proves("14.19(d)1-transport")
def test_14_19_d_1_security_transports_the_container_to_the_cage(closed_table, people):
    """14.19(d)1: a representative of security carries the locked container to the cage: a dealer named as the one
    who carried it is refused naming the field; the guard is recorded."""
    with pytest.raises(DomainError, match=r"14\.19\(d\)1") as refused:
        closed_table_count(closed_table, people, transported_by=people["dealer"])
    assert refused.value.field == "transported_by" and not BadBeatCount.objects.exists()
    assert closed_table_count(closed_table, people).transported_by == people["guard"]


@pytest.mark.proves("14.19(f)3-contents")
def test_14_19_f_3_the_form_gives_its_time_table_chips_amount_and_who_counted_and_witnessed(client, casino, people):
    """14.19(f)3: each form of the day gives its number, date and time, table, the chips counted and their value,
    and the dealer and the witness who signed it."""
    JackpotFactory(casino=casino, minimum_pot=D("0"))
    table = PokerTableFactory(casino=casino, number=4)
    pot(table)
    count = record_count(table=table, method=CountMethod.TABLE_INVENTORY, chips={"0.25": 4}, counted_by=people["dealer"],
                         witness=people["supervisor"], witness_kind=WitnessKind.SUPERVISOR, surveillance_recorded=True,
                         recorded_by=people["supervisor"])
    client.force_login(people["clerk"])
    export = client.get(f"/accounting/forms/{count.gaming_day}/forms.csv").content.decode()
    [line] = list(csv.DictReader(io.StringIO(export)))
    assert line["serial_number"] == str(count.serial_number) and line["gaming_day"] == str(count.gaming_day)
    assert line["counted_at"] == count.counted_at.isoformat() and line["table"] == "4"
    assert line["chips"] == "4x$0.25" and line["amount"] == "1.00"
    assert (line["dealer"], line["witness"]) == (people["dealer"].username, people["supervisor"].username)
    printed = client.get(f"/accounting/forms/{count.gaming_day}/forms.pdf")  # the same forms, printed
    assert printed["Content-Type"] == "application/pdf" and printed.content[:5] == b"%PDF-"


@pytest.mark.proves("14.19(f)3-two-parts")
def test_14_19_f_3_the_days_forms_export_gives_each_forms_original_and_duplicate(client, casino, people):
    """14.19(f)3: each form has two parts, the original (from the table's drop box) and the duplicate (from the locked
    accounting box). The day's forms export (CSV) says of each form which part accounting has received — one form with
    its original only, then both; another with neither — and the PDF of the same forms is a PDF."""
    JackpotFactory(casino=casino, minimum_pot=D("0"))
    forms = []
    for number in (4, 5):
        table = PokerTableFactory(casino=casino, number=number)
        pot(table)
        forms.append(record_count(table=table, method=CountMethod.TABLE_INVENTORY, chips={"1": 1},
                                  counted_by=people["dealer"], witness=people["supervisor"],
                                  witness_kind=WitnessKind.SUPERVISOR, surveillance_recorded=True,
                                  recorded_by=people["supervisor"]))
    day = forms[0].gaming_day
    client.force_login(people["clerk"])

    def parts() -> list[tuple[str, str, str]]:
        export = client.get(f"/accounting/forms/{day}/forms.csv")
        assert export["Content-Type"].startswith("text/csv")
        return [(row["serial_number"], row["original_received"], row["duplicate_received"])
                for row in csv.DictReader(io.StringIO(export.content.decode()))]

    first, second = (str(f.serial_number) for f in forms)
    receive_form_part(casino=casino, serial_number=forms[0].serial_number, part="original", received_by=people["clerk"])
    assert parts() == [(first, "True", "False"), (second, "False", "False")]
    receive_form_part(casino=casino, serial_number=forms[0].serial_number, part="duplicate", received_by=people["clerk"])
    assert parts() == [(first, "True", "True"), (second, "False", "False")]
    printed = client.get(f"/accounting/forms/{day}/forms.pdf")
    assert printed["Content-Type"] == "application/pdf" and printed.content[:5] == b"%PDF-"


@pytest.mark.proves("14.19(k)-daily")
def test_14_19_k_the_days_close_names_each_display_accounting_did_not_adjust_that_day(casino, people):
    """14.19(k): accounting adjusts each display at least once each gaming day; the day's close names a payout whose
    display it did not adjust that day (and says the day is not in order), and not one it adjusted."""
    adjusted = JackpotFactory(casino=casino, name="Adjusted", minimum_pot=D("0"))
    forgotten = create_secondary_jackpot(primary=adjusted, name="Forgotten", qualifying_hand=QualifyingHand.FULL_HOUSE,
                                         funding=Funding.CONTRIBUTIONS, contribution_amount=D("0.50"),
                                         maximum_contribution=D("0.50"), minimum_pot=D("0"))
    table = PokerTableFactory(casino=casino)
    round_of_play = pot(table)
    adjusted.refresh_from_db()
    adjust_display(jackpot=adjusted, displayed_amount=payable_amount(jackpot=adjusted), adjusted_by=people["clerk"],
                   supervisor_present=people["supervisor"])
    with time_machine.travel(timezone.now() + timedelta(days=1)):
        close = close_gaming_day(casino=casino, gaming_day=round_of_play.gaming_day)
    assert close.summary["displays_not_adjusted"] == [forgotten.name]
    assert close.summary["in_order"] is False


@pytest.mark.proves("14.19(k)-daily")
def test_14_19_k_an_adjustment_counts_for_the_gaming_day_it_is_made_in(casino, people):
    """14.19(k): accounting adjusts and verifies each display at least once each gaming day. An adjustment is recorded
    in the gaming day it is made in, with the amount it set: that day's close does not name the display, the next
    day's close does until accounting adjusts it again that day. An adjustment for a reason that is not one of the
    listed ones is refused and records nothing."""
    from apps.badbeat.models import DisplayAdjustment

    jackpot = JackpotFactory(casino=casino, minimum_pot=D("0"))
    first = pot(PokerTableFactory(casino=casino))
    jackpot.refresh_from_db()
    with pytest.raises(DomainError) as wrong:
        adjust_display(jackpot=jackpot, displayed_amount=payable_amount(jackpot=jackpot), adjusted_by=people["clerk"],
                       supervisor_present=people["supervisor"], reason="weekly")
    assert wrong.value.field == "reason" and not DisplayAdjustment.objects.exists()
    adjustment = adjust_display(jackpot=jackpot, displayed_amount=D("1.00"), adjusted_by=people["clerk"],
                                supervisor_present=people["supervisor"])
    jackpot.refresh_from_db()
    assert (adjustment.gaming_day, adjustment.displayed_amount, jackpot.displayed_amount) == (
        first.gaming_day, D("1.00"), D("1.00"))
    with time_machine.travel(timezone.now() + timedelta(days=1)):
        assert close_gaming_day(casino=casino, gaming_day=first.gaming_day).summary["displays_not_adjusted"] == []
        second = pot(PokerTableFactory(casino=casino))
    assert second.gaming_day == first.gaming_day + timedelta(days=1)
    with time_machine.travel(timezone.now() + timedelta(days=2)):
        close = close_gaming_day(casino=casino, gaming_day=second.gaming_day)
    assert close.summary["displays_not_adjusted"] == [jackpot.name] and close.summary["in_order"] is False
