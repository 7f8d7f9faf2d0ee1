"""Forms show each error beside its field, with a summary at the top that links to the fields by their labels; an input
with errors is marked aria-invalid and described by its errors (apps.core.forms.FormRenderer, templates/forms/,
templates/includes/form_errors.html). Checked on the rendered HTML, parsed."""
import re
from pathlib import Path

import pytest
from django import forms
from django.conf import settings
from django.core.exceptions import ValidationError
from django.test.html import Element, parse_html

from apps.core.roles import Role
from tests.factories import JackpotFactory, PokerTableFactory

TEMPLATES = Path(settings.BASE_DIR) / "templates"


class SampleForm(forms.Form):
    serial = forms.CharField(label="Serial number", help_text="As printed on the seal.")
    amount = forms.DecimalField(label="Amount ($)")
    witnessed = forms.BooleanField(label="Witnessed by surveillance")
    kind = forms.ChoiceField(label="Kind of count", choices=[("box", "Box"), ("forms", "Forms")],
                             widget=forms.RadioSelect)
    checked = forms.CharField(widget=forms.HiddenInput)

    def clean(self):
        raise ValidationError("The count does not balance.")


# --- a small reader of parsed HTML (django.test.html) -----------------------------------------------------------------

def walk(node):
    """Every element under `node`, in document order."""
    for child in node.children:
        if isinstance(child, Element):
            yield child
            yield from walk(child)


def attrs(element) -> dict:
    return dict(element.attributes)


def text(node) -> str:
    return " ".join(" ".join(str(c) if not isinstance(c, Element) else text(c) for c in node.children).split())


def find(root, *, id=None, testid=None, tag=None, **wanted):
    """The first element with the given id / data-testid / tag and attributes."""
    for element in walk(root):
        a = attrs(element)
        if ((id is None or a.get("id") == id) and (testid is None or a.get("data-testid") == testid)
                and (tag is None or element.name == tag) and all(a.get(k) == v for k, v in wanted.items())):
            return element
    raise AssertionError(f"no element {id=} {testid=} {tag=} {wanted}")


def order(root) -> list:
    return list(walk(root))


def summary_links(summary) -> list[tuple[str, str]]:
    return [(attrs(a)["href"], text(a)) for a in walk(summary) if a.name == "a"]


def assert_beside(root, input_id: str, message: str, *, before: str | None = None):
    """The input `input_id` is marked invalid and described by its error list, which says `message` and comes after
    the input (and before the element `before`, the next field's input)."""
    elements = order(root)
    field = find(root, id=input_id)
    errors = find(root, id=f"{input_id}_error")
    assert attrs(field).get("aria-invalid") == "true", input_id
    assert f"{input_id}_error" in attrs(field).get("aria-describedby", "").split(), input_id
    assert "errorlist" in attrs(errors)["class"].split() and message in text(errors), (input_id, text(errors))
    assert elements.index(field) < elements.index(errors), input_id
    if before:
        assert elements.index(errors) < elements.index(find(root, id=before)), (input_id, before)
    labels = [e for e in elements if e.name == "label" and attrs(e).get("for") == input_id]
    assert labels and elements.index(labels[0]) < elements.index(errors), input_id


# --- {{ form }}, everywhere ------------------------------------------------------------------------------------------

def test_a_form_prints_a_summary_linked_to_its_fields_by_label_and_each_error_beside_its_field():
    form = SampleForm(data={"amount": "lots"})
    root = parse_html(str(form))

    summary = find(root, testid="form-errors")
    assert order(root)[0] is summary  # at the top, before any field
    assert attrs(summary)["role"] == "alert" and attrs(summary)["tabindex"] == "-1" and "autofocus" in attrs(summary)
    assert "The count does not balance." in text(summary)  # the error of no field, in the summary only
    assert summary_links(summary) == [("#id_serial", "Serial number"), ("#id_amount", "Amount ($)"),
                                      ("#id_witnessed", "Witnessed by surveillance"), ("#id_kind_0", "Kind of count")]
    assert "(Hidden field checked) This field is required." not in text(summary)
    assert "This field is required." in text(summary)  # the hidden field's error, unlinked
    assert not re.search(r"\b(serial|amount|witnessed)\b:", text(root))  # no raw field names

    assert_beside(root, "id_serial", "This field is required.", before="id_amount")
    assert attrs(find(root, id="id_serial"))["aria-describedby"].split() == ["id_serial_helptext", "id_serial_error"]
    assert text(find(root, id="id_serial_helptext")) == "As printed on the seal."
    assert_beside(root, "id_amount", "Enter a number.", before="id_witnessed")
    assert_beside(root, "id_witnessed", "This field is required.", before="id_kind_0")
    # a group of choices is a fieldset named by its legend and described by its errors
    fieldset = next(e for e in walk(root) if e.name == "fieldset")
    assert text(find(fieldset, tag="legend")).startswith("Kind of count")
    assert attrs(fieldset)["aria-describedby"] == "id_kind_error"
    assert "Select a valid choice" not in text(root) and "This field is required." in text(find(root, id="id_kind_error"))
    assert text(root).count("The count does not balance.") == 1
    # each field with errors is marked as a whole, for the eye
    assert len([e for e in walk(root) if "has-error" in attrs(e).get("class", "").split()]) == 4


