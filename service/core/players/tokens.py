"""Player tokens (docs/api.md, "Players"; docs/security.md): short-lived JWTs naming one player
id of one tenant. This server issues them for a tenant's key (`issue`, signed HS256 with
RULES_PLAYER_TOKEN_SECRET under the key id `rules`); a tenant's backend may mint its own
offline, signed with a key of RULES_PLAYER_KEYS (HS256 or EdDSA) and that key's id in the
header's `kid`. Either way the claims are `iss` (the tenant), `sub` (the player id), `aud`
(AUDIENCE), `iat` and `exp`, at most MAX_TTL apart.

Revocation is a per-player epoch in Redis (`pe:{<tenant>:<player hash>}`): every token of the
player issued before it (`iat` below it) is refused on every replica from the next request on.
The epoch outlives the longest token, so it expires once nothing it revokes could still verify.

Every refusal is UNAUTHORIZED with its own message (expired, revoked, bad signature, unknown
key, malformed) or FORBIDDEN for a token whose issuer is not its key's tenant; none names a
secret or echoes the token.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import secrets
import time
from typing import Any

import jwt
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

from service.core.access.players import Player
from service.refusals import Code, Refused
from service.store import RedisStore

AUDIENCE = "rules:players"
SERVER_KID = "rules"  # the key id of the tokens this server issues
MIN_TTL = 60  # seconds
MAX_TTL = 24 * 3600  # seconds: the longest a player token may live, issued or minted offline
DEFAULT_TTL = 3600
LEEWAY = 30  # seconds of clock skew allowed between a tenant's backend and this server
MAX_PLAYER_ID = 128  # characters, as createGame's playerIds
MIN_SECRET = 32  # characters of an HS256 secret
MAX_TOKEN = 4096  # characters: a longer bearer is not read at all

NOT_ISSUING = (
    "this production server issues no player tokens (RULES_PLAYER_TOKEN_SECRET is not set, and "
    "a secret of one replica would fail on the others): mint them with a key of RULES_PLAYER_KEYS"
)

# Keeps an epoch only if it is later than the one stored (two revocations never go back).
RAISE_EPOCH = """
local stored = tonumber(redis.call('GET', KEYS[1]) or '0')
if tonumber(ARGV[1]) > stored then
  redis.call('SET', KEYS[1], ARGV[1], 'EX', ARGV[2])
  return ARGV[1]
