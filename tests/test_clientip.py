"""The client's address: read past the trusted proxies, never from what the client wrote."""

import pytest
from allauth.account.adapter import get_adapter
from allauth.core.internal.ratelimit import get_ip
from django.http import HttpRequest
from django.test import RequestFactory

from config.clientip import client_ip

PROXY = "10.0.0.1"


def request(forwarded: str | None = None, remote: str = PROXY) -> HttpRequest:
    made = RequestFactory().get("/", REMOTE_ADDR=remote)
    if forwarded is not None:
        made.META["HTTP_X_FORWARDED_FOR"] = forwarded
    return made


def test_without_a_trusted_proxy_the_connecting_address_is_the_client(settings):
    settings.TRUSTED_PROXY_COUNT = 0

    assert client_ip(request("203.0.113.5", remote="198.51.100.7")) == "198.51.100.7"


def test_behind_one_proxy_the_client_is_the_entry_the_proxy_appended(settings):
    settings.TRUSTED_PROXY_COUNT = 1

    assert client_ip(request("203.0.113.5")) == "203.0.113.5"


def test_a_forged_leftmost_entry_is_never_read(settings):
    settings.TRUSTED_PROXY_COUNT = 1

    assert client_ip(request("192.0.2.66, 203.0.113.5")) == "203.0.113.5"
    assert client_ip(request("192.0.2.1, 192.0.2.2 ,203.0.113.5")) == "203.0.113.5"


def test_behind_two_proxies_the_client_is_second_from_the_right(settings):
    settings.TRUSTED_PROXY_COUNT = 2

    assert client_ip(request("192.0.2.66, 203.0.113.5, 10.0.0.2")) == "203.0.113.5"


def test_a_header_shorter_than_the_proxy_chain_falls_back_to_the_connecting_address(settings):
    settings.TRUSTED_PROXY_COUNT = 2

    assert client_ip(request("203.0.113.5")) == PROXY
    assert client_ip(request()) == PROXY


@pytest.mark.parametrize(
    ("entry", "expected"),
    [
        ("203.0.113.5:51234", "203.0.113.5"),
        ("2001:DB8::1", "2001:db8::1"),
        ("[2001:db8::1]:443", "2001:db8::1"),
        ("not-an-address", PROXY),
        ("", PROXY),
    ],
)
def test_the_address_is_canonical_and_garbage_is_not_an_address(settings, entry, expected):
    settings.TRUSTED_PROXY_COUNT = 1

    assert client_ip(request(entry)) == expected


def test_allauth_limits_read_the_same_address(settings):
    settings.TRUSTED_PROXY_COUNT = 1
    forged = request("192.0.2.66, 203.0.113.5")

    assert get_adapter().get_client_ip(forged) == "203.0.113.5"
    assert get_ip(forged) == "203.0.113.5"
