"""A page renders a form only for a user who may submit it (issue 34): `{% may_post %}` asks the role policy of the
URL the form posts to, with the function its view enforces (apps.core.policy.may_request: the URL resolved to its
view, `policy_of`, then `page_access`'s own check, `may_access`).

    {% load access %}
    {% may_post "decks:receive" as may_receive %}{% if may_receive %}<form method="post" action="{% url 'decks:receive' %}">…{% endif %}
    {% may_post "badbeat:rule-change-withdraw" change.pk as may_withdraw %}  {# a URL name and its arguments #}
    {% may_post action as may_record %}  {# a path ("/decks/12/events/") #}
    {% may_post as may_write %}  {# no action: the form posts to the page's own URL #}

tests/core/test_forms_by_role.py walks every role's pages and fails on a form whose action the role may not POST.
"""
from typing import Any

from django import template
from django.urls import NoReverseMatch, reverse

from apps.core.policy import may_request

register = template.Library()


def context_user(context: template.Context) -> Any:
    """The user a page is rendered for: its request's (an inclusion tag's own context keeps the request), else the
    context's `user`; None when neither is there."""
    request = getattr(context, "request", None) or context.get("request")
    return getattr(request, "user", None) or context.get("user")


@register.simple_tag(takes_context=True)
def may_post(context: template.Context, target: str = "", *args: Any) -> bool:
    """Whether the page's user may POST to `target`: a URL name (with its namespace) reversed with `args`, or a path
    of the site (starting with "/"), or, when empty, the page's own URL (where a form with no action posts). False
    for a name that does not reverse with these arguments, for a page rendered without its request (no own URL), and
    for a visitor who is not signed in on a page that needs a role."""
    request = getattr(context, "request", None) or context.get("request")
    if not target:
        if request is None:
            return False
        path = request.path
    elif target.startswith("/"):
        path = target
    else:
        try:
            path = reverse(target, args=args)
        except NoReverseMatch:
            return False
    user = context_user(context)
    return user is not None and may_request(user, path, "POST")
