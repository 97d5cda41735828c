"""Every refusal of every operation reaches a Python SDK user as a typed `RulesError`.

Over the real ASGI app with API keys (RULES_API_KEYS) and real Redis: unknown games and
endpoints, bad and revoked tokens, missing and malformed keys, bad versions, bad moves, a rate
limit with its Retry-After; each answer's class and `ErrorCode`, never a raw GraphQL error or
a None. The subscription's refusals need a socket: test_python_sdk_live.py.
"""

from __future__ import annotations

import sys
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from service.app import create_app
from service.settings import Settings
from tests.conftest import client_for

SDK = Path(__file__).parents[2] / "sdk" / "python"
SECRET = "s3cret-of-the-studio"
KEYS = (f"studio:{SECRET}", "rival:another-secret")
PUBLIC_HOOK = "https://93.184.215.14/hooks/rules"  # an address literal: no DNS needed


@pytest.fixture(scope="module")
def rules() -> Iterator[ModuleType]:
    sys.path.insert(0, str(SDK))
    try:
        import rules_client

        yield rules_client
    finally:
        sys.path.remove(str(SDK))


@dataclass
class Table:
    """A keyed service and a game on it: the tenant's client, its seats', a spectator's."""

    rules: ModuleType
    http: Any
    tenant: Any
    seats: list[Any]
    spectator: Any
    player: Any  # a player token's client (players, docs/api.md)
    game_id: str
    version: int

    def client(self, **options: Any) -> Any:
        return self.rules.AsyncRules(
            "http://test", http_client=self.http, retry=self.rules.NO_RETRY, **options
        )


@pytest.fixture(scope="module")
async def table(redis_url: str, rules: ModuleType) -> AsyncIterator[Table]:
    settings = Settings(api_keys=KEYS, rate_limit_per_token=0, rate_limit_per_address=0)
    async with client_for(create_app(settings, redis_url)) as http:
        tenant = rules.AsyncRules(
            "http://test", api_key=SECRET, http_client=http, retry=rules.NO_RETRY
        )
        created = await tenant.create_game(rules.GameKind.TREELINGS, 2, seed="sdk-errors")
        seats = [tenant.with_token(seat.token) for seat in created.seats]
        spectator = rules.AsyncRules("http://test", http_client=http, retry=rules.NO_RETRY)
        player = tenant.with_token((await tenant.issue_player_token("sdk-player")).token)
        yield Table(
            rules, http, tenant, seats, spectator, player, created.game.id, created.game.version
        )


Call = Callable[[Table], Awaitable[object]]
UNKNOWN = "no-such-game"


def _waiting(t: Table) -> Any:
    """The seat that is not to act (seat 1: Treelings starts with seat 0 under this seed)."""
    return t.seats[1]


async def _legal(t: Table) -> Any:
    return (await t.seats[0].legal_moves(t.game_id)).legal_moves[0]


async def _stale(t: Table) -> object:
    return await t.seats[0].apply_move(t.game_id, await _legal(t), expected_version=t.version + 7)


async def _not_your_turn(t: Table) -> object:
    return await _waiting(t).apply_move(t.game_id, await _legal(t))


async def _illegal(t: Table) -> object:
    move = {"treelingsTakeColour": {"colour": "PURPLE"}}
    return await t.seats[0].apply_move(t.game_id, move)


async def _bad_token(t: Table) -> object:
    return await t.tenant.with_token("0.not-a-token-of-this-game-at-all-xx").legal_moves(t.game_id)


async def _unknown_key(t: Table) -> object:
    return await t.client(api_key="not-a-key").create_game("TREELINGS", 2)


async def _no_key(t: Table) -> object:
    return await t.spectator.create_game("TREELINGS", 2)


async def _other_tenant(t: Table) -> object:
    return await t.client(api_key="another-secret").abandon_game(t.game_id)


