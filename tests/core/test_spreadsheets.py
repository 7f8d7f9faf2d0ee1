"""CSV cells a spreadsheet would run as a formula are neutralised (OWASP, "CSV Injection"; issue 32, item 5): every
CSV export writes through apps.core.spreadsheets.SafeWriter."""
import csv
import io
from datetime import date
from decimal import Decimal

import pytest

from apps.core.spreadsheets import FORMULA_START, SafeWriter, neutralised
from apps.core.views import csv_response


class _Echo:
    def write(self, value):
        return value


@pytest.mark.parametrize("text", ["=1+1", '=HYPERLINK("http://evil.example","x")', "+1+cmd|' /C calc'!A0",
                                  "-2+3", "@SUM(A1:A9)", "\t=1", "\r=1", "-", "+", "=", "@", "-5.00.1", "-1e5"])
def test_a_text_beginning_like_a_formula_gets_a_quote(text):
    assert neutralised(text) == "'" + text


@pytest.mark.parametrize("value", ["-5.00", "+3", "-12", "5.00", "Ana", "", " =1", "a=1", "'=1", Decimal("-2.00"),
                                   -7, 0, None, date(2026, 11, 20), 1.5])
def test_numbers_and_other_text_are_written_as_they_are(value):
    assert neutralised(value) == value


def test_every_character_of_owasps_rule():
    assert FORMULA_START == {"=", "+", "-", "@", "\t", "\r"}


def test_the_writer_neutralises_each_cell_and_csv_still_quotes():
    out = io.StringIO()
    writer = SafeWriter(out)
    writer.writerow(["=cmd", Decimal("-2.00"), "a,b", "-2.00"])
    writer.writerows([["@x", 1], ["ok", "\r=evil"]])
    rows = list(csv.reader(io.StringIO(out.getvalue())))
    assert rows == [["'=cmd", "-2.00", "a,b", "-2.00"], ["'@x", "1"], ["ok", "'\r=evil"]]


@pytest.mark.parametrize("rows", [
    [("2026-11-20", 3, "holdem", "no_limit", 17, "2026-11-20T21:30:00-05:00", "120.00", "10.00", None, "5.00",
      "10.00% of $120.00, each rounded down to $1.00: $5.00.")] * 3,
    [("2026-11-20", 3, "=evil()", "-1+1", 17), ("ok", "@x", "\tx", "-5.00", "a,-b")],
    [("a\n=b", "x"), ('"', "-")]])
def test_lines_of_a_streamed_export_are_those_of_the_writer(rows):
    """The rake CSV's chunks: one scan when no cell can begin like a formula, each cell neutralised otherwise; the
    text is the same as writing each row through the writer."""
    writer = SafeWriter(_Echo())
    assert writer.lines(rows) == "".join(writer.writerow(row) for row in rows)
    plain = csv.writer(_Echo())
    assert (writer.lines(rows) == "".join(map(plain.writerow, rows))) == all(
        neutralised(value) == value for row in rows for value in row)


def test_the_page_exports_write_through_it():
    response, writer = csv_response("x.csv")
    assert isinstance(writer, SafeWriter)
    writer.writerow(["=1", "-1"])
    assert response.content.decode() == "'=1,-1\r\n"
