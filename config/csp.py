"""The Content-Security-Policy header, with the site's own websocket origin."""

from csp.middleware import CSPMiddleware, PolicyParts
from django.core.exceptions import DisallowedHost
from django.http import HttpRequest, HttpResponseBase


class SiteCSPMiddleware(CSPMiddleware):
    """django-csp's middleware, also naming this host's ws:/wss: origin in connect-src.

    CSP Level 3 lets 'self' cover websockets to the same host, but browsers that predate it
    (older Safari among them) would refuse the table's socket.
    """

    def get_policy_parts(
        self, request: HttpRequest, response: HttpResponseBase, report_only: bool = False
    ) -> PolicyParts:
        parts = super().get_policy_parts(request, response, report_only)
        origin = websocket_origin(request)
        if origin:
            update = dict(parts.update or {})
            update["connect-src"] = [*(update.get("connect-src") or []), origin]
            parts.update = update
        return parts


def websocket_origin(request: HttpRequest) -> str | None:
    """Return ws://host or wss://host for this request, or None for a host we do not serve."""
    try:
        host = request.get_host()
    except DisallowedHost:
        return None
    return f"{'wss' if request.is_secure() else 'ws'}://{host}"