end
redis.call('EXPIRE', KEYS[1], ARGV[2])
return tostring(stored)
"""


class TenantKey:
    """One key of RULES_PLAYER_KEYS: the tenant it signs for, its algorithm and key."""

    def __init__(self, tenant: str, algorithm: str, key: Any) -> None:
        self.tenant = tenant
        self.algorithm = algorithm
        self.key = key


def parse_player_keys(entries: tuple[str, ...]) -> dict[str, TenantKey]:
    """RULES_PLAYER_KEYS: `kid:tenant:HS256:<secret>` or `kid:tenant:EdDSA:<base64url public
    key>`. A malformed entry fails at start, naming its key id, never its key."""
    keys: dict[str, TenantKey] = {}
    for entry in entries:
        kid, tenant, algorithm, material = [*entry.split(":", 3), "", "", ""][:4]
        if not kid or not tenant or kid == SERVER_KID or kid in keys:
            raise ValueError(f"RULES_PLAYER_KEYS: key id {kid!r} is empty, reserved or repeated")
        if algorithm == "HS256" and len(material) >= MIN_SECRET:
            keys[kid] = TenantKey(tenant, algorithm, material.encode())
        elif algorithm == "EdDSA":
            try:
                raw = base64.urlsafe_b64decode(material + "=" * (-len(material) % 4))
                keys[kid] = TenantKey(tenant, algorithm, Ed25519PublicKey.from_public_bytes(raw))
            except (binascii.Error, ValueError):
                raise ValueError(f"RULES_PLAYER_KEYS: key {kid!r} is no Ed25519 key") from None
        else:
            raise ValueError(
                f"RULES_PLAYER_KEYS: key {kid!r} is HS256 (a secret of {MIN_SECRET}+ "
                "characters) or EdDSA"
            )
    return keys


def looks_like_player_token(token: str | None) -> bool:
    """A JWT (three base64url parts, a JSON header) rather than a seat token (`<seat>.<secret>`)."""
    return token is not None and token.startswith("eyJ") and token.count(".") == 2


def check_player_id(player_id: str) -> None:
    if not 0 < len(player_id) <= MAX_PLAYER_ID:
        raise Refused(Code.BAD_INPUT, f"a playerId has 1 to {MAX_PLAYER_ID} characters")


def epoch_key(tenant: str, player_id: str) -> str:
    digest = hashlib.sha256(player_id.encode()).hexdigest()[:32]
    return f"pe:{{{tenant}:{digest}}}"


def _unauthorized(message: str) -> Refused:
    return Refused(Code.UNAUTHORIZED, message)


class PlayerTokens:
    def __init__(
        self,
        store: RedisStore,
        secret: str = "",
        keys: tuple[str, ...] = (),
        production: bool = False,
    ) -> None:
        self.store = store
        # without RULES_PLAYER_TOKEN_SECRET each process draws its own (development only: a
        # token is then good on the process that issued it); in production none is issued
        self.issues = bool(secret) or not production
        self.secret = (secret or secrets.token_urlsafe(32)).encode()
        self.keys = parse_player_keys(keys)
        self._raise_epoch = store.redis.register_script(RAISE_EPOCH)

    def issue(self, tenant: str, player_id: str, ttl: int) -> tuple[str, float]:
        """A token for `player_id` of `tenant`, good for `ttl` seconds, and when it expires."""
        if not self.issues:
            raise Refused(Code.BAD_INPUT, NOT_ISSUING)
        check_player_id(player_id)
        if not MIN_TTL <= ttl <= MAX_TTL:
            raise Refused(Code.BAD_INPUT, f"ttlSeconds is {MIN_TTL} to {MAX_TTL}")
        now = time.time()
        # a fractional iat (RFC 7519 NumericDate): a token issued right after a revocation,
        # within the same second, is not revoked by it
        claims = {"iss": tenant, "sub": player_id, "aud": AUDIENCE, "iat": now, "exp": now + ttl}
        token = jwt.encode(claims, self.secret, algorithm="HS256", headers={"kid": SERVER_KID})
        return token, now + ttl

    async def revoke(self, tenant: str, player_id: str) -> float:
        """Every token of the player issued until now stops working; the epoch set."""
        check_player_id(player_id)
        key = epoch_key(tenant, player_id)
        args = [repr(time.time()), MAX_TTL + 2 * LEEWAY]
        stored = await self.store.script_acked(
            "revoke_players", self._raise_epoch, [key], args, f"{key}:w"
        )
        return float(stored)

    async def verify(self, token: str) -> Player:
        """The player a token names, or a typed refusal (module docstring)."""
        claims = self._claims(token)
        player = Player(claims["iss"], claims["sub"])
        key = epoch_key(player.tenant, player.id)

        async def read() -> Any:
            return await self.store.redis.get(key)

        epoch = await self.store.commands.timed("player_epoch", read)
        if epoch is not None and float(claims["iat"]) < float(epoch):
            raise _unauthorized("this player token was revoked: ask the app for a new one")
        return player

    def _claims(self, token: str) -> dict[str, Any]:
        if len(token) > MAX_TOKEN:
            raise _unauthorized("not a player token: too long")
        try:
            kid = jwt.get_unverified_header(token).get("kid")
        except jwt.InvalidTokenError:
            raise _unauthorized("not a player token: its header cannot be read") from None
        if kid == SERVER_KID:
            tenant, algorithm, key = None, "HS256", self.secret
        elif isinstance(kid, str) and kid in self.keys:
            found = self.keys[kid]
            tenant, algorithm, key = found.tenant, found.algorithm, found.key
        else:
            raise _unauthorized("this player token names a key id this server does not know")
        try:
            claims: dict[str, Any] = jwt.decode(
                token,
                key,
                algorithms=[algorithm],
                audience=AUDIENCE,
                leeway=LEEWAY,
                options={"require": ["iss", "sub", "aud", "iat", "exp"]},
            )
        except jwt.ExpiredSignatureError:
            raise _unauthorized(
                "this player token has expired: ask the app for a new one"
            ) from None
        except jwt.InvalidSignatureError:
            raise _unauthorized("this player token's signature does not verify") from None
        except jwt.InvalidTokenError as exc:
            raise _unauthorized(f"not a valid player token ({type(exc).__name__})") from None
        if tenant is not None and claims["iss"] != tenant:
            raise Refused(Code.FORBIDDEN, "this player token's issuer is not its key's tenant")
        if not isinstance(claims["sub"], str) or not 0 < len(claims["sub"]) <= MAX_PLAYER_ID:
            raise _unauthorized(f"a player token's sub is a player id of 1 to {MAX_PLAYER_ID}")
        if not isinstance(claims["iss"], str) or claims["exp"] - claims["iat"] > MAX_TTL:
            raise _unauthorized(f"a player token lives at most {MAX_TTL} seconds")
        return claims
