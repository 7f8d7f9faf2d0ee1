"""DRF permission that defers to the named rules of each app (django-rules)."""
from typing import Any

from rest_framework.permissions import BasePermission
from rest_framework.request import Request
from rest_framework.views import APIView


def method_perm(view: Any, method: str | None) -> str:
    """The permission a class view (API or page) declares for an HTTP method: `view.perms_by_method[method]`, else
    `view.required_perm` (apps.core.policy reads the role policy of every URL from it)."""
    by_method: dict[str | None, str] = getattr(view, "perms_by_method", None) or {}
    perm: str = by_method.get(method) or view.required_perm
    return perm


class RulesPermission(BasePermission):
    """Checks `view.required_perm` (or `view.perms_by_method[request.method]`) with django-rules.

    At view level the rule sees obj=None (a role-level check); at object level it sees the object.
    """

    def _perm(self, request: Request, view: APIView) -> str:
        return method_perm(view, request.method)

    def has_permission(self, request: Request, view: APIView) -> bool:
        return bool(request.user and request.user.is_authenticated and request.user.has_perm(self._perm(request, view)))

    def has_object_permission(self, request: Request, view: APIView, obj: Any) -> bool:
        return request.user.has_perm(self._perm(request, view), obj)
