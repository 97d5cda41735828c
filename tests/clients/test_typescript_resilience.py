"""The TypeScript SDK when things go wrong, against a real service process: game events resume
after dropped sockets, a move whose answer was lost is retried with its idempotency key and
applied once, a create is not sent twice, a service that is gone ends in a RulesError, a
RATE_LIMITED call waits the retryAfter the service names, every refusal of every operation
and of the game events is a RulesError with its typed code, and the players' operations (open
seats, player tokens, matchmaking on playerEvents, ratings) work with a tenant's API key, and a
player token queues, challenges and rematches without naming its player.

The connections are cut by a TCP proxy on loopback inside the node script
(tests/clients/node/sdk/proxy.mjs), not by a fake of the service."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from service.store.embedded import free_port
from tests.clients.conftest import Service, require
from tests.clients.test_typescript_sdk import KEY, _run, built, keyed, node_modules  # noqa: F401
from tests.support.processes import service_processes

pytestmark = pytest.mark.slow  # node processes and whole games

SCRIPTS = Path(__file__).parent / "node" / "sdk"


def _node(dist: Path, script: str, service: Service) -> dict[str, Any]:
    node = require("node", "apt-get install nodejs")
    output = _run([node, SCRIPTS / script, dist / "index.js", service.url], SCRIPTS, 300)
    summary: dict[str, Any] = json.loads(output.strip().splitlines()[-1])
    print(json.dumps(summary))  # shown on a failure, and with -s
    return summary


def test_events_resume_after_dropped_sockets_and_moves_retry_with_their_key(
    built: Path,  # noqa: F811
    service: Service,
) -> None:
    summary = _node(built, "resilience.mjs", service)

    resume = summary["resume"]
    versions = resume["versions"]
    assert resume["status"] == "FINISHED", resume
    # every version once, in order, across two cut sockets, up to the last
    assert versions == list(range(versions[0], versions[0] + len(versions))), versions
    assert versions[-1] == resume["history"], "the last event is the game's last version"
    assert len(resume["retries"]) >= 2, "each cut socket was opened again"
    for retry in resume["retries"]:
        assert retry["rulesError"] and retry["isError"], retry
        assert retry["code"] == "UNAVAILABLE", retry

    lost = summary["lostAnswer"]
    assert lost["typename"] == "MoveApplied" and lost["replayed"] is True, lost
    assert lost["decisions"] == 1, "the move was applied once"
    assert [retry["code"] for retry in lost["retries"]] == ["UNAVAILABLE"], lost

    create = summary["lostCreate"]
    assert create["rulesError"] and create["code"] == "UNAVAILABLE", create
    assert create["retries"] == [], "a create without a key is never sent twice"

    gone = summary["gone"]
    for failure in [gone["query"], gone["events"]]:
        assert failure["rulesError"] and failure["isError"], failure
        assert failure["code"] == "UNAVAILABLE", failure
    assert gone["retries"] == ["UNAVAILABLE"] * 4, "2 retries each, then the error"


# what each call answers: a RulesError's code, a MoveRejected's code, or a value
EXPECTED: dict[str, dict[str, Any]] = {
    "eventsOfAnUnknownGame": {"code": "NOT_FOUND"},
    "eventsAfterTheGamesVersion": {"code": "BAD_USER_INPUT"},
    "eventsWithABadToken": {"code": "UNAUTHORIZED"},
    "legalMovesWithABadToken": {"code": "UNAUTHORIZED"},
    "anUnknownGame": {"value": None},
    "anotherSeatsView": {"code": "FORBIDDEN"},
    "exportAnActiveGame": {"code": "GAME_NOT_OVER"},
    "createWithTooManyPlayers": {"code": "BAD_USER_INPUT"},
    "applyAtAStaleVersion": {"value": "MoveRejected", "code": "STALE_VERSION"},
    "applyOutOfTurn": {"value": "MoveRejected", "code": "NOT_YOUR_TURN"},
    "validateOutOfTurn": {"value": "NOT_YOUR_TURN"},
    "resignWithABadToken": {"value": "MoveRejected", "code": "UNAUTHORIZED"},
    "takebackWhereNoneAllowed": {"value": "MoveRejected", "code": "TAKEBACK_NOT_ALLOWED"},
    "suggestAsASpectator": {"code": "UNAUTHORIZED"},
    "reissueForAnUnknownGame": {"code": "NOT_FOUND"},
    "abandonAnUnknownGame": {"value": "MoveRejected", "code": "NOT_FOUND"},
    "updateAnUnknownEndpoint": {"code": "NOT_FOUND"},
    "createAnEndpointWithABadUrl": {"code": "BAD_USER_INPUT"},
    "verifyARecordThatIsNone": {"value": False},
}


def test_every_refusal_is_a_rules_error_with_its_code(
    built: Path,  # noqa: F811
    service: Service,
) -> None:
    summary = _node(built, "errors.mjs", service)
    assert sorted(summary) == sorted(EXPECTED)
    for name, expected in EXPECTED.items():
        answered = summary[name]
        if "value" not in expected:  # thrown: a RulesError, which is an Error
            assert answered.get("rulesError") is True and answered.get("isError") is True, name
        assert {key: answered.get(key) for key in expected} == expected, f"{name}: {answered}"


@pytest.fixture(scope="module")
def hooks_service(redis_url: str) -> Iterator[str]:
    """A service whose webhook endpoints may be on loopback (nothing is delivered off it)."""
    env = {"RULES_WEBHOOK_ALLOW_PRIVATE": "1", "RULES_RATE_LIMIT_PER_ADDRESS": "0"}
    with service_processes(redis_url, 1, {**env, "RULES_RATE_LIMIT_PER_TOKEN": "0"}) as urls:
        yield urls[0]


def test_rate_limited_calls_wait_the_retry_after_the_service_names(
    built: Path,  # noqa: F811
    hooks_service: str,
) -> None:
    node = require("node", "apt-get install nodejs")
    hook = f"http://127.0.0.1:{free_port()}/hook"  # nobody listens: deliveries just fail
    output = _run([node, SCRIPTS / "rate.mjs", built / "index.js", hooks_service, hook], SCRIPTS)
    summary = json.loads(output.strip().splitlines()[-1])
    print(json.dumps(summary))
    refused = summary["refused"]
    assert refused["rulesError"] is True and refused["code"] == "RATE_LIMITED", summary
    assert summary["sent"] == 10, "10 test events a minute for an endpoint"
    waits = summary["waits"]
    assert [wait["code"] for wait in waits] == ["RATE_LIMITED"], summary
    assert waits[0]["waitMs"] == refused["retryAfter"] * 1000 > 0, "the service's wait, exactly"
    assert summary["elapsedMs"] >= waits[0]["waitMs"] and summary["eventId"] == "string"


@pytest.fixture(scope="module")
def players(built: Path, keyed: str) -> dict[str, Any]:  # noqa: F811
    """tests/clients/node/sdk/players.mjs's summary, run once for the tests below."""
    node = require("node", "apt-get install nodejs")
    output = _run([node, SCRIPTS / "players.mjs", built / "index.js", keyed], SCRIPTS,
                  300, RULES_API_KEY=KEY)  # fmt: skip
    summary: dict[str, Any] = json.loads(output.strip().splitlines()[-1])
    print(json.dumps(summary))
    return summary


