"""The client's address, as the proxies this deployment trusts report it.

Every per-address limit (the waitlist, allauth's login, signup and password-reset limits) reads
the address here, so they all agree on who the client is.
"""

import ipaddress

from django.conf import settings
from django.http import HttpRequest


def client_ip(request: HttpRequest) -> str:
    """Return the client's address, or "" when the request carries none.

    With ``TRUSTED_PROXY_COUNT`` proxies in front, each appends the address it saw to
    X-Forwarded-For, so the client is that many entries from the right: the outermost trusted
    proxy wrote it. Entries further left came from the client and can be forged, so they are
    never read. Without trusted proxies, or when the header is shorter than the proxy chain (a
    request that reached us some other way), the connecting address is the client.
    """
    hops = settings.TRUSTED_PROXY_COUNT
    forwarded = request.META.get("HTTP_X_FORWARDED_FOR", "")
    if hops > 0 and forwarded:
        entries = [entry.strip() for entry in forwarded.split(",")]
        if len(entries) >= hops and (address := normalized(entries[-hops])):
            return address
    return normalized(request.META.get("REMOTE_ADDR", ""))


def normalized(value: str) -> str:
    """Return an address in its canonical form, without a port; "" when it is not an address."""
    value = value.strip()
    if value.startswith("["):
        # "[2001:db8::1]:443" as some proxies write an IPv6 address with its port.
        value = value[1:].partition("]")[0]
    elif value.count(":") == 1:
        # "203.0.113.5:443": an IPv4 address with its port.
        value = value.partition(":")[0]
    try:
        return str(ipaddress.ip_address(value))
    except ValueError:
        return ""