# (what is asked, the call, the error class's name, the code)
REFUSALS: list[tuple[str, Call, str, str]] = [
    ("create_game without a key", _no_key, "UnauthorizedError", "UNAUTHORIZED"),
    ("create_game with an unknown key", _unknown_key, "UnauthorizedError", "UNAUTHORIZED"),
    ("create_game for 9 players", lambda t: t.tenant.create_game("TREELINGS", 9),
     "BadInputError", "BAD_USER_INPUT"),
    ("game of an unknown id", lambda t: t.spectator.game(UNKNOWN), "NotFoundError", "NOT_FOUND"),
    ("game with a bad token", lambda t: t.tenant.with_token("junk").game(t.game_id),
     "UnauthorizedError", "UNAUTHORIZED"),
    ("legal_moves of an unknown id", lambda t: t.seats[0].legal_moves(UNKNOWN),
     "NotFoundError", "NOT_FOUND"),
    ("legal_moves with another game's token", _bad_token, "UnauthorizedError", "UNAUTHORIZED"),
    ("legal_moves as another tenant's seat", lambda t: t.client(api_key="another-secret")
     .legal_moves(t.game_id, as_seat=0), "NotFoundError", "NOT_FOUND"),
    ("apply_move on an unknown id", lambda t: t.seats[0].apply_move(
        UNKNOWN, {"treelingsTakeSingletons": True}), "NotFoundError", "NOT_FOUND"),
    ("apply_move out of turn", _not_your_turn, "RejectedError", "NOT_YOUR_TURN"),
    ("apply_move at a stale version", _stale, "RejectedError", "STALE_VERSION"),
    ("apply_move of a colour not in the market", _illegal, "RejectedError", "ILLEGAL_MOVE"),
    ("apply_move as a spectator", lambda t: t.spectator.apply_move(
        t.game_id, {"treelingsTakeSingletons": True}), "UnauthorizedError", "UNAUTHORIZED"),
    ("resign of an unknown id", lambda t: t.seats[0].resign(UNKNOWN), "NotFoundError",
     "NOT_FOUND"),
    ("resign at a stale version", lambda t: t.seats[0].resign(t.game_id, expected_version=99),
     "RejectedError", "STALE_VERSION"),
    ("request_takeback without takebacks", lambda t: t.seats[0].request_takeback(t.game_id),
     "RejectedError", "TAKEBACK_NOT_ALLOWED"),
    ("answer_takeback with no request", lambda t: t.seats[1].answer_takeback(t.game_id, True),
     "RejectedError", "TAKEBACK_NOT_ALLOWED"),
    ("abandon_game without a key", lambda t: t.spectator.abandon_game(t.game_id),
     "UnauthorizedError", "UNAUTHORIZED"),
    ("abandon_game of another tenant's game", _other_tenant, "NotFoundError", "NOT_FOUND"),
    ("reissue_seat_token of a seat the game lacks", lambda t: t.tenant.reissue_seat_token(
        t.game_id, 5), "BadInputError", "BAD_USER_INPUT"),
    ("reissue_seat_token without a key", lambda t: t.spectator.reissue_seat_token(t.game_id, 0),
     "UnauthorizedError", "UNAUTHORIZED"),
    ("suggest_move as a spectator", lambda t: t.spectator.suggest_move(t.game_id, iterations=1),
     "UnauthorizedError", "UNAUTHORIZED"),
    ("suggest_move on an unknown id", lambda t: t.seats[0].suggest_move(UNKNOWN, iterations=1),
     "NotFoundError", "NOT_FOUND"),
    ("scores of an unknown id", lambda t: t.spectator.scores(UNKNOWN), "NotFoundError",
     "NOT_FOUND"),
    ("history of an unknown id", lambda t: t.spectator.history(UNKNOWN), "NotFoundError",
     "NOT_FOUND"),
    ("view_at past the game's version", lambda t: t.seats[0].view_at(t.game_id, 50),
     "BadInputError", "BAD_USER_INPUT"),
    ("seed_reveal of an unknown id", lambda t: t.spectator.seed_reveal(UNKNOWN),
     "NotFoundError", "NOT_FOUND"),
    ("games without a key", lambda t: t.spectator.games(), "UnauthorizedError", "UNAUTHORIZED"),
    ("games after a cursor that is none", lambda t: t.tenant.games(after="not-a-cursor"),
     "BadInputError", "BAD_USER_INPUT"),
    ("export_game while it is played", lambda t: t.spectator.export_game(t.game_id),
     "RejectedError", "GAME_NOT_OVER"),
    ("export_game of an unknown id", lambda t: t.spectator.export_game(UNKNOWN),
     "NotFoundError", "NOT_FOUND"),
    ("webhook_endpoints without a key", lambda t: t.spectator.webhook_endpoints(),
     "UnauthorizedError", "UNAUTHORIZED"),
    ("webhook_endpoint unknown", lambda t: t.tenant.webhook_endpoint("no-such-endpoint"),
     "NotFoundError", "NOT_FOUND"),
    ("webhook_events after a cursor that is none", lambda t: t.tenant.webhook_events(
        after="not-a-cursor"), "BadInputError", "BAD_USER_INPUT"),
    ("create_webhook_endpoint to a loopback address", lambda t: t.tenant
     .create_webhook_endpoint("https://127.0.0.1/hooks"), "BadInputError", "BAD_USER_INPUT"),
    ("update_webhook_endpoint unknown", lambda t: t.tenant.update_webhook_endpoint(
        "no-such-endpoint", enabled=False), "NotFoundError", "NOT_FOUND"),
    ("delete_webhook_endpoint unknown", lambda t: t.tenant.delete_webhook_endpoint(
        "no-such-endpoint"), "NotFoundError", "NOT_FOUND"),
    ("rotate_webhook_secret unknown", lambda t: t.tenant.rotate_webhook_secret(
        "no-such-endpoint"), "NotFoundError", "NOT_FOUND"),
    ("redeliver_webhook_event unknown", lambda t: t.tenant.redeliver_webhook_event(
        "no-such-endpoint", "no-such-event"), "NotFoundError", "NOT_FOUND"),
    ("retry_webhook_event unknown", lambda t: t.tenant.retry_webhook_event(
        "no-such-endpoint", "no-such-event"), "NotFoundError", "NOT_FOUND"),
    ("send_test_webhook_event unknown", lambda t: t.tenant.send_test_webhook_event(
        "no-such-endpoint"), "NotFoundError", "NOT_FOUND"),
    ("lobby of an unknown id", lambda t: t.spectator.lobby(UNKNOWN), "NotFoundError",
     "NOT_FOUND"),
    ("join_game without a player token", lambda t: t.spectator.join_game(game_id=t.game_id),
     "UnauthorizedError", "UNAUTHORIZED"),
    ("join_game with a code that is none", lambda t: t.player.join_game(code="ZZZZZZ"),
     "NotFoundError", "NOT_FOUND"),
    ("leave_game without a player token", lambda t: t.spectator.leave_game(t.game_id),
     "UnauthorizedError", "UNAUTHORIZED"),
    ("my_games without a player token", lambda t: t.spectator.my_games(),
     "UnauthorizedError", "UNAUTHORIZED"),
    ("issue_player_token without a key", lambda t: t.spectator.issue_player_token("p"),
     "UnauthorizedError", "UNAUTHORIZED"),
    ("revoke_player_tokens without a key", lambda t: t.spectator.revoke_player_tokens("p"),
     "UnauthorizedError", "UNAUTHORIZED"),
    ("matchmaking of a player id too long", lambda t: t.tenant.matchmaking("p" * 300),
     "BadInputError", "BAD_USER_INPUT"),
    ("enter_matchmaking without a key", lambda t: t.spectator.enter_matchmaking(
        "TREELINGS", 2, "p"), "UnauthorizedError", "UNAUTHORIZED"),
    ("leave_matchmaking of a player who waits in none", lambda t: t.tenant.leave_matchmaking(
        "sdk-nobody-waits"), "RejectedError", "NOT_QUEUED"),
    ("leaderboard without a key", lambda t: t.spectator.leaderboard("TREELINGS"),
     "UnauthorizedError", "UNAUTHORIZED"),
    ("rating without a key", lambda t: t.spectator.rating("p", "TREELINGS"),
     "UnauthorizedError", "UNAUTHORIZED"),
    ("rating_policy without a key", lambda t: t.spectator.rating_policy(),
     "UnauthorizedError", "UNAUTHORIZED"),
    ("set_rating_policy out of range", lambda t: t.tenant.set_rating_policy(-1),
     "BadInputError", "BAD_USER_INPUT"),
]  # fmt: skip


