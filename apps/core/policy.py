"""One role policy, declared by every URL (issue 13, item 7): which permission of the apps' rules (django-rules, and
so which roles) may read each page, htmx partial, export and API operation (GET, HEAD) and which may write it (POST,
PUT, PATCH, DELETE). The roles and what each may do live in the apps' `rules.py` only; a view names a permission.

How a view declares its policy, so that it can be read from the URL configuration:

- a function page: `@role_policy(read="app.perm", write="app.perm")`, which enforces it too: before the view runs,
  `page_access` with the permission of the request's method (a redirect to the sign-in page for an anonymous user,
  403 for a user of no casino or without the permission); a page that takes no write (or no read) leaves it out
  and answers that method 405. `write` is the permission of a POST (the only write a form sends);
- a class page (`PermissionPageMixin`) or an API view (`RulesPermission`): `required_perm`, or
  `perms_by_method[METHOD]` for a method that needs another permission (both enforce it);
- a URL open to anyone: `@public("why")`; open to any signed-in user whatever the role (their own API token, the
  API's documentation): `@signed_in("why")` — on a function or a class, or around an `as_view()` in a URL
  configuration. The view's own permission classes (or none) enforce these.

`policy_of(callback)` reads the declaration back from a URL pattern's callback, or None when there is none;
tests/core/test_role_policy.py walks every URL pattern with it and checks each role against each. `allows(policy,
user, method)` is the policy's answer for one user and method, as the view enforces it; `may_request(user, path,
method)` resolves a path of the site to its view and answers the same: the header offers a page only when the user
may GET it (apps.core.navigation), and a page renders a form only when the user may POST to its action (the
`may_post` template tag, apps.core.templatetags.access).
"""
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import wraps
from typing import Any, TypeVar
from urllib.parse import urlsplit

from django.http import HttpRequest, HttpResponseBase, HttpResponseNotAllowed
from django.urls import Resolver404, resolve

from .permissions import RulesPermission, method_perm
from .views import PermissionPageMixin, may_access, page_access

READ_METHODS = ("GET", "HEAD")
WRITE_METHODS = ("POST", "PUT", "PATCH", "DELETE")

#: A function page: request (and the URL's arguments) in, response out.
PageView = Callable[..., HttpResponseBase]
#: A view that an open policy marks: a function, a class, or an as_view() of a class.
MarkedT = TypeVar("MarkedT")


@dataclass(frozen=True)
class Policy:
    """Who may use one URL. `perms`: for each HTTP method the URL answers, the permission a user needs. Or, with no
    permission, `anyone` (why anyone may) or `signed_in` (why any signed-in user may), for `methods`."""

    perms: Mapping[str, str] = field(default_factory=dict)
    anyone: str = ""
    signed_in: str = ""
    open_methods: tuple[str, ...] = ()

    @property
    def methods(self) -> tuple[str, ...]:
        """The methods the URL answers (HEAD and OPTIONS aside), in a fixed order: reads first."""
        answered = set(self.perms) | set(self.open_methods)
        return tuple(m for m in (*READ_METHODS, *WRITE_METHODS) if m in answered and m != "HEAD")


