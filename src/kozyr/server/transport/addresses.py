"""The key a client's address is counted by, for every per-address limit and check.

An IPv4 address is one key. An IPv6 host is usually handed a whole /64 (a home, a phone,
a rented server alike) and may take any of its 2^64 addresses at will, so an IPv6 address
is keyed by its /64 network: two of one /64 are one client, as two seats, two throttle
hits or two sockets. An IPv4-mapped IPv6 address (``::ffff:1.2.3.4``, what a dual-stack
socket reports for an IPv4 peer) is its IPv4 address. Anything that is not an address
(a test client's ``testclient``, a missing peer) is kept as it is.
"""

from __future__ import annotations

import ipaddress


def address_key(ip: str) -> str:
    """What ``ip`` is counted as.

    >>> address_key("203.0.113.7"), address_key("::ffff:203.0.113.7")
    ('203.0.113.7', '203.0.113.7')
    >>> address_key("2001:db8:1:2:aaaa::1"), address_key("2001:DB8:1:2:ffff:ffff:ffff:ffff")
    ('2001:db8:1:2::/64', '2001:db8:1:2::/64')
    >>> address_key("2001:db8:1:3::1"), address_key("fe80::1%eth0"), address_key("unknown")
    ('2001:db8:1:3::/64', 'fe80::/64', 'unknown')
    """
    try:
        parsed = ipaddress.ip_address(ip.split("%", 1)[0])  # a zone index names no host
    except ValueError:
        return ip
    if isinstance(parsed, ipaddress.IPv4Address):
        return str(parsed)
    if parsed.ipv4_mapped is not None:
        return str(parsed.ipv4_mapped)
    return str(ipaddress.IPv6Network((parsed, 64), strict=False))
