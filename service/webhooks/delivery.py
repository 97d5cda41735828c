"""One delivery attempt: the Standard Webhooks headers and signature, and an HTTP
POST with a hard time bound to an address checked just before it (service/webhooks/urls.py).

The signature is HMAC-SHA256 with the endpoint's secret (the bytes after `whsec_`, base64) over
`<webhook-id>.<webhook-timestamp>.<body>`, sent as `v1,<base64>`; during a secret's rotation
the previous secret signs too, space-separated, as the specification allows.

The request goes to the very address that was checked (the host name stays in the Host header
and, for https, in the TLS server name, which the certificate is verified against), so a name
that resolves to an allowed address at the check and a private one a moment later cannot
redirect a delivery inward. Redirects are not followed; the answer's body is never read.
"""

from __future__ import annotations

import asyncio
import base64
import hashlib
import hmac
import ssl
import time
from urllib.parse import SplitResult

import certifi
import httpx
import msgspec

from service.webhooks import urls
from service.webhooks.model import Endpoint

USER_AGENT = "tree-rules-webhooks/1"


class Answer(msgspec.Struct, frozen=True):
    """How an attempt went: the HTTP status (None when none came) and what went wrong."""

    status: int | None
    latency_ms: float
    error: str = ""

    @property
    def delivered(self) -> bool:
        return self.status is not None and 200 <= self.status < 300


def trusted(ca_file: str) -> ssl.SSLContext:
    """The CAs a receiver's certificate may come from: the public ones (certifi, as httpx
    trusts by default) and those of `ca_file`, if any (a private CA of the operator's)."""
    context = ssl.create_default_context(cafile=certifi.where())
    if ca_file:
        context.load_verify_locations(cafile=ca_file)
    return context


def sign(secret: str, message: str, timestamp: int, body: bytes) -> str:
    key = base64.b64decode(secret.removeprefix("whsec_"))
    signed = f"{message}.{timestamp}.".encode() + body
    return "v1," + base64.b64encode(hmac.new(key, signed, hashlib.sha256).digest()).decode()


def headers(endpoint: Endpoint, message: str, body: bytes, now: float) -> dict[str, str]:
    timestamp = int(now)
    signatures = [sign(endpoint.secret, message, timestamp, body)]
    if endpoint.previous_secret and now < endpoint.previous_until:
        signatures.append(sign(endpoint.previous_secret, message, timestamp, body))
    return {
        "content-type": "application/json",
        "user-agent": USER_AGENT,
        "webhook-id": message,
        "webhook-timestamp": str(timestamp),
        "webhook-signature": " ".join(signatures),
    }


def _pinned(parts: SplitResult, address: str) -> str:
    host = f"[{address}]" if ":" in address else address
    netloc = f"{host}:{parts.port}" if parts.port else host
    return parts._replace(netloc=netloc, fragment="").geturl()


async def post(
    client: httpx.AsyncClient,
    endpoint: Endpoint,
    message: str,
    body: bytes,
    *,
    production: bool,
    allow_private: bool,
    timeout: float,
) -> Answer:
    """One attempt, bounded by `timeout` seconds from the address check to the status line."""
    started = time.perf_counter()

    def answer(status: int | None, error: str = "") -> Answer:
        return Answer(status, round((time.perf_counter() - started) * 1000, 1), error)

    try:
        async with asyncio.timeout(timeout):
            parts = urls.parse(endpoint.url, production)
            addresses = await urls.addresses(parts, allow_private)
            sent = headers(endpoint, message, body, time.time())
            sent["host"] = parts.netloc.rpartition("@")[2]
            extensions = {"sni_hostname": parts.hostname} if parts.scheme == "https" else {}
            for address in addresses:  # in the resolver's order, the next if one refuses
                request = client.build_request(
                    "POST", _pinned(parts, address), content=body, headers=sent,
                    extensions=extensions,
                )  # fmt: skip
                try:
                    response = await client.send(request, stream=True)
                    break
                except httpx.ConnectError:
                    if address == addresses[-1]:
                        raise
            await response.aclose()  # the status is all we keep
    except urls.BadUrl as exc:
        return answer(None, f"address not allowed: {exc}")
    except TimeoutError:
        return answer(None, "timeout")
    except httpx.HTTPError as exc:
        # no URL in the error: a tenant's URL may carry a token of theirs, and errors are logged
        detail = "" if "://" in str(exc) else f": {exc}"
        return answer(None, f"{type(exc).__name__}{detail}"[:200])
    if not 200 <= response.status_code < 300:
        return answer(response.status_code, f"HTTP {response.status_code}")
    return answer(response.status_code)
