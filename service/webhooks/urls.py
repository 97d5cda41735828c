"""Where a webhook may go: https only in production; no loopback, private,
link-local, multicast or otherwise non-public address unless RULES_WEBHOOK_ALLOW_PRIVATE
(development). Checked when an endpoint is saved, and again before every delivery on the very
addresses the delivery then connects to, so a name that later resolves inward (DNS rebinding)
is caught too.

What counts as public is the tables below, not Python's `is_global`: Python 3.11
calls NAT64, 6to4, SIIT, IPv4-compatible, site-local, 6bone, multicast, the newer
documentation prefix and the deprecated 6to4 relay anycast global, and its idea of global
changes between releases. An IPv6 address that carries an IPv4 address reaches that one
(through a translator or a tunnel), so it is judged by the IPv4 address it carries."""

from __future__ import annotations

import asyncio
import socket
from collections.abc import Callable
from ipaddress import IPv4Address, IPv4Network, IPv6Address, IPv6Network, ip_address
from urllib.parse import SplitResult, urlsplit

MAX_URL = 2048
RESOLVE_SECONDS = 5.0


class BadUrl(ValueError):
    """Why a URL may not receive webhooks (a sentence for the tenant)."""


def parse(url: str, production: bool) -> SplitResult:
    """The parts of an acceptable endpoint URL; BadUrl otherwise."""
    if len(url) > MAX_URL:
        raise BadUrl(f"a webhook URL has at most {MAX_URL} characters")
    if any(ord(c) <= 32 or ord(c) == 127 for c in url):
        raise BadUrl("a webhook URL has no spaces or control characters")
    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError:
        raise BadUrl("that is not a URL") from None
    schemes = ("https",) if production else ("https", "http")
    if parts.scheme not in schemes:
        raise BadUrl(f"a webhook URL starts with {' or '.join(s + '://' for s in schemes)}")
    if not parts.hostname:
        raise BadUrl("a webhook URL names a host")
    if parts.username is not None or parts.password is not None:
        raise BadUrl("a webhook URL carries no credentials (the signature authenticates us)")
    if parts.fragment:
        raise BadUrl("a webhook URL has no #fragment")
    if port == 0:
        raise BadUrl("port 0 receives nothing")
    try:
        parts.hostname.encode("idna")
    except UnicodeError:
        raise BadUrl("that host name is not valid") from None
    return parts


Carried = Callable[[IPv6Address], tuple[IPv4Address, ...]]  # the IPv4 addresses an IPv6 one holds


def _last32(ip: IPv6Address) -> tuple[IPv4Address, ...]:
    return (IPv4Address(int(ip) & 0xFFFFFFFF),)


def _teredo(ip: IPv6Address) -> tuple[IPv4Address, ...]:
    return ip.teredo or ()  # the server and the (de-obfuscated) client


def _sixtofour(ip: IPv6Address) -> tuple[IPv4Address, ...]:
    return (ip.sixtofour,) if ip.sixtofour else ()


# IPv6 forms that carry IPv4 addresses: such an address is allowed when every IPv4 address it
# carries is, whatever the prefix (the prefix is a translator's or a tunnel's).
CARRIERS: tuple[tuple[IPv6Network, str, Carried], ...] = (
    (IPv6Network("::ffff:0:0/96"), "IPv4-mapped", _last32),  # RFC 4291
    (IPv6Network("::ffff:0:0:0/96"), "IPv4-translated (SIIT)", _last32),  # RFC 2765
    (IPv6Network("64:ff9b::/96"), "NAT64", _last32),  # the well-known prefix, RFC 6052
    (IPv6Network("64:ff9b:1::/48"), "local-use NAT64", _last32),  # RFC 8215: last 32 bits too
    (IPv6Network("2002::/16"), "6to4", _sixtofour),  # RFC 3056: bits 16-48
    (IPv6Network("2001::/32"), "Teredo", _teredo),  # RFC 4380: bits 32-64, last 32 inverted
)