@pytest.mark.parametrize(("asked", "call", "kind", "code"), REFUSALS, ids=[r[0] for r in REFUSALS])
async def test_a_refusal_is_a_typed_error(
    table: Table, asked: str, call: Call, kind: str, code: str
) -> None:
    with pytest.raises(table.rules.RulesError) as refused:
        await call(table)
    assert type(refused.value).__name__ == kind, (asked, refused.value)
    assert refused.value.code is table.rules.ErrorCode(code), (asked, refused.value)
    assert refused.value.message


async def test_a_refused_decision_says_why_in_the_language_asked(table: Table) -> None:
    """ILLEGAL_MOVE carries the game's reason, its ruling and its message in en-XA (the
    pseudo-locale); STALE_VERSION the game's version."""
    rules = table.rules
    with pytest.raises(rules.RejectedError) as illegal:
        await table.seats[0].apply_move(
            table.game_id, {"treelingsTakeColour": {"colour": "PURPLE"}}, language="en-XA"
        )
    assert illegal.value.code is rules.ErrorCode.ILLEGAL_MOVE
    assert illegal.value.reason and illegal.value.rule, illegal.value
    assert illegal.value.said is not None and illegal.value.said.text.startswith("⟦")
    with pytest.raises(rules.RejectedError) as stale:
        await _stale(table)
    assert stale.value.current_version == table.version