def test_players_join_queue_and_are_rated_through_the_sdk(players: dict[str, Any]) -> None:
    summary = players
    assert {"en", "fr"} <= set(summary["languages"]), summary
    assert summary["joinCode"] == "string" and summary["startedBefore"] is False, summary
    assert summary["joinedSeat"] == 1 and summary["startedAfter"] is True, summary
    assert summary["listed"] is True, "myGames lists the game the player joined"
    assert summary["waiting"] == "WAITING"
    # the status now, then the match made for the player, with its seat token
    assert summary["statuses"][0] == {"state": "WAITING", "token": "object"}, summary
    assert summary["statuses"][-1] == {"state": "MATCHED", "token": "string"}, summary
    ratings = summary["ratings"]  # no archive here: nothing rated, and no policy to set
    assert ratings["rating"] == {"value": None} and ratings["leaderboard"]["value"]["edges"] == []
    assert ratings["policy"] == {"value": {"maxTakebacks": 0}}, ratings
    assert ratings["setPolicy"] == {"rulesError": True, "code": "BAD_USER_INPUT"}, ratings
    assert summary["revoked"] == {"rulesError": True, "code": "UNAUTHORIZED"}, summary


def test_a_player_token_queues_challenges_and_rematches_through_the_sdk(
    players: dict[str, Any],
) -> None:
    """What a player token and seat tokens do without naming a player."""
    summary = players
    seek = summary["tokenSeek"]  # no playerId sent: the token's own player
    assert seek["entered"] == "WAITING" and seek["left"] == "NONE", seek
    assert seek["read"]["playerId"].startswith("eve-") and seek["read"]["state"] == "WAITING"
    assert seek["another"] == {"rulesError": True, "code": "FORBIDDEN"}, seek
    statuses = summary["tokenStatuses"]
    assert statuses[0]["state"] == "WAITING" and statuses[-1]["state"] == "MATCHED", statuses
    assert statuses[-1]["playerId"] == statuses[0]["playerId"] and statuses[-1]["token"]
    assert statuses[0]["type"] is None and statuses[-1]["type"] == "MATCHED", statuses
    challenges = summary["challenges"]
    assert challenges["seatToken"] == "string", challenges
    assert challenges["pending"] == [{"seat": 1, "gameId": True}], challenges
    assert challenges["accepted"] == {"seat": 1, "status": "ACTIVE", "toAct": [0]}, challenges
    assert challenges["declined"] == "ABANDONED", challenges
    assert challenges["again"]["rulesError"] is True, challenges
    rematches = summary["rematches"]
    assert rematches["before"] == {"value": None}, "no rematch until a seat offers one"
    assert rematches["offered"]["seat"] == 0 and rematches["offered"]["token"] == "string"
    assert rematches["sameGame"] is True, "offering again and reading it answer the same game"
    assert rematches["accepted"] == {"seat": 1, "token": "string", "status": "ACTIVE"}, rematches
    assert rematches["started"] == [0], "the last seat taken starts the rematch"
    assert rematches["declined"] == "ABANDONED", rematches
    assert rematches["notOver"] == {"rulesError": True, "code": "GAME_NOT_OVER"}, rematches
