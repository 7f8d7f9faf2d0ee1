"""One way to write an amount, a date and a date and time on every page, and the printable reports' paper
(issue 34, item 6): settings.FORMAT_MODULE_PATH's formats are the ones that take effect, the templates write no amount
or human date by hand, the CSV amounts have two decimals, and PDF_PAGE_SIZE is a page size CSS knows."""
import re
from datetime import UTC, date, datetime
from decimal import Decimal
from pathlib import Path

import pytest
from django.conf import settings
from django.core.exceptions import ImproperlyConfigured
from django.template import Context, Template

from apps.core.spreadsheets import amount_cell

TEMPLATES = Path(settings.BASE_DIR) / "templates"


def render(text: str, **context) -> str:
    return Template("{% load pokerroom %}" + text).render(Context(context))


def test_a_date_reads_nov_24_2026_and_a_moment_nov_24_2026_09_55():
    """Localization is always on (Django 5): the room's formats (pokerroom/formats/en) are the ones a page writes,
    not Django's "Nov. 24, 2026" / "Nov. 24, 2026, 9:55 a.m.", for a bare value as for the date filter."""
    day, moment = date(2026, 11, 24), datetime(2026, 11, 24, 14, 55, tzinfo=UTC)  # 09:55 in New Jersey
    assert render("{{ day }}|{{ day|date }}|{{ day|date:'SHORT_DATE_FORMAT' }}", day=day) == (
        "Nov 24, 2026|Nov 24, 2026|Nov 24, 2026")
    assert render("{{ m }}|{{ m|date:'DATETIME_FORMAT' }}|{{ m|time }}", m=moment) == (
        "Nov 24, 2026 09:55|Nov 24, 2026 09:55|09:55")
    assert render("{{ day|date:'MONTH_DAY_FORMAT' }}", day=day) == "Nov 24"


def test_the_reports_paper_is_us_letter_unless_set_and_only_a_size_css_knows(settings):
    assert render("{% pdf_page_size 'landscape' %}|{% pdf_page_size %}") == "letter landscape|letter"
    settings.PDF_PAGE_SIZE = "A4"
    assert render("{% pdf_page_size 'landscape' %}") == "a4 landscape"
    settings.PDF_PAGE_SIZE = "letter; } body { display: none"
    with pytest.raises(ImproperlyConfigured):
        render("{% pdf_page_size %}")


def test_every_print_template_takes_its_page_size_from_the_setting():
    for path in TEMPLATES.rglob("*.html"):
        for size in re.findall(r"@page\s*{\s*size:\s*([^;]*);", path.read_text()):
            assert size.startswith("{% pdf_page_size"), f"{path}: @page size {size}"


def test_a_csv_amount_is_a_plain_number_with_two_decimals():
    assert [amount_cell(v) for v in (Decimal("45"), Decimal("2675.5"), -15, "0", None)] == [
        "45.00", "2675.50", "-15.00", "0.00", ""]


#: Templates that write an amount with "$" and a number of their own: the jackpot display splits dollars and cents to
#: set the cents smaller; the qualifier designer's expected contribution of a round is a fraction of a cent.
HAND_MADE_ALLOWED = {"${{ panel.amount.dollars }}", "${{ comparison.growth.contribution_per_round|floatformat:4 }}"}


def test_no_template_writes_an_amount_or_a_date_by_hand():
    """Every amount goes through the money filter ("$2,675.00", "−$15.00"); every date and time a person reads
    through the room's formats (no "Y-m-d H:i", "j M Y", "N j, Y" of a template's own; ISO in links and attributes)."""
    problems = []
    for path in sorted(TEMPLATES.rglob("*.html")):
        text = path.read_text()
        problems += [f"{path.name}: {m}" for m in re.findall(r"\$\{\{[^}]*\}\}", text) if m not in HAND_MADE_ALLOWED]
        problems += [f"{path.name}: {m}" for m in re.findall(r"\$-|\|floatformat:2\|intcomma", text)]
        for m in re.finditer(r"\|date:([\"'])([^\"']*)\1", text):
            fmt = m.group(2)
            if fmt.endswith("_FORMAT") or fmt in {"D", "l", "H:i", "H:i:s", "H"}:
                continue
            if fmt == "Y-m-d" and m.group(1) == "'":  # a link's or a field's ISO date, e.g. {% url ... day|date:'Y-m-d' %}
                continue
            problems.append(f"{path.name}: |date:{m.group(1)}{fmt}{m.group(1)}")
    assert not problems, problems
