"""Where a webhook may go (issue 20): https only in production; no loopback, private,
link-local, multicast or otherwise non-public address unless RULES_WEBHOOK_ALLOW_PRIVATE
(development). Checked when an endpoint is saved, and again before every delivery on the very
addresses the delivery then connects to, so a name that later resolves inward (DNS rebinding)
is caught too."""

from __future__ import annotations

import asyncio
import ipaddress
import socket
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


def public(address: str) -> bool:
    ip = ipaddress.ip_address(address.split("%")[0])
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        ip = ip.ipv4_mapped
    return ip.is_global and not ip.is_multicast


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
    if not allow_private and not all(public(address) for address in found):
        raise BadUrl(
            f"{host} is a loopback, private or otherwise non-public address "
            "(RULES_WEBHOOK_ALLOW_PRIVATE=1 allows them, for development)"
        )
    return found


async def check(url: str, production: bool, allow_private: bool) -> str:
    """The URL, normalised, if it may receive webhooks now; BadUrl otherwise."""
    parts = parse(url, production)
    await addresses(parts, allow_private)
    return parts.geturl()