def role_policy(*, read: str | None = None, write: str | None = None) -> Callable[[PageView], PageView]:
    """Declare and enforce a function page's policy: `read` for GET and HEAD, `write` for POST (see the module)."""
    declared = {**dict.fromkeys(READ_METHODS, read), "POST": write}
    perms = {method: perm for method, perm in declared.items() if perm}

    def decorate(view: PageView) -> PageView:
        @wraps(view)
        def enforced(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponseBase:
            perm = perms.get(request.method or "")
            if perm is None:
                return HttpResponseNotAllowed(sorted(perms))
            if denied := page_access(request, perm):
                return denied
            return view(request, *args, **kwargs)

        _declare(enforced, Policy(perms=perms))
        return enforced

    return decorate


def _declare(view: object, policy: Policy) -> None:
    """Keep `policy` on `view` (a function or a class) as its `access_policy`, which policy_of reads back."""
    view.access_policy = policy  # type: ignore[attr-defined]  # an attribute of a function or class's own


def _open(methods: tuple[str, ...] | None = None, *, anyone: str = "",
          signed_in: str = "") -> Callable[[MarkedT], MarkedT]:
    def mark(view: MarkedT) -> MarkedT:
        if isinstance(view, type):  # a class: read with its methods by policy_of
            _declare(view, Policy(anyone=anyone, signed_in=signed_in))
        else:  # a function, or an as_view() of a class
            view_class = getattr(view, "cls", None) or getattr(view, "view_class", None)
            answered = methods or (_class_methods(view) if view_class else ("GET",))
            _declare(view, Policy(anyone=anyone, signed_in=signed_in, open_methods=tuple(answered)))
        return view

    return mark


def public(reason: str, *, methods: tuple[str, ...] | None = None) -> Callable[[MarkedT], MarkedT]:
    """Mark a view open to anyone, saying why (the sign-in page, the token endpoint, a signed inbox...). `methods`:
    the methods a function view answers when not only GET (a room kiosk's form posts to its link)."""
    return _open(methods, anyone=reason)


def signed_in(reason: str) -> Callable[[MarkedT], MarkedT]:
    """Mark a view open to any signed-in user whatever the role, saying why."""
    return _open(signed_in=reason)


def _class_methods(callback: Any) -> tuple[str, ...]:
    """The methods a class view's URL answers: a viewset's actions on this route, else the class's handlers."""
    if actions := getattr(callback, "actions", None):
        return tuple(method.upper() for method in actions)
    view_class = getattr(callback, "cls", None) or callback.view_class
    return tuple(m.upper() for m in view_class.http_method_names if m != "options" and hasattr(view_class, m))


def policy_of(callback: Callable[..., Any]) -> Policy | None:
    """The role policy a URL pattern's callback declares (see the module), or None when it declares none."""
    declared: Policy | None = getattr(callback, "access_policy", None)
    if declared is not None:
        return declared
    view_class = getattr(callback, "cls", None) or getattr(callback, "view_class", None)
    if view_class is None:
        return None
    methods = _class_methods(callback)
    if (declared := view_class.__dict__.get("access_policy")) is not None:  # its own, never a parent's
        return Policy(anyone=declared.anyone, signed_in=declared.signed_in, open_methods=methods)
    view = view_class(**(getattr(callback, "initkwargs", None) or getattr(callback, "view_initkwargs", {})))
    enforced = isinstance(view, PermissionPageMixin) or any(
        isinstance(permission, type) and issubclass(permission, RulesPermission)
        for permission in getattr(view, "permission_classes", ()))
    if not enforced or not methods:
        return None
    perms = {method: method_perm(view, method) for method in methods}
    return Policy(perms=perms) if all(perms.values()) else None


def allows(policy: Policy | None, user: Any, method: str) -> bool:
    """Whether `policy` lets `user` (a User, or AnonymousUser) send `method` ("GET", "POST"...; HEAD as GET) to its
    URL, as the view enforces it: a method the URL answers, and then open to anyone, or to any signed-in user, or to
    a user of a casino holding the method's permission (`may_access`, which `page_access` checks). False for no
    policy (None), which no URL of the site has (tests/core/test_role_policy.py)."""
    method = "GET" if method.upper() == "HEAD" else method.upper()
    if policy is None or method not in policy.methods:
        return False
    if policy.anyone:
        return True
    if not getattr(user, "is_authenticated", False):
        return False
    if policy.signed_in:
        return True
    return may_access(user, policy.perms[method])


def may_request(user: Any, path: str, method: str) -> bool:
    """Whether `user` may send `method` to `path` (a path of this site, e.g. "/decks/12/events/"; a query string or
    fragment is ignored): the path resolved to its view, and that view's declared policy asked (`allows`). False for
    a path that resolves to no view."""
    try:
        match = resolve(urlsplit(path).path or "/")
    except Resolver404:
        return False
    return allows(policy_of(match.func), user, method)