async def test_a_dry_run_answers_its_refusal_as_a_value(table: Table) -> None:
    """validate_move is asked whether a move would be refused: the refusal is its answer."""
    rules = table.rules
    unknown = await table.seats[0].validate_move(UNKNOWN, {"treelingsTakeSingletons": True})
    assert not unknown.valid and unknown.code is rules.RejectCode.NOT_FOUND
    waiting = await _waiting(table).validate_move(table.game_id, await _legal(table))
    assert not waiting.valid and waiting.code is rules.RejectCode.NOT_YOUR_TURN
    assert waiting.localized_message is not None
    legal = await table.seats[0].validate_move(table.game_id, await _legal(table))
    assert legal.valid and legal.code is None


async def test_a_revoked_token_is_unauthorized(table: Table) -> None:
    """After reissue_seat_token the old token is refused; the new one plays."""
    rules = table.rules
    created = await table.tenant.create_game(rules.GameKind.TREELINGS, 2, seed="sdk-revoked")
    old = table.tenant.with_token(created.seats[0].token)
    assert (await old.legal_moves(created.game.id)).viewer == 0
    fresh = await table.tenant.reissue_seat_token(created.game.id, 0)
    with pytest.raises(rules.UnauthorizedError):
        await old.legal_moves(created.game.id)
    assert (await table.tenant.with_token(fresh.token).legal_moves(created.game.id)).viewer == 0


async def test_a_key_written_as_its_rules_api_keys_entry_is_told_apart(table: Table) -> None:
    """`tenant:secret` (the server's setting) instead of the secret: UNAUTHORIZED that says
    to send the secret alone; an unknown key's message does not."""
    rules = table.rules
    with pytest.raises(rules.UnauthorizedError) as malformed:
        await table.client(api_key=f"studio:{SECRET}").create_game("TREELINGS", 2)
    with pytest.raises(rules.UnauthorizedError) as unknown:
        await table.client(api_key="not-a-key").create_game("TREELINGS", 2)
    assert "tenant:secret" in malformed.value.message, malformed.value
    assert "tenant:secret" not in unknown.value.message, unknown.value


async def test_texts_come_in_the_language_asked(table: Table) -> None:
    """The client's language (Accept-Language) and a call's own `language`."""
    pseudo = table.client(token=table.seats[0].token, language="en-XA")
    moves = await pseudo.legal_moves(table.game_id)
    assert moves.legal_moves[0].label_message.text.startswith("⟦")
    english = await pseudo.legal_moves(table.game_id, language="en")
    assert english.legal_moves[0].label_message.text == english.legal_moves[0].label


async def test_webhook_endpoints_from_create_to_delete(table: Table) -> None:
    """The endpoint operations' happy path, and the tests asked for by hand bounded: the
    11th in a minute is RATE_LIMITED with the seconds to wait."""
    rules = table.rules
    made = await table.tenant.create_webhook_endpoint(
        PUBLIC_HOOK, events=[rules.WebhookEventType.GAME_FINISHED], description="sdk"
    )
    assert made.secret.startswith("whsec_")
    endpoint = made.endpoint.id
    listed = await table.tenant.webhook_endpoints()
    assert endpoint in [each.id for each in listed]
    off = await table.tenant.update_webhook_endpoint(endpoint, enabled=False)
    assert off.enabled is False and off.status is rules.WebhookEndpointStatus.DISABLED
    await table.tenant.update_webhook_endpoint(endpoint, enabled=True)
    rotated = await table.tenant.rotate_webhook_secret(endpoint, idempotency_key="sdk-rotate")
    again = await table.tenant.rotate_webhook_secret(endpoint, idempotency_key="sdk-rotate")
    assert rotated.secret == again.secret != made.secret  # the retry answers the same secret
    with pytest.raises(rules.RateLimitedError) as limited:
        for _ in range(20):
            assert await table.tenant.send_test_webhook_event(endpoint)
    assert limited.value.code is rules.ErrorCode.RATE_LIMITED
    assert limited.value.retry_after is not None and limited.value.retry_after >= 1
    assert (await table.tenant.webhook_events(first=5)).page_info is not None
    assert await table.tenant.delete_webhook_endpoint(endpoint) is True
    with pytest.raises(rules.NotFoundError):
        await table.tenant.webhook_endpoint(endpoint)


