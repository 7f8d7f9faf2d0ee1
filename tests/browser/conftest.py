"""A page of Debian's Chromium for each browser test (the browser itself: tests/conftest.py's `browser`)."""
import pytest


@pytest.fixture
def page(browser):
    context = browser.new_context()
    page = context.new_page()
    page.set_default_timeout(15000)
    yield page
    context.close()
