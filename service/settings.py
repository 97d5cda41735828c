"""Every setting, read from the environment in this one place (DESIGN.md, "Settings")."""

from __future__ import annotations

import os
from dataclasses import dataclass

DAY = 24 * 3600


def _int(name: str, default: int) -> int:
    raw = os.environ.get(name, "")
    return int(raw) if raw.strip() else default


def _float(name: str, default: float) -> float:
    raw = os.environ.get(name, "")
    return float(raw) if raw.strip() else default


@dataclass(frozen=True)
class Settings:
    redis_url: str | None = None  # None: start an embedded redis-server
    host: str = "127.0.0.1"
    port: int = 8000
    env: str = "development"  # "production" turns off GraphiQL and introspection
    log_level: str = "info"
    active_ttl: int = 30 * DAY  # seconds an untouched active game is kept
    finished_ttl: int = 7 * DAY  # seconds a finished game is kept
    redis_timeout: float = 2.0  # seconds for connecting and for each Redis command
    redis_pool_size: int = 64
    max_body_bytes: int = 64 * 1024

    @property
    def production(self) -> bool:
        return self.env == "production"

    @classmethod
    def from_env(cls) -> Settings:
        return cls(
            redis_url=os.environ.get("REDIS_URL") or None,
            host=os.environ.get("HOST", cls.host),
            port=_int("PORT", cls.port),
            env=os.environ.get("RULES_ENV", cls.env),
            log_level=os.environ.get("LOG_LEVEL", cls.log_level),
            active_ttl=_int("RULES_ACTIVE_TTL", cls.active_ttl),
            finished_ttl=_int("RULES_FINISHED_TTL", cls.finished_ttl),
            redis_timeout=_float("REDIS_TIMEOUT", cls.redis_timeout),
            redis_pool_size=_int("REDIS_POOL_SIZE", cls.redis_pool_size),
            max_body_bytes=_int("RULES_MAX_BODY_BYTES", cls.max_body_bytes),
        )
