"""Reading a page's history tab (templates/includes/history_tab.html) in tests."""
import html
import re

CHANGE = re.compile(r"<li><strong>(.*?)</strong>: (.*?)</li>")
ROW = re.compile(r"<tr><td>([^<]*)</td><td>([^<]*)</td><td>([^<]*)</td><td>([^<]*)</td>\s*<td>(.*?)</td></tr>", re.S)


def history_rows(response) -> list[tuple[str, str, str, str]]:
    """(who, record, what, changes) of each row of the page's history tab, in the page's order; changes as text,
    "Label: before → after; Label: value" (the page's entities unescaped). The response must be a 200."""
    assert response.status_code == 200, response.status_code
    page = response.content.decode()
    section = page[page.index('data-testid="history"'):]
    rows = []
    for _, who, record, what, changes in ROW.findall(section):
        text = "; ".join(f"{label}: {value}" for label, value in CHANGE.findall(changes))
        rows.append((html.unescape(who), html.unescape(record), what, html.unescape(text)))
    return rows
