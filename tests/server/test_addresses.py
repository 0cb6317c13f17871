"""Per-address limits count an IPv6 client by its /64 (issue 43, item 6): a host may take
any of its network's 2^64 addresses, so two of them are one client to every throttle."""

from __future__ import annotations

from starlette.requests import Request

from kozyr.server.accounts.throttle import Throttles
from kozyr.server.routes.common import client_address, peer_address
from kozyr.server.transport.addresses import address_key


def request_from(host: str | None) -> Request:
    scope = {"type": "http", "method": "GET", "path": "/", "headers": [], "query_string": b""}
    if host is not None:
        scope["client"] = (host, 40000)
    return Request(scope)


def test_the_key_of_an_address() -> None:
    assert address_key("198.51.100.20") == "198.51.100.20"
    assert address_key("::ffff:198.51.100.20") == "198.51.100.20"
    # the /64 written in full by hand: 2001:0db8:0000:0042 and 64 zero bits
    assert address_key("2001:db8:0:42:1234:5678:9abc:def0") == "2001:db8:0:42::/64"
    assert address_key("2001:db8::42:0:0:0:1") == "2001:db8:0:42::/64"
    assert address_key("2001:db8:0:43::1") == "2001:db8:0:43::/64"
    assert address_key("not an address") == "not an address"


def test_the_routes_count_a_64_as_one_client() -> None:
    one = client_address(request_from("2001:db8:0:42::1"))
    assert one == client_address(request_from("2001:db8:0:42:ffff::9")) == "2001:db8:0:42::/64"
    assert client_address(request_from("::ffff:198.51.100.20")) == "198.51.100.20"
    assert (
        client_address(request_from(None)) == "unknown" and peer_address(request_from(None)) is None
    )


def test_new_accounts_from_one_64_share_one_allowance() -> None:
    now = [0.0]
    throttles = Throttles(10, 60, 2, 3600, clock=lambda: now[0])
    for host in ("2001:db8:0:42::1", "2001:db8:0:42::2"):
        assert throttles.new_account(client_address(request_from(host))) is None
    # a third address of the same /64 waits the hour out; another /64 does not
    assert throttles.new_account(client_address(request_from("2001:db8:0:42::3"))) == 3600
    assert throttles.new_account(client_address(request_from("2001:db8:0:43::1"))) is None