def test_a_checkbox_comes_before_its_label_and_a_form_without_errors_shows_no_summary():
    root = parse_html(str(SampleForm()))
    with pytest.raises(AssertionError):
        find(root, testid="form-errors")
    assert not [e for e in walk(root) if "aria-invalid" in attrs(e)]
    elements = order(root)
    checkbox, label = find(root, id="id_witnessed"), find(root, tag="label", **{"for": "id_witnessed"})
    assert elements.index(checkbox) < elements.index(label)
    assert attrs(find(root, id="id_serial"))["aria-describedby"] == "id_serial_helptext"


def test_no_page_prints_a_form_in_a_way_that_puts_errors_above_the_wrong_label_or_by_raw_field_name():
    """as_p / as_table / as_ul print a field's errors before its label, where they read as the previous field's; a
    loop over form.errors.items prints raw field names. Every page prints {{ form }} or its fields as_field_group."""
    offenders = []
    for path in TEMPLATES.rglob("*.html"):
        source = path.read_text()
        if re.search(r"\.as_(p|table|ul)\b", source) or "errors.items" in source:
            offenders.append(str(path.relative_to(TEMPLATES)))
    assert offenders == []


# --- the pages ---------------------------------------------------------------------------------------------------------

@pytest.mark.django_db
def test_an_irregularity_with_an_unknown_deck_is_marked_at_the_deck(client, staff):
    table = PokerTableFactory(casino=staff(Role.DEALER).casino, number=2)
    client.force_login(staff(Role.FLOORPERSON))
    response = client.post("/irregularities/", {"table": table.pk, "kind": "misdeal", "description": "x",
                                                "deck": "NOPE"})
    assert response.status_code == 400
    root = parse_html(response.content.decode())
    form = find(root, testid="irregularity-form")
    summary = find(form, testid="form-errors")
    assert summary_links(summary) == [("#id_deck", "Deck")] and "No such deck." in text(summary)
    assert_beside(form, "id_deck", "No such deck.", before="id_description")
    assert attrs(find(form, id="id_deck"))["value"] == "NOPE"  # kept as typed
    assert "deck: No such deck." not in text(root)
    # every control of the form has a label
    for control in (e for e in walk(form) if e.name in ("input", "select", "textarea")):
        if attrs(control).get("type") != "hidden":
            assert find(form, tag="label", **{"for": attrs(control)["id"]})


@pytest.mark.django_db
def test_an_empty_irregularity_is_marked_at_each_field_it_misses(client, staff):
    table = PokerTableFactory(casino=staff(Role.DEALER).casino, number=2)
    client.force_login(staff(Role.FLOORPERSON))
    response = client.post("/irregularities/", {"table": table.pk, "kind": "nonsense", "description": ""})
    assert response.status_code == 400
    form = find(parse_html(response.content.decode()), testid="irregularity-form")
    assert summary_links(find(form, testid="form-errors")) == [("#id_kind", "Kind"), ("#id_description", "Description")]
    assert_beside(form, "id_kind", "Select a valid choice.", before="id_deck")
    assert_beside(form, "id_description", "This field is required.")
    assert attrs(find(form, id="id_table")).get("aria-invalid") is None


@pytest.mark.django_db
def test_a_count_is_marked_at_each_field_it_misses_by_its_label(client, staff):
    PokerTableFactory(casino=staff(Role.DEALER).casino, number=2)
    client.force_login(staff(Role.POKER_SHIFT_SUPERVISOR))
    response = client.post("/counts/", {"method": "table_inventory", "amount": "-5"})
    assert response.status_code == 400
    form = find(parse_html(response.content.decode()), testid="count-form")
    links = dict(summary_links(find(form, testid="form-errors")))
    assert links["#id_counted_by"] == "Counted by (dealer or cashier)"
    assert links["#id_counter_password"] == "Counter's signature (their password)"
    assert links["#id_amount"] == "Amount"
    assert_beside(form, "id_counted_by", "This field is required.", before="id_witness")
    assert_beside(form, "id_counter_password", "This field is required.", before="id_witness_password")
    assert_beside(form, "id_amount", "greater than or equal to 0")
    assert attrs(find(form, id="id_amount"))["aria-describedby"].split() == ["id_amount_helptext", "id_amount_error"]


@pytest.mark.django_db
def test_opening_a_claim_for_an_unknown_round_is_marked_at_the_round(client, supervisor):
    jackpot = JackpotFactory(casino=supervisor.casino)
    client.force_login(supervisor)
    response = client.post("/jackpot/claims/", {"round_of_play": "999999", "jackpot": jackpot.pk})
    assert response.status_code == 400
    form = find(parse_html(response.content.decode()), testid="open-claim")
    assert summary_links(find(form, testid="form-errors")) == [("#id_round_of_play", "Round of play number")]
    assert_beside(form, "id_round_of_play", "No round of play with that number at this casino.", before="id_jackpot")


@pytest.mark.django_db
def test_a_failed_sign_in_is_summed_up_at_the_top_of_the_form(client, supervisor):
    response = client.post("/accounts/login/", {"username": supervisor.username, "password": "wrong"})
    assert response.status_code == 200
    root = parse_html(response.content.decode())
    summary = find(root, testid="login-errors")
    assert "Please enter a correct username and password" in text(summary) and summary_links(summary) == []
    assert attrs(find(root, id="id_username"))["value"] == supervisor.username
    # the user name takes the focus (one element of the page only: not the summary as well)
    assert [attrs(e).get("id") for e in walk(root) if "autofocus" in attrs(e)] == ["id_username"]
    assert find(root, tag="label", **{"for": "id_username"}) and find(root, tag="label", **{"for": "id_password"})