# Every other IPv6 receiver is in global unicast, the only space IANA allocates from. Outside
# it: ::/96 (unspecified, loopback and the deprecated IPv4-compatible ::a.b.c.d, refused
# whatever it carries), discard 100::/64, SRv6 5f00::/16, unique-local fc00::/7, link-local
# fe80::/10, site-local fec0::/10 (deprecated), multicast ff00::/8.
GLOBAL_UNICAST = IPv6Network("2000::/3")

# Inside global unicast or IPv4, what is not a place on the Internet to deliver to.
REFUSED: dict[IPv4Network | IPv6Network, str] = {
    IPv6Network(
        "2001::/23"
    ): "IETF protocol assignments: benchmarking, ORCHID, AMT, AS112, anycast",
    IPv6Network("2001:db8::/32"): "documentation",
    IPv6Network("3ffe::/16"): "6bone, returned",
    IPv6Network("3fff::/20"): "documentation",
    IPv4Network("0.0.0.0/8"): "this network",
    IPv4Network("10.0.0.0/8"): "private",
    IPv4Network("100.64.0.0/10"): "shared address space, carrier-grade NAT",
    IPv4Network("127.0.0.0/8"): "loopback",
    IPv4Network("169.254.0.0/16"): "link-local, cloud metadata",
    IPv4Network("172.16.0.0/12"): "private",
    IPv4Network("192.0.0.0/24"): "IETF protocol assignments",
    IPv4Network("192.0.2.0/24"): "documentation",
    IPv4Network("192.88.99.0/24"): "6to4 relay anycast, deprecated",
    IPv4Network("192.168.0.0/16"): "private",
    IPv4Network("198.18.0.0/15"): "benchmarking",
    IPv4Network("198.51.100.0/24"): "documentation",
    IPv4Network("203.0.113.0/24"): "documentation",
    IPv4Network("224.0.0.0/4"): "multicast",
    IPv4Network("240.0.0.0/4"): "reserved, and broadcast",
}


def refusal(address: str) -> str | None:
    """Why `address` may not receive webhooks ("NAT64 of 169.254.169.254: link-local, cloud
    metadata (169.254.0.0/16)"); None if it may."""
    ip = ip_address(address.split("%")[0])
    if isinstance(ip, IPv6Address):
        for carrier, form, carried in CARRIERS:
            if ip in carrier:
                for inner in carried(ip):
                    if why := refusal(str(inner)):
                        return f"{form} of {inner}: {why}"
                return None
        if ip not in GLOBAL_UNICAST:
            return "not IPv6 global unicast (2000::/3)"
    for network, name in REFUSED.items():
        if ip in network:
            return f"{name} ({network})"
    return None


async def addresses(parts: SplitResult, allow_private: bool) -> list[str]:
    """The addresses the URL's host resolves to, every one of them allowed; BadUrl otherwise."""
    host = parts.hostname or ""
    port = parts.port or (443 if parts.scheme == "https" else 80)
    loop = asyncio.get_running_loop()
    try:
        infos = await asyncio.wait_for(
            loop.getaddrinfo(host, port, type=socket.SOCK_STREAM), RESOLVE_SECONDS
        )
    except (OSError, UnicodeError, TimeoutError):
        raise BadUrl(f"{host} does not resolve") from None
    found = list(dict.fromkeys(str(info[4][0]) for info in infos))
    if not found:
        raise BadUrl(f"{host} does not resolve")
    refused = [] if allow_private else [(a, why) for a in found if (why := refusal(a))]
    if refused:
        address, why = refused[0]
        raise BadUrl(
            f"{host} is a loopback, private or otherwise non-public address ({address}: {why}; "
            "RULES_WEBHOOK_ALLOW_PRIVATE=1 allows them, for development)"
        )
    return found


async def check(url: str, production: bool, allow_private: bool) -> str:
    """The URL, normalised, if it may receive webhooks now; BadUrl otherwise."""
    parts = parse(url, production)
    await addresses(parts, allow_private)
    return parts.geturl()
