"""Signatures on the floor: the signer types their own password on the form that records what they sign (a count and
its witness, N.J.A.C. 13:69F-14.19(d)1-signed and 14.19(f)3-contents; the display adjustment's accounting representative
and poker supervisor present, 14.19(k)1).

A signature is checked as a sign-in is, through Django's `authenticate`, so that django-axes counts a wrong one
toward the lockout of the signer's user name and of the address it came from (settings.AXES_*), and refuses every
signature, right or wrong, while either is locked out. Without it, whoever holds a form could try a colleague's
password as often as they like. The page itself is not replaced by the lockout page (apps.core.lockout): the form
says beside the field why the signature is refused.
"""
from __future__ import annotations

from typing import Any

from django.contrib.auth import authenticate
from django.http import HttpRequest
from django.utils import timezone

from .lockout import SIGNATURE_LOCKED, lockout_ends_at


def signature_error(request: HttpRequest, *, signer: Any, password: str, what: str) -> str | None:
    """None when `password` is `signer`'s password and neither the signer's user name nor the request's address is
    locked out; else the message for the password's field. `what` names what is signed ("the count"). A wrong
    password counts as a failed sign-in of the signer (django-axes)."""
    user = authenticate(request, username=signer.get_username(), password=password)
    if getattr(request, "axes_locked_out", False):
        setattr(request, SIGNATURE_LOCKED, True)
        ends = timezone.localtime(lockout_ends_at(request))
        return (f"Signatures of {signer.get_username()} (or from this terminal) are locked after too many wrong "
                f"passwords, until {ends:%H:%M} ({ends:%Z}); an administrator can unlock them sooner. {what.capitalize()} "
                "is not signed.")
    if user is None or user.pk != signer.pk:
        whose = "your" if signer.pk == getattr(request.user, "pk", None) else f"{signer.get_username()}'s"
        return f"This is not {whose} password: {what} is not signed."
    return None
