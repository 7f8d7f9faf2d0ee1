"""Screenshots of the main pages at a phone's, a tablet's and a desktop's width, for a closing note or a review.

Against a running demo (`make demo` serves http://127.0.0.1:8000/ with the demo logins, `<role>` / `demo-<role>`):

    .venv/bin/python bench/screenshots.py                       # into /tmp/shots/
    .venv/bin/python bench/screenshots.py --base-url http://127.0.0.1:8765 --out /tmp/shots --every-page

Takes, at 390×844, 768×1024 and 1440×900 (whole pages, not only the first screen): the supervisor's dashboard, a
table's page (the table of the dashboard's first link to one), the claim page (the first claim listed), and
accounting's rake revenue and contributions ledger. With --every-page, also every page each role's header offers.
Each file is named <page>-<width>.png; the script prints each page's width at each viewport (no page should be
wider than the viewport). Drives Debian's Chromium through Playwright, as the browser tests do.
"""
import argparse
import os
import shutil
import time
from pathlib import Path

from playwright.sync_api import sync_playwright

VIEWPORTS = ((390, 844), (768, 1024), (1440, 900))
CHROMIUM = os.environ.get("CHROMIUM", shutil.which("chromium") or "/usr/bin/chromium")


def goto(page, url: str):
    """page.goto, retried for a few seconds while the server restarts (runserver reloads when a file changes)."""
    for attempt in range(10):
        try:
            return page.goto(url)
        except Exception as error:  # net::ERR_CONNECTION_REFUSED / RESET while the server restarts
            if "ERR_CONNECTION" not in str(error) or attempt == 9:
                raise
            time.sleep(1)


def sign_in(browser, base: str, role: str):
    context = browser.new_context(viewport={"width": 1440, "height": 900})
    page = context.new_page()
    page.set_default_timeout(20000)
    goto(page, f"{base}/accounts/login/")
    page.fill("#id_username", role)
    page.fill("#id_password", f"demo-{role}")
    page.click("button[type=submit]")
    page.wait_for_url(lambda url: "/accounts/login/" not in url)
    return page


def first_link(page, base: str, listing: str, prefix: str) -> str:
    """The path of the first link on page `listing` whose path starts with `prefix` followed by a number."""
    goto(page, f"{base}{listing}")
    hrefs = page.eval_on_selector_all(f'main a[href^="{prefix}"]', "links => links.map(a => a.getAttribute('href'))")
    numbered = [href for href in hrefs if href[len(prefix):].rstrip("/").isdigit()]
    if not numbered:
        raise SystemExit(f"No link to {prefix}… on {listing}: is the demo seeded (make demo)?")
    return numbered[0]


def shoot(page, base: str, path: str, name: str, out: Path) -> None:
    widths = []
    for width, height in VIEWPORTS:
        # loaded at each width, as a phone or a screen would open it (a chart sized at another width redraws itself
        # only after Chart.js's resize observer has run)
        page.set_viewport_size({"width": width, "height": height})
        goto(page, f"{base}{path}")
        page.wait_for_load_state("networkidle")
        page.screenshot(path=str(out / f"{name}-{width}.png"), full_page=True)
        scroll_width = page.evaluate("document.documentElement.scrollWidth")
        widths.append(f"{width}:{scroll_width}{'' if scroll_width <= width else ' TOO WIDE'}")
    print(f"{name:<32} {path:<40} {'  '.join(widths)}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--base-url", default="http://127.0.0.1:8000")
    parser.add_argument("--out", default="/tmp/shots")
    parser.add_argument("--every-page", action="store_true", help="also every page each role's header offers")
    args = parser.parse_args()
    base, out = args.base_url.rstrip("/"), Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=["--headless", "--no-sandbox",
                                                                             "--disable-gpu"])
        supervisor = sign_in(browser, base, "poker_shift_supervisor")
        table = first_link(supervisor, base, "/", "/tables/")
        claim = first_link(supervisor, base, "/jackpot/claims/", "/jackpot/claims/")
        for path, name in (("/", "supervisor-dashboard"), (table, "table"), (claim, "claim")):
            shoot(supervisor, base, path, name, out)
        accounting = sign_in(browser, base, "accounting")
        for path, name in (("/rake/", "revenue"), ("/accounting/contributions/", "contributions-ledger")):
            shoot(accounting, base, path, name, out)
        if args.every_page:
            for role in ("poker_shift_supervisor", "floorperson", "dealer", "accounting", "security", "surveillance",
                         "admin"):
                page = sign_in(browser, base, role)
                hrefs = page.eval_on_selector_all("header nav a", "links => links.map(a => a.getAttribute('href'))")
                for href in hrefs:
                    slug = href.strip("/").replace("/", "-") or "home"
                    shoot(page, base, href, f"{role}-{slug}", out)
                page.context.close()
        browser.close()
    print(f"Screenshots in {out}/")


if __name__ == "__main__":
    main()
