"""The Python SDK against a real service process, through a TCP proxy the test can cut.

`events` raises a refused subscription's typed error (an unknown game, a version past the
game's, a bad or a revoked token) instead of ending as if the game were over; it resumes after
a cut socket with every version once, in order; a move whose answer is lost is retried with the
same idempotency key and answered `replayed`, applied once; a service out of reach is an
UnavailableError after the policy's tries, and a change without a key is not repeated once it
may have reached the service.
"""

from __future__ import annotations

import asyncio
import contextlib
import sys
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from service.store.embedded import free_port
from tests.clients.conftest import Service

SDK = Path(__file__).parents[2] / "sdk" / "python"
BOUND = 60  # seconds: a generous bound on each wait, never a pause


@pytest.fixture(scope="module")
def rules() -> Iterator[ModuleType]:
    sys.path.insert(0, str(SDK))
    try:
        import rules_client

        yield rules_client
    finally:
        sys.path.remove(str(SDK))


class Proxy:
    """Forwards loopback TCP to the service; `cut()` drops every connection at once, and
    `swallow_next_answer()` lets the next request through but drops its answer (and its
    connection), as a network that fails after the server has acted."""

    def __init__(self, target: str) -> None:
        self.target_port = int(target.rsplit(":", 1)[1])
        self.connections = 0
        self.swallow = False
        self.swallowed = asyncio.Event()
        self.live: set[asyncio.StreamWriter] = set()

    async def __aenter__(self) -> Proxy:
        self.server = await asyncio.start_server(self._serve, "127.0.0.1", 0)
        self.url = f"http://127.0.0.1:{self.server.sockets[0].getsockname()[1]}"
        return self

    async def __aexit__(self, *exc: object) -> None:
        self.cut()
        self.server.close()
        await self.server.wait_closed()

    def cut(self) -> None:
        for writer in list(self.live):
            writer.transport.abort()
        self.live.clear()

    def swallow_next_answer(self) -> None:
        self.swallow = True

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.connections += 1
        up_reader, up_writer = await asyncio.open_connection("127.0.0.1", self.target_port)
        self.live |= {writer, up_writer}

        async def pump(
            source: asyncio.StreamReader, sink: asyncio.StreamWriter, down: bool
        ) -> None:
            with contextlib.suppress(ConnectionError, OSError):
                while data := await source.read(65536):
                    if down and self.swallow:
                        self.swallow = False
                        self.swallowed.set()
                        break
                    sink.write(data)
                    await sink.drain()
            for end in (writer, up_writer):
                end.transport.abort()
                self.live.discard(end)

        await asyncio.gather(pump(reader, up_writer, False), pump(up_reader, writer, True))


@pytest.fixture
async def proxy(service: Service) -> AsyncIterator[Proxy]:
    async with Proxy(service.url) as running:
        yield running


async def _game(rules: ModuleType, service: Service, seed: str) -> tuple[Any, list[Any], Any]:
    anyone = rules.AsyncRules(service.url)
    created = await anyone.create_game(rules.GameKind.TREELINGS, 2, seed=seed)
    return anyone, [anyone.with_token(seat.token) for seat in created.seats], created.game


async def _decide(seats: list[Any], game: Any) -> Any:
    seat = seats[game.to_act[0]]
    legal = await seat.legal_moves(game.id)
    return (await seat.apply_move(game.id, legal.legal_moves[0])).game


async def test_a_refused_subscription_raises_its_typed_error(
    rules: ModuleType, service: Service
) -> None:
    """Unknown game NOT_FOUND, a version past the game's BAD_USER_INPUT, a token of no seat
    and a revoked one UNAUTHORIZED: raised at once, not retried, not an empty stream."""
    anyone, seats, game = await _game(rules, service, "sdk-live-refusals")
    async with anyone:
        game = await _decide(seats, game)
        old_token = seats[0].token
        await anyone.reissue_seat_token(game.id, 0)  # no keys here: the one default tenant
        refusals = [
            (anyone.events("no-such-game"), rules.NotFoundError, "NOT_FOUND"),
            (anyone.events(game.id, after_version=game.version + 5), rules.BadInputError,
             "BAD_USER_INPUT"),
            (anyone.with_token("0.not-a-seat-of-this-game-at-all-xxx").events(game.id),
             rules.UnauthorizedError, "UNAUTHORIZED"),
            (anyone.with_token(old_token).events(game.id), rules.UnauthorizedError,
             "UNAUTHORIZED"),
        ]  # fmt: skip
        for stream, kind, code in refusals:
            with pytest.raises(kind) as refused:
                async with asyncio.timeout(BOUND):
                    async for event in stream:
                        pytest.fail(f"an event where {code} was due: {event}")
            assert refused.value.code is rules.ErrorCode(code), refused.value


async def test_events_resume_after_a_cut_socket_with_every_version_once(
    rules: ModuleType, service: Service, proxy: Proxy
) -> None:
    anyone, seats, game = await _game(rules, service, "sdk-live-resume")
    quick = rules.RetryPolicy(initial_delay=0.05, max_delay=0.5)
    watcher = rules.AsyncRules(proxy.url, token=seats[0].token, retry=quick)
    seen: list[int] = []
    arrived = asyncio.Condition()

    async def watch() -> None:
        async for event in watcher.events(game.id, after_version=0):
            async with arrived:
                seen.append(event.version)
                arrived.notify_all()

    async def until(version: int) -> None:
        async with asyncio.timeout(BOUND), arrived:
            await arrived.wait_for(lambda: bool(seen) and seen[-1] >= version)

    async with anyone, watcher:
        watching = asyncio.create_task(watch())
        try:
            for _ in range(3):
                game = await _decide(seats, game)
            await until(game.version)
            proxy.cut()
            for _ in range(3):
                game = await _decide(seats, game)
            await until(game.version)
        finally:
            watching.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await watching
    assert proxy.connections >= 2, "the socket was made again"
    assert seen == list(range(1, game.version + 1)), seen  # none missed, none twice