async def test_the_request_rate_limit_is_rate_limited_with_its_retry_after(
    redis_url: str, rules: ModuleType
) -> None:
    """The service's per-token limit answers /graphql with 429 and Retry-After before GraphQL
    runs: RateLimitedError with the seconds to wait, which a retry would honour."""
    settings = Settings(rate_limit_per_token=3, rate_limit_per_address=0)
    async with client_for(create_app(settings, redis_url)) as http:
        anyone = rules.AsyncRules("http://test", http_client=http, retry=rules.NO_RETRY)
        created = await anyone.create_game(rules.GameKind.TREELINGS, 2, seed="sdk-limited")
        seat = anyone.with_token(created.seats[0].token)
        with pytest.raises(rules.RateLimitedError) as limited:
            for _ in range(30):
                await seat.legal_moves(created.game.id)
    assert limited.value.code is rules.ErrorCode.RATE_LIMITED
    assert limited.value.retry_after is not None and limited.value.retry_after >= 1
    wait = rules.RetryPolicy().delay(1, limited.value.retry_after)
    assert wait >= limited.value.retry_after


async def test_players_join_open_seats_and_matchmaking_queues(table: Table) -> None:
    """A game with an open seat, joined with a player token (the same seat again), listed in
    the player's games; leaving a started game FORBIDDEN; a second pool ALREADY_QUEUED; a
    revoked player token UNAUTHORIZED."""
    rules = table.rules
    created = await table.tenant.create_game(rules.GameKind.TREELINGS, 2, open_seats={1: None})
    lobby = await table.tenant.lobby(created.game.id)
    assert [seat.seat for seat in lobby.open_seats] == [1] and not lobby.started
    token = (await table.tenant.issue_player_token("sdk-joiner")).token
    joiner = table.tenant.with_token(token)
    joined = await joiner.join_game(code=lobby.join_code)
    assert joined.seat == 1 and (await joiner.join_game(game_id=created.game.id)).seat == 1
    listed = await joiner.my_games()
    assert created.game.id in [edge.node.id for edge in listed.edges]
    with pytest.raises(rules.ForbiddenError):
        await joiner.leave_game(created.game.id)  # every seat is taken: the game started
    waiting = await table.tenant.enter_matchmaking(rules.GameKind.TREELINGS, 2, "sdk-seeker")
    assert waiting.state is rules.MatchmakingState.WAITING
    with pytest.raises(rules.RejectedError) as queued:
        await table.tenant.enter_matchmaking(rules.GameKind.TREELINGS, 3, "sdk-seeker")
    assert queued.value.code is rules.ErrorCode.ALREADY_QUEUED
    left = await table.tenant.leave_matchmaking("sdk-seeker")
    assert left.state is rules.MatchmakingState.NONE
    await table.tenant.revoke_player_tokens("sdk-joiner")
    with pytest.raises(rules.UnauthorizedError):
        await joiner.my_games()


async def test_ratings_and_languages(table: Table) -> None:
    """No rating before a rated game; an empty leaderboard; the languages with en-XA marked a
    pseudo-locale and English complete."""
    rules = table.rules
    assert await table.tenant.rating("sdk-unrated", rules.GameKind.TREELINGS) is None
    assert (await table.tenant.leaderboard(rules.GameKind.TREELINGS)).edges == []
    assert (await table.tenant.rating_policy()).max_takebacks >= 0
    languages = {language.tag: language for language in await table.spectator.languages()}
    assert languages["en"].coverage == 1.0 and languages["en-XA"].pseudo


