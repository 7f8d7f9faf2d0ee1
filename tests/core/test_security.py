"""Production security (issue 13, item 6): `check --deploy` is clean with the production environment; HTTPS behind
the proxy (redirect, HSTS); a Content-Security-Policy under which no page needs an inline script or style."""
import os
import re
import secrets
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
# Rendered only into PDFs by weasyprint (apps.core.views.pdf_response), never served as a page: their <style> is
# the print layout, and no browser applies the CSP to them.
PDF_ONLY = {"counts/mgr_print.html", "counts/forms_print.html", "multicasino/report_print.html",
            "compliance/matrix_print.html"}


def production_env() -> dict:
    """The environment of a production deployment: DEBUG off, a long random key, its host; every security
    setting left to its production default. DJANGO_ALLOW_ASYNC_UNSAFE, which the browser tests set in the suite's own
    process (Playwright runs an event loop), is no part of a deployment."""
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("DJANGO_SECURE", "DJANGO_THROTTLE", "DJANGO_TRUSTED_PROXY", "DJANGO_ALLOW_ASYNC_UNSAFE"))}
    return env | {"DJANGO_DEBUG": "false", "DJANGO_SECRET_KEY": secrets.token_urlsafe(50),
                  "DJANGO_ALLOWED_HOSTS": "pokerroom.example.com"}


def manage(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "manage.py", *args], cwd=ROOT, env=production_env(), capture_output=True,
                          text=True, timeout=300)


def test_check_deploy_prints_no_warning_in_production():
    done = manage("check", "--deploy", "--fail-level", "WARNING")
    assert done.returncode == 0, done.stdout + done.stderr
    assert "System check identified no issues (0 silenced)." in done.stdout
    assert "WARNING" not in done.stderr.upper(), done.stderr


def test_production_defaults():
    done = manage("shell", "-c", "from django.conf import settings as s; print(s.SECURE_SSL_REDIRECT, "
                                 "s.SECURE_HSTS_SECONDS, s.SECURE_HSTS_INCLUDE_SUBDOMAINS, s.SECURE_PROXY_SSL_HEADER, "
                                 "s.SESSION_COOKIE_SECURE, s.CSRF_COOKIE_SECURE)")
    assert done.returncode == 0, done.stderr
    assert done.stdout.split("\n")[-2] == "True 31536000 True ('HTTP_X_FORWARDED_PROTO', 'https') True True"


@pytest.mark.django_db
def test_https_behind_the_proxy(client, settings):
    settings.SECURE_SSL_REDIRECT = True
    settings.SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    settings.SECURE_HSTS_SECONDS, settings.SECURE_HSTS_INCLUDE_SUBDOMAINS = 31_536_000, True
    settings.SECURE_HSTS_PRELOAD = True
    plain = client.get("/accounts/login/")
    assert plain.status_code == 301 and plain.url == "https://testserver/accounts/login/"
    proxied = client.get("/accounts/login/", HTTP_X_FORWARDED_PROTO="https")
    assert proxied.status_code == 200
    assert proxied["Strict-Transport-Security"] == "max-age=31536000; includeSubDomains; preload"


@pytest.mark.django_db
@pytest.mark.parametrize("url", ["/", "/accounts/login/", "/jackpot/display/", "/api/docs/"])
def test_every_page_carries_the_content_security_policy(client, supervisor, url):
    client.force_login(supervisor)
    response = client.get(url)
    assert response.status_code == 200
    policy = dict(part.strip().split(" ", 1) for part in response["Content-Security-Policy"].split(";"))
    assert policy["default-src"] == "'self'" and policy["script-src"] == "'self'"
    assert policy["style-src"] == "'self'" and policy["connect-src"] == "'self'"
    assert policy["img-src"] == "'self' data:" and policy["frame-ancestors"] == "'none'"
    assert policy["form-action"] == "'self'" and policy["object-src"] == "'none'"
    assert "unsafe" not in response["Content-Security-Policy"]
    assert response["X-Frame-Options"] == "DENY" and response["X-Content-Type-Options"] == "nosniff"


@pytest.mark.django_db
def test_swagger_ui_starts_from_a_script_file(client, supervisor):
    client.force_login(supervisor)
    page = client.get("/api/docs/").content.decode()
    assert not re.search(r"<script(?![^>]*\bsrc=)[^>]*>", page) and "<style" not in page
    script_url = re.search(r'<script src="(/api/docs/\?[^"]*script=[^"]*)"', page).group(1).replace("&amp;", "&")
    script = client.get(script_url)
    assert script.status_code == 200 and script["Content-Type"].startswith("application/javascript")
    assert b"SwaggerUIBundle(" in script.content and b"/api/schema/" in script.content


def templates():
    for folder in [ROOT / "templates", *sorted((ROOT / "apps").glob("*/templates"))]:
        for path in sorted(folder.rglob("*.html")):
            yield path.relative_to(folder).as_posix(), path.read_text()


INLINE = {
    "inline script": re.compile(r"<script(?![^>]*\bsrc=)[^>]*>", re.I),
    "event-handler attribute": re.compile(r"<[^>]*\son[a-z]+\s*=", re.I),
    "javascript: URL": re.compile(r"javascript:", re.I),
    "hx-on attribute (eval)": re.compile(r"\shx-on", re.I),
    "style attribute": re.compile(r"<[^>]*\sstyle\s*=", re.I),
    "style element": re.compile(r"<style[\s>]", re.I),
}


def test_no_template_needs_an_inline_script_or_style():
    found = [(name, what) for name, text in templates() for what, pattern in INLINE.items()
             if pattern.search(text) and not (name in PDF_ONLY and what.startswith("style"))]
    assert found == []
    names = [name for name, _ in templates()]
    assert "floor/table_sign.html" in names and "base.html" in names and PDF_ONLY <= set(names)


def test_htmx_keeps_its_indicator_style_out_of_the_page():
    """htmx would inject an inline <style> for .htmx-indicator: every page loading it turns that off, and the
    stylesheet has the rule instead."""
    for name, text in templates():
        if "htmx.min.js" in text:
            assert '"includeIndicatorStyles": false' in text, name
    assert ".htmx-indicator" in (ROOT / "static" / "css" / "app.css").read_text()