async def test_a_move_whose_answer_is_lost_is_retried_with_its_key_and_replayed(
    rules: ModuleType, service: Service, proxy: Proxy
) -> None:
    """The service applies the move, the answer never arrives: the retry carries the same
    idempotency key, so the answer is the first one, `replayed`, and the move is applied once."""
    anyone, seats, game = await _game(rules, service, "sdk-live-replay")
    quick = rules.RetryPolicy(initial_delay=0.05)
    seat = rules.AsyncRules(proxy.url, token=seats[game.to_act[0]].token, retry=quick)
    async with anyone, seat:
        legal = await seat.legal_moves(game.id)
        proxy.swallow_next_answer()
        applied = await seat.apply_move(
            game.id, legal.legal_moves[0], expected_version=game.version
        )
        assert proxy.swallowed.is_set(), "the first answer was lost"
        assert applied.replayed is True
        assert applied.game.version > game.version
        history = await anyone.history(game.id, after=game.version)
        decisions = [entry for entry in history.history if not entry.forced]
        assert len(decisions) == 1, history  # applied once


async def test_a_service_out_of_reach_is_unavailable_after_the_tries(rules: ModuleType) -> None:
    """Nothing listens: reads are tried `attempts` times, then UnavailableError (not an httpx
    error); the same for a subscription."""
    quick = rules.RetryPolicy(attempts=3, initial_delay=0.01, max_delay=0.05)
    async with rules.AsyncRules(f"http://127.0.0.1:{free_port()}", retry=quick) as down:
        with pytest.raises(rules.UnavailableError) as refused:
            await down.catalog()
        assert refused.value.code is rules.ErrorCode.UNAVAILABLE
        with pytest.raises(rules.UnavailableError):
            async with asyncio.timeout(BOUND):
                async for _ in down.events("any-game"):
                    pytest.fail("no event from a service that is not there")


async def test_a_change_without_a_key_is_not_repeated_once_sent(rules: ModuleType) -> None:
    """A server that takes each request and hangs up before answering: a read is tried
    `attempts` times; create_game (no idempotency key: a retry could make a second game) once."""
    accepted = 0

    async def hang_up(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        nonlocal accepted
        accepted += 1
        await reader.read(1)  # the request has begun
        writer.transport.abort()

    server = await asyncio.start_server(hang_up, "127.0.0.1", 0)
    url = f"http://127.0.0.1:{server.sockets[0].getsockname()[1]}"
    quick = rules.RetryPolicy(attempts=3, initial_delay=0.01, max_delay=0.05)
    try:
        async with rules.AsyncRules(url, retry=quick) as flaky:
            with pytest.raises(rules.UnavailableError):
                await flaky.catalog()
            assert accepted == 3
            with pytest.raises(rules.UnavailableError):
                await flaky.create_game(rules.GameKind.TREELINGS, 2)
            assert accepted == 4
    finally:
        server.close()
        await server.wait_closed()


async def test_player_events_answer_the_status_then_raise_a_refusal(
    rules: ModuleType, service: Service
) -> None:
    """A player's matchmaking stream starts with its status now; a player id the service
    refuses raises BAD_USER_INPUT instead of an empty stream."""
    async with rules.AsyncRules(service.url) as anyone:
        async with asyncio.timeout(BOUND):
            async for status in anyone.player_events("sdk-live-player"):
                assert status.state is rules.MatchmakingState.NONE
                break
        with pytest.raises(rules.BadInputError):
            async with asyncio.timeout(BOUND):
                async for status in anyone.player_events(""):
                    pytest.fail(f"a status where BAD_USER_INPUT was due: {status}")


async def test_a_player_token_follows_its_own_matchmaking_until_matched(
    rules: ModuleType, service: Service
) -> None:
    """With a player token no player id is sent: the stream is the token's player's, from its
    status now to the match made when a second player enters the same pool."""
    async with rules.AsyncRules(service.url) as anyone:
        players = [
            anyone.with_token((await anyone.issue_player_token(name)).token)
            for name in ("sdk-live-ada", "sdk-live-bea")
        ]
        seen: list[Any] = []
        async with asyncio.timeout(BOUND):
            async for status in players[0].player_events():
                seen.append(status)
                if len(seen) == 1:
                    await players[0].enter_matchmaking(rules.GameKind.TREE_LINED_AVENUE, 2)
                    await players[1].enter_matchmaking(rules.GameKind.TREE_LINED_AVENUE, 2)
                if status.state is rules.MatchmakingState.MATCHED:
                    break
    assert seen[0].player_id == "sdk-live-ada" and seen[0].state is rules.MatchmakingState.NONE
    assert seen[-1].player_id == "sdk-live-ada" and seen[-1].game_id and seen[-1].seat_token
    assert seen[0].type_ is None and seen[-1].type_ is rules.PlayerEventType.MATCHED
