"""The address a request comes from, the same way for the sign-in lockout (django-axes) and the API's throttles
(DRF's NUM_PROXIES): behind TRUSTED_PROXY_COUNT proxies, the address the nearest trusted proxy saw (from the right
of X-Forwarded-For, which a client cannot forge past the proxy); with none, REMOTE_ADDR."""
import ipaddress

from django.conf import settings
from django.http import HttpRequest


def client_address(request: HttpRequest) -> str | None:
    proxies = settings.TRUSTED_PROXY_COUNT
    forwarded = request.META.get("HTTP_X_FORWARDED_FOR")
    if proxies and forwarded:
        addresses = [a.strip() for a in forwarded.split(",") if a.strip()]
        if addresses:
            candidate = addresses[-min(proxies, len(addresses))]
            try:
                return str(ipaddress.ip_address(candidate))
            except ValueError:  # a proxy that passes garbage on: fall back to the connection's address
                pass
    remote: str | None = request.META.get("REMOTE_ADDR")
    return remote
