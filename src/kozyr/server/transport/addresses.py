"""Client addresses as the limits count them.

An IPv6 user is usually handed a whole /64 network (2^64 addresses), so counting IPv6
addresses one by one would let one person pass for billions: every per-address limit
groups them by their /64 instead. Anything that is not an IP address (``unknown``, a
test's name) is its own key.

>>> address_key("203.0.113.7")
'203.0.113.7'
>>> address_key("2001:db8:1:2:aaaa::1") == address_key("2001:DB8:1:2:ffff:1:2:3")
True
>>> address_key("2001:db8:1:2::1")
'2001:db8:1:2::/64'
>>> address_key("2001:db8:1:3::1")
'2001:db8:1:3::/64'
>>> address_key("::ffff:203.0.113.7")
'203.0.113.7'
>>> address_key("unknown")
'unknown'
"""

from __future__ import annotations

import ipaddress

__all__ = ["IPV6_PREFIX", "address_key"]

IPV6_PREFIX = 64
"""The IPv6 network one client is taken to hold (RFC 6177's usual end-site /64)."""


def address_key(address: str) -> str:
    """The key a per-address limit counts ``address`` by: an IPv4 address itself, an IPv6
    address by its /64 network (one mapped from IPv4 by that IPv4 address)."""
    try:
        ip = ipaddress.ip_address(address.strip())
    except ValueError:
        return address
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        return str(ipaddress.IPv6Network((ip, IPV6_PREFIX), strict=False))
    return str(ip)
