"""A page renders a form only for a role that may submit it (issue 34, item 4): each role opens every page its role
policy lets it read, on a seeded room (open tables with their decks, a claim, a count, a rule change, a display
link, the multi-casino system...: tests/core/test_role_policy.py's room), and no page may hold a form that posts
(<form method="post">, or an element with hx-post) to a URL whose policy refuses that role the POST — the same check
the view makes (apps.core.policy.may_request: the URL resolved to its view, its declared policy, `page_access`'s
`may_access`). The sign-out form posts to a URL open to anyone. Surveillance, which only reads, is shown no form
that writes at all."""
from html.parser import HTMLParser
from urllib.parse import urljoin, urlsplit

import pytest
from django.urls import reverse

from apps.core.policy import allows, may_request, policy_of
from apps.core.roles import Role
from tests.core.test_role_policy import room, routes  # noqa: F401  # room: the seeded room, a fixture

pytestmark = pytest.mark.django_db
#: The session's forms, open to anyone: signing out (on every page), signing in (as another user).
SESSION_FORMS = {"/accounts/logout/", "/accounts/login/"}


class PostingForms(HTMLParser):
    """The actions of the forms of a page that post, as written ("" for a form with no action), and of the elements
    that post with htmx (hx-post)."""

    def __init__(self):
        super().__init__()
        self.actions: list[str] = []

    def handle_starttag(self, tag, attrs):
        attributes = dict(attrs)
        if tag == "form" and (attributes.get("method") or "get").lower() == "post":
            self.actions.append(attributes.get("action") or "")
        if "hx-post" in attributes:
            self.actions.append(attributes["hx-post"] or "")


def posting_forms(html: str, url: str) -> list[str]:
    """The paths the page at `url` posts to: each action resolved against the page's URL (a form with no action
    posts to the page)."""
    parser = PostingForms()
    parser.feed(html)
    return [urlsplit(urljoin(url, action)).path for action in parser.actions]


def readable_pages(user, room) -> list[str]:  # noqa: F811  # room: the fixture's value
    """The URLs of every HTML page `user` may read by its policy, the API's and the exports aside."""
    pages = []
    for route in routes():
        policy = policy_of(route.callback)
        if route.route.startswith("/api/") or "format" in route.params or not allows(policy, user, "GET"):
            continue
        kwargs = room.objects[route.name][0] if route.params else {}
        pages.append(reverse(route.name, kwargs=kwargs))
    return pages


@pytest.mark.parametrize("role", list(Role), ids=str)
def test_no_page_shows_a_role_a_form_it_may_not_submit(client, room, role, monkeypatch):  # noqa: F811
    """The PDF exports among the pages hold no form: they render their page but skip weasyprint's layout, as in
    test_role_policy (the compliance matrix's 230 pages took a third of this test)."""
    import weasyprint

    monkeypatch.setattr(weasyprint.HTML, "write_pdf", lambda self, *args, **kwargs: b"%PDF-1.7 not laid out")
    user = room.staff[role]
    client.force_login(user)
    failures, forms, read = [], 0, 0
    for url in readable_pages(user, room):
        response = client.get(url)
        if response.status_code != 200 or not response["Content-Type"].startswith("text/html"):
            assert response.status_code in (200, 301, 302), (url, response.status_code)  # home, favicon send on
            continue
        read += 1
        for action in posting_forms(response.content.decode(), url):
            forms += 1
            if not may_request(user, action, "POST"):
                failures.append(f"{url}: a form posting to {action}")
            elif role is Role.SURVEILLANCE and action not in SESSION_FORMS:
                failures.append(f"{url}: a form that writes, posting to {action}, shown to surveillance")
    assert not failures, "\n".join(failures)
    assert read >= 10 and forms >= 10  # the sign-out form of each page of the header, at least


def test_the_walk_sees_the_forms_of_a_role_that_may_post(client, room):  # noqa: F811
    """The walk reads the forms it checks: the supervisor is shown the deck events of the board and the room's
    other forms (a walk that saw none would prove nothing)."""
    supervisor = room.staff[Role.POKER_SHIFT_SUPERVISOR]
    client.force_login(supervisor)
    board = posting_forms(client.get("/decks/").content.decode(), "/decks/")
    deck = room.objects["decks:record-event"][0]["pk"]
    assert f"/decks/{deck}/events/" in board and "/decks/receive/" in board
    assert all(may_request(supervisor, action, "POST") for action in board)
