"""Which addresses may receive webhooks (service/webhooks/urls.py): every IPv6 form
that carries an IPv4 address is judged by the address it carries, and special, deprecated and
non-global ranges of both families are refused. Literal addresses resolve to themselves, so this
is the check made when an endpoint is saved and before every attempt, with no DNS."""

from __future__ import annotations

import pytest

from service.webhooks import urls

# (address, why it is refused: a part of the reason given; None: accepted)
ADDRESSES: list[tuple[str, str | None]] = [
    # forms once accepted
    ("64:ff9b::a9fe:a9fe", "NAT64 of 169.254.169.254: link-local"),
    ("64:ff9b::7f00:1", "NAT64 of 127.0.0.1: loopback"),
    ("64:ff9b::a00:1", "NAT64 of 10.0.0.1: private"),
    ("64:ff9b:1::a00:1", "local-use NAT64 of 10.0.0.1: private"),
    ("::7f00:1", "not IPv6 global unicast"),  # IPv4-compatible, deprecated
    ("::ffff:0:7f00:1", "IPv4-translated (SIIT) of 127.0.0.1: loopback"),
    ("2002:7f00:1::1", "6to4 of 127.0.0.1: loopback"),
    ("2002:a9fe:a9fe::1", "6to4 of 169.254.169.254: link-local"),
    ("fec0::1", "not IPv6 global unicast"),  # site-local, deprecated
    # more IPv4 carried inward
    ("64:ff9b::6440:1", "NAT64 of 100.64.0.1: shared address space"),
    ("64:ff9b:1:ffff::a9fe:a9fe", "local-use NAT64 of 169.254.169.254"),
    ("::ffff:127.0.0.1", "IPv4-mapped of 127.0.0.1: loopback"),
    ("::ffff:a9fe:a9fe", "IPv4-mapped of 169.254.169.254"),
    ("::ffff:0:c0a8:1", "IPv4-translated (SIIT) of 192.168.0.1: private"),
    ("2002:c0a8:1::1", "6to4 of 192.168.0.1: private"),
    ("2002:e000:1::1", "6to4 of 224.0.0.1: multicast"),
    ("2001:0:4136:e378:8000:63bf:3fff:fdd2", "Teredo of 192.0.2.45: documentation"),  # RFC 4380
    ("2001:0:7f00:1::fefe:fefe", "Teredo of 127.0.0.1: loopback"),  # the server
    ("2001:0:101:101::5601:5601", "Teredo of 169.254.169.254"),  # the client, inverted
    ("::a9fe:a9fe", "not IPv6 global unicast"),  # IPv4-compatible
    ("::101:101", "not IPv6 global unicast"),  # IPv4-compatible, even of a public address
    # IPv6 outside global unicast
    ("::", "not IPv6 global unicast"),
    ("::1", "not IPv6 global unicast"),
    ("100::1", "not IPv6 global unicast"),  # discard-only
    ("5f00::1", "not IPv6 global unicast"),  # SRv6
    ("fc00::1", "not IPv6 global unicast"),  # unique local
    ("fd12:3456::1", "not IPv6 global unicast"),
    ("fe80::1", "not IPv6 global unicast"),  # link-local
    ("ff02::1", "not IPv6 global unicast"),  # multicast
    ("ff0e::1", "not IPv6 global unicast"),  # global-scope multicast
    # special ranges inside global unicast
    ("2001:db8::1", "documentation"),
    ("3fff::1", "documentation"),  # RFC 9637
    ("2001:2::1", "IETF protocol assignments"),  # benchmarking
    ("2001:10::1", "IETF protocol assignments"),  # ORCHID
    ("2001:20::1", "IETF protocol assignments"),  # ORCHIDv2
    ("2001:1::1", "IETF protocol assignments"),  # anycast
    ("3ffe::1", "6bone"),
    # IPv4
    ("127.0.0.1", "loopback"),
    ("169.254.169.254", "link-local"),
    ("10.0.0.1", "private"),
    ("172.16.0.1", "private"),
    ("192.168.0.1", "private"),
    ("100.64.0.1", "shared address space"),
    ("0.1.2.3", "this network"),
    ("0.0.0.0", "this network"),
    ("192.0.0.9", "IETF protocol assignments"),
    ("192.0.2.1", "documentation"),
    ("198.51.100.1", "documentation"),
    ("203.0.113.1", "documentation"),
    ("198.18.0.1", "benchmarking"),
    ("192.88.99.1", "6to4 relay anycast"),
    ("224.0.0.1", "multicast"),
    ("240.0.0.1", "reserved"),
    ("255.255.255.255", "broadcast"),
    # accepted: public addresses, and IPv4 carried to public ones
    ("1.1.1.1", None),
    ("8.8.8.8", None),
    ("93.184.215.14", None),
    ("2606:4700:4700::1111", None),
    ("2001:4860:4860::8888", None),
    ("2620:fe::fe", None),
    ("::ffff:1.1.1.1", None),
    ("::ffff:0:101:101", None),
    ("64:ff9b::101:101", None),
    ("64:ff9b:1::101:101", None),
    ("2002:101:101::1", None),
    ("2001:0:101:101::f7f7:f7f7", None),  # Teredo: server 1.1.1.1, client 8.8.8.8
]


def url(address: str) -> str:
    return f"https://[{address}]/hook" if ":" in address else f"https://{address}/hook"


@pytest.mark.parametrize(("address", "why"), ADDRESSES, ids=[a for a, _ in ADDRESSES])
async def test_a_receiver_is_global_unicast_after_unwrapping(address: str, why: str | None) -> None:
    if why is None:
        assert await urls.check(url(address), production=True, allow_private=False)
        return
    with pytest.raises(urls.BadUrl) as refused:
        await urls.check(url(address), production=True, allow_private=False)
    assert why in str(refused.value), str(refused.value)


@pytest.mark.parametrize("address", [a for a, why in ADDRESSES if why is not None])
async def test_allowing_private_addresses_allows_each_of_them(address: str) -> None:
    assert await urls.check(url(address), production=True, allow_private=True)
