"""The site's icon: every page that is its own HTML document names it, and /favicon.ico, which a browser asks for
when a page does not (or for a bookmark), answers with it instead of a 404 on every screen."""
from pathlib import Path

import pytest
from django.contrib.staticfiles import finders

TEMPLATES = Path(__file__).resolve().parents[2] / "templates"
#: Rendered to PDF by weasyprint, never shown in a browser; and drf-spectacular's Swagger page, given the icon by
#: drf-spectacular (SPECTACULAR_SETTINGS' SWAGGER_UI_FAVICON_HREF, the sidecar's icon).
PRINTED = {"counts/mgr_print.html", "counts/forms_print.html", "compliance/matrix_print.html",
           "multicasino/report_print.html", "api/swagger_ui.html"}


@pytest.mark.django_db
def test_favicon_ico_redirects_to_the_icon_for_anyone(client):
    response = client.get("/favicon.ico")
    assert response.status_code == 301
    assert response["Location"].startswith("/static/img/favicon") and response["Location"].endswith(".svg")
    assert finders.find("img/favicon.svg") is not None


def test_every_page_of_its_own_names_the_icon():
    pages = [p for p in TEMPLATES.rglob("*.html") if "<html" in p.read_text()
             and p.relative_to(TEMPLATES).as_posix() not in PRINTED]
    assert len(pages) >= 5  # base.html, the kiosk, the displays, the boards, the sign
    missing = [p.relative_to(TEMPLATES).as_posix() for p in pages if "img/favicon.svg" not in p.read_text()]
    assert missing == []
