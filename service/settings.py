"""Every setting, read from the environment in this one place (docs/architecture.md, "Adding a setting")."""

from __future__ import annotations

import os
from dataclasses import dataclass, field

DAY = 24 * 3600


def _int(name: str, default: int) -> int:
    raw = os.environ.get(name, "")
    return int(raw) if raw.strip() else default


def _float(name: str, default: float) -> float:
    raw = os.environ.get(name, "")
    return float(raw) if raw.strip() else default


def _flag(name: str) -> bool | None:
    """`1` or `0`; None when unset (the setting's own default applies)."""
    raw = os.environ.get(name, "").strip()
    return raw != "0" if raw else None


def _list(name: str) -> tuple[str, ...]:
    """A comma-separated setting, blanks dropped."""
    return tuple(item.strip() for item in os.environ.get(name, "").split(",") if item.strip())


def _pauses(items: tuple[str, ...]) -> tuple[float, ...]:
    """Pauses in seconds; `3600x23` is 3600 23 times."""
    pauses: list[float] = []
    for item in items:
        seconds, _, times = item.partition("x")
        pauses += [float(seconds)] * (int(times) if times else 1)
    return tuple(pauses)


@dataclass(frozen=True)
class Settings:
    redis_url: str | None = None  # None: start an embedded redis-server
    # the PostgreSQL that archives finished games (service/archive); "": no archive (`make run`
    # starts an embedded one)
    database_url: str = ""
    host: str = "127.0.0.1"
    port: int = 8000
    env: str = "development"  # "production" turns off GraphiQL and introspection
    log_level: str = "info"
    active_ttl: int = 30 * DAY  # seconds an untouched active game is kept
    finished_ttl: int = 7 * DAY  # seconds a finished game is kept
    # seconds a finished game keeps its idempotency keys for replays of lost replies (at most
    # finished_ttl); later a retry is refused as GAME_OVER, so a move still applies only once
    idempotency_grace: int = 3600
    # with DATABASE_URL (the archive, service/archive): a finished game is archived once its
    # idempotency grace is over and then leaves Redis; an archived game that is read comes
    # back into Redis for this many seconds (the short tail)
    archive_tail_seconds: int = 3600
    archive_lease_seconds: float = 60.0  # a worker's claim on a game it archives
    redis_timeout: float = 2.0  # seconds for connecting and for each Redis command
    redis_pool_size: int = 64
    # replicas that must confirm each game write (WAIT, docs/reliability.md "Replica
    # acknowledgement") before it is acknowledged; 0: none (Redis replicates asynchronously)
    replica_ack: int = 0
    # milliseconds a write waits for them; then UNAVAILABLE (retry with the same idempotency
    # key). Below REDIS_TIMEOUT: the wait is read within the commit's round trip
    replica_ack_timeout_ms: int = 500
    max_body_bytes: int = 64 * 1024
    # `id:secret` (or `id:sha256:<hex>`) per tenant; when set, creating and listing games
    # need one of them (X-API-Key); unset: one default tenant (development)
    api_keys: tuple[str, ...] = ()
    rate_limit_per_token: int = 600  # requests per minute per seat token; 0 turns it off
    rate_limit_per_address: int = 6000  # requests per minute per client address; 0: off
    rate_limit_sync_seconds: float = 0.1  # how often replicas share their counts via Redis
    max_query_depth: int = 10
    max_query_tokens: int = 500  # the introspection query has 163
    max_query_aliases: int = 10
    max_suggest_ms: int = 1000  # the most a suggestMove may think
    takeback_seconds: float = 300.0  # how long a takeback request waits for the others' answers
    graphql_fast_path: bool = True  # answer hot operations without strawberry (fastpath.py)
    # browser origins (https://app.example.com) allowed to call the API: CORS on HTTP, the
    # Origin check on WebSocket upgrades; empty: same origin only; "*": any origin
    cors_origins: tuple[str, ...] = ()
    # how long shared caches (a CDN) may keep a spectator's answer (no token, no API key);
    # answers to a seat or a tenant are `private, no-store` (service/api/edge/caching.py)
    public_max_age: int = 2
    max_json_depth: int = 32  # nesting of request bodies, variables, moves and socket frames
    max_sockets_per_address: int = 256  # open WebSockets per client address, per process
    max_subscriptions_per_socket: int = 16  # operations in flight on one WebSocket
    max_subscriptions_per_address: int = 1024  # live subscriptions per client address, per process
    subscriber_queue: int = 64  # events a subscriber may fall behind before it is dropped
    forwarded_allow_ips: tuple[str, ...] = ()  # proxies whose X-Forwarded-For is believed
    hint_processes: int = 1  # hints thought about at once per replica; more are refused
    # game records verified at once per replica, each in a child process; more are refused
    verify_processes: int = 1
    hint_grace_ms: int = 1000  # a hint child silent this long past its budget is replaced
    worker_processes: int = 0  # `python -m service.worker`: processes; 0 = one per core
    worker_reclaim_seconds: float = 30.0  # a job pending this long is taken over
    worker_poll_seconds: float = 1.0  # idle workers look at every lane this often
    worker_metrics_port: int = 0  # worker i serves /metrics on port + i; 0 = none
    # the API's /metrics on a port of its own, not the one clients reach (k8s: 9100, scraped by
    # the ServiceMonitor); 0: on the main port, in development only (production: none there)
    metrics_port: int = 0
    worker_stall_seconds: float = 120.0  # /healthz fails when a worker loop is stuck this long
    # SIGTERM: a worker takes no new job and finishes the one in hand within this bound (else
    # leaves it pending, for another worker to reclaim), then exits
    worker_drain_seconds: float = 20.0
    bot_iterations: int = 0  # SEARCH iterations per bot decision; 0 = ~100 ms per game
    run_workers: int = 1  # worker processes `python -m service` (make run) starts
    # SIGTERM: /readyz answers 503 at once, requests are still served this long, then uvicorn's
    # graceful shutdown (load balancers that probe /readyz take the replica out first)
    shutdown_delay_seconds: float = 5.0
    # set by the process that starts the workers (`python -m service`): they stop once it is gone
    worker_parent_pid: int = 0
    playground: bool | None = None  # the web playground at /play; None: on unless production
    # webhooks (docs/webhooks.md): loopback and private receivers allowed (development only)
    webhook_allow_private: bool = False
    webhook_timeout_seconds: float = 10.0  # one delivery attempt, connect to last byte
    # the pauses before each retry, +-10% jitter: quick ones for blips, then hourly for about a
    # day in all (28 attempts over 23.2 hours), then the event is given up
    webhook_retry_seconds: tuple[float, ...] = (5, 30, 120, 600) + (3600,) * 23
    webhook_concurrency: int = 32  # deliveries in flight per worker process
    webhook_endpoint_concurrency: int = 4  # of them to one endpoint, so a slow one is contained
    webhook_ca_file: str = ""  # a PEM bundle of CAs trusted for receivers beside the public ones
    # game records signed with Ed25519 (service/core/records/signing.py): the private key's
    # 32-byte seed, base64url; empty: records are exported unsigned (development). Never shown.
    record_signing_key: str = field(default="", repr=False)
    # public keys (base64url) still accepted and published after a rotation
    record_verify_keys: tuple[str, ...] = ()
    # player tokens (docs/api.md, "Players"): the secret the tokens this server issues are
    # signed with (HS256; shared by every replica; empty: one drawn per process, development)
    player_token_secret: str = field(default="", repr=False)
    # the keys tenants sign their own player tokens with: `kid:tenant:HS256:<secret>` or
    # `kid:tenant:EdDSA:<base64url Ed25519 public key>`. Never shown.
    player_keys: tuple[str, ...] = field(default=(), repr=False)
    # where an invite link points: this URL with the game's join code appended; empty: none
    invite_base_url: str = ""

    @property
    def production(self) -> bool:
        return self.env == "production"

    @property
    def serves_playground(self) -> bool:
        return not self.production if self.playground is None else self.playground

    @classmethod
    def from_env(cls) -> Settings:
        return cls(
            redis_url=os.environ.get("REDIS_URL") or None,
            database_url=os.environ.get("DATABASE_URL", cls.database_url),
            host=os.environ.get("HOST", cls.host),
            port=_int("PORT", cls.port),
            env=os.environ.get("RULES_ENV", cls.env),
            log_level=os.environ.get("LOG_LEVEL", cls.log_level),
            active_ttl=_int("RULES_ACTIVE_TTL", cls.active_ttl),
            finished_ttl=_int("RULES_FINISHED_TTL", cls.finished_ttl),
            idempotency_grace=_int("RULES_IDEMPOTENCY_GRACE", cls.idempotency_grace),
            archive_tail_seconds=_int("RULES_ARCHIVE_TAIL_SECONDS", cls.archive_tail_seconds),
            archive_lease_seconds=_float("RULES_ARCHIVE_LEASE_SECONDS", cls.archive_lease_seconds),
            redis_timeout=_float("REDIS_TIMEOUT", cls.redis_timeout),
            redis_pool_size=_int("REDIS_POOL_SIZE", cls.redis_pool_size),
            replica_ack=_int("RULES_REPLICA_ACK", cls.replica_ack),
            replica_ack_timeout_ms=_int("RULES_REPLICA_ACK_TIMEOUT_MS", cls.replica_ack_timeout_ms),
            max_body_bytes=_int("RULES_MAX_BODY_BYTES", cls.max_body_bytes),
            api_keys=_list("RULES_API_KEYS"),
            rate_limit_per_token=_int("RULES_RATE_LIMIT_PER_TOKEN", cls.rate_limit_per_token),
            rate_limit_per_address=_int("RULES_RATE_LIMIT_PER_ADDRESS", cls.rate_limit_per_address),
            rate_limit_sync_seconds=_float(
                "RULES_RATE_LIMIT_SYNC_SECONDS", cls.rate_limit_sync_seconds
            ),
            max_query_depth=_int("RULES_MAX_QUERY_DEPTH", cls.max_query_depth),
            max_query_tokens=_int("RULES_MAX_QUERY_TOKENS", cls.max_query_tokens),
            max_query_aliases=_int("RULES_MAX_QUERY_ALIASES", cls.max_query_aliases),
            max_suggest_ms=_int("RULES_MAX_SUGGEST_MS", cls.max_suggest_ms),
            takeback_seconds=_float("RULES_TAKEBACK_SECONDS", cls.takeback_seconds),
            graphql_fast_path=os.environ.get("RULES_GRAPHQL_FAST_PATH", "1") != "0",
            cors_origins=_list("RULES_CORS_ORIGINS"),
            public_max_age=_int("RULES_PUBLIC_MAX_AGE", cls.public_max_age),
            max_json_depth=_int("RULES_MAX_JSON_DEPTH", cls.max_json_depth),
            max_sockets_per_address=_int(
                "RULES_MAX_SOCKETS_PER_ADDRESS", cls.max_sockets_per_address
            ),
            max_subscriptions_per_socket=_int(
                "RULES_MAX_SUBSCRIPTIONS_PER_SOCKET", cls.max_subscriptions_per_socket
            ),
            max_subscriptions_per_address=_int(
                "RULES_MAX_SUBSCRIPTIONS_PER_ADDRESS", cls.max_subscriptions_per_address
            ),
            subscriber_queue=_int("RULES_SUBSCRIBER_QUEUE", cls.subscriber_queue),
            forwarded_allow_ips=_list("FORWARDED_ALLOW_IPS"),
            hint_processes=_int("RULES_HINT_PROCESSES", cls.hint_processes),
            verify_processes=_int("RULES_VERIFY_PROCESSES", cls.verify_processes),
            hint_grace_ms=_int("RULES_HINT_GRACE_MS", cls.hint_grace_ms),
            worker_processes=_int("RULES_WORKER_PROCESSES", cls.worker_processes),
            worker_reclaim_seconds=_float(
                "RULES_WORKER_RECLAIM_SECONDS", cls.worker_reclaim_seconds
            ),
            worker_poll_seconds=_float("RULES_WORKER_POLL_SECONDS", cls.worker_poll_seconds),
            worker_metrics_port=_int("RULES_WORKER_METRICS_PORT", cls.worker_metrics_port),
            metrics_port=_int("RULES_METRICS_PORT", cls.metrics_port),
            worker_stall_seconds=_float("RULES_WORKER_STALL_SECONDS", cls.worker_stall_seconds),
            worker_drain_seconds=_float("RULES_WORKER_DRAIN_SECONDS", cls.worker_drain_seconds),
            bot_iterations=_int("RULES_BOT_ITERATIONS", cls.bot_iterations),
            run_workers=_int("RULES_RUN_WORKERS", cls.run_workers),
            shutdown_delay_seconds=_float(
                "RULES_SHUTDOWN_DELAY_SECONDS", cls.shutdown_delay_seconds
            ),
            worker_parent_pid=_int("RULES_WORKER_PARENT_PID", cls.worker_parent_pid),
            playground=_flag("RULES_PLAYGROUND"),
            webhook_allow_private=_flag("RULES_WEBHOOK_ALLOW_PRIVATE") or False,
            webhook_timeout_seconds=_float(
                "RULES_WEBHOOK_TIMEOUT_SECONDS", cls.webhook_timeout_seconds
            ),
            webhook_retry_seconds=_pauses(_list("RULES_WEBHOOK_RETRY_SECONDS"))
            or cls.webhook_retry_seconds,
            webhook_concurrency=_int("RULES_WEBHOOK_CONCURRENCY", cls.webhook_concurrency),
            webhook_endpoint_concurrency=_int(
                "RULES_WEBHOOK_ENDPOINT_CONCURRENCY", cls.webhook_endpoint_concurrency
            ),
            webhook_ca_file=os.environ.get("RULES_WEBHOOK_CA_FILE", cls.webhook_ca_file),
            record_signing_key=os.environ.get("RULES_RECORD_SIGNING_KEY", ""),
            record_verify_keys=_list("RULES_RECORD_VERIFY_KEYS"),
            player_token_secret=os.environ.get("RULES_PLAYER_TOKEN_SECRET", ""),
            player_keys=_list("RULES_PLAYER_KEYS"),
            invite_base_url=os.environ.get("RULES_INVITE_BASE_URL", cls.invite_base_url),
        )