async def test_a_player_token_queues_as_its_own_player(table: Table) -> None:
    """With a player token no player id is sent: the seek, the status and the leave are the
    token's player's; another player's id is FORBIDDEN, and the tenant's key without an id is
    BAD_USER_INPUT."""
    rules = table.rules
    waiting = await table.player.enter_matchmaking(rules.GameKind.TREETOPIA, 2)
    assert waiting.state is rules.MatchmakingState.WAITING and waiting.player_id == "sdk-player"
    assert (await table.player.matchmaking()).state is rules.MatchmakingState.WAITING
    with pytest.raises(rules.ForbiddenError):
        await table.player.matchmaking("sdk-someone-else")
    with pytest.raises(rules.BadInputError):
        await table.tenant.matchmaking()
    left = await table.player.leave_matchmaking()
    assert left.state is rules.MatchmakingState.NONE and left.player_id == "sdk-player"


async def test_a_challenge_is_accepted_by_joining_and_declined_for_everyone(table: Table) -> None:
    """The challenger's player token makes the game (seat 0's token answered); it waits in the
    challenged player's challenges until joined, which starts it; a second one declined is
    ABANDONED and declining again is refused."""
    rules = table.rules
    rival = table.tenant.with_token((await table.tenant.issue_player_token("sdk-rival")).token)
    challenge = await table.player.create_challenge(rules.GameKind.TREELINGS, ["sdk-rival"])
    assert challenge.seat_token and challenge.game.players == 2
    pending = await rival.my_challenges()
    assert [(item.seat, item.game.id) for item in pending] == [(1, challenge.game.id)]
    joined = await rival.join_game(game_id=challenge.game.id)
    assert joined.seat == 1 and joined.game.to_act, "the last seat taken starts the game"
    assert await rival.my_challenges() == []
    declined = await table.player.create_challenge(
        rules.GameKind.TREELINGS, ["sdk-rival"], expires_in_seconds=600
    )
    over = await rival.decline_challenge(declined.game.id)
    assert over.status is rules.GameStatus.ABANDONED
    with pytest.raises(rules.RulesError):
        await rival.decline_challenge(declined.game.id)
    by_key = await table.tenant.create_challenge(
        rules.GameKind.TREELINGS, ["sdk-rival"], challenger_id="sdk-player"
    )
    assert by_key.game.id in [item.game.id for item in await rival.my_challenges()]


async def _game_over(table: Table) -> tuple[str, list[Any]]:
    created = await table.tenant.create_game(table.rules.GameKind.TREELINGS, 2)
    seats = [table.tenant.with_token(seat.token) for seat in created.seats]
    await seats[0].resign(created.game.id)
    return created.game.id, seats


async def test_a_rematch_is_offered_accepted_and_declined_by_seat_tokens(table: Table) -> None:
    """None before an offer; the first offer makes the rematch and takes the offerer's seat,
    offering again answers the same game (and the same token); the other seat accepts with its
    old token and gets the new seat's; a second rematch declined is ABANDONED; a game still
    ACTIVE has none to offer (GAME_NOT_OVER)."""
    rules = table.rules
    game_id, seats = await _game_over(table)
    assert await seats[0].rematch(game_id) is None
    assert (await seats[0].game(game_id)).rematch is None
    offered = await seats[0].offer_rematch(game_id)
    again = await seats[0].offer_rematch(game_id)
    assert offered.seat == 0 and offered.seat_token and again.seat_token == offered.seat_token
    assert again.game.id == offered.game.id == (await table.tenant.rematch(game_id)).game_id
    assert (await seats[1].game(game_id)).rematch.game_id == offered.game.id
    accepted = await seats[1].accept_rematch(game_id)
    assert accepted.seat == 1 and accepted.seat_token
    started = await table.tenant.with_token(accepted.seat_token).game(accepted.game.id)
    assert started.viewer == 1 and started.to_act, "both seats taken: the rematch started"
    declined_id, declined_seats = await _game_over(table)
    await declined_seats[1].offer_rematch(declined_id)
    declined = await declined_seats[0].decline_rematch(declined_id)
    assert declined.status is rules.GameStatus.ABANDONED
    with pytest.raises(rules.RejectedError) as early:
        await table.seats[0].offer_rematch(table.game_id)
    assert early.value.code is rules.ErrorCode.GAME_NOT_OVER
