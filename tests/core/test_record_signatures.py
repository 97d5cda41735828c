"""Game records signed by the service (service/core/records/signing.py): exported signed by
the real app over a real Redis, VALID on both APIs and offline (`python -m service.replay
--public-key`), INVALID after any edit, UNKNOWN_KEY under a key the server does not publish
until RULES_RECORD_VERIFY_KEYS names it, unsigned records as they always were; the keys
published, the private key nowhere; a malformed key a startup error; hostile signature members
a typed answer. The signed bytes are RFC 8785's, as another language makes them (node)."""

from __future__ import annotations

import base64
import dataclasses
import hashlib
import json
import logging
import os
import shutil
import struct
import subprocess
import sys
import traceback
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import msgspec
import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from service.app import create_app
from service.core.records.format import GameRecord
from service.core.records.signing import (
    Keyring,
    KeySettingError,
    NotCanonical,
    Signer,
    canonical,
    unsigned,
)
from service.replay import main
from service.settings import Settings
from tests.conftest import Api, client_for
from tests.support import gql
from tests.support.play import apply, create, create_game, play_to_end

Document = dict[str, Any]
EXPORT = "query E($id: ID!) { exportGame(gameId: $id) }"
VERIFY = """
query V($record: JSON!) {
  verifyGameRecord(record: $record) {
    valid kind version scores difference { version reason message } signature keyId
  }
}"""
KEYS = "{ recordSigningKeys { keyId algorithm publicKey } }"
CLOCKED = """
mutation C($input: CreateGameInput!) {
  createGame(input: $input) { game { id version status toAct } seats { token } }
}"""


def b64url(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()


def seed_of(name: str) -> bytes:
    return hashlib.sha256(f"tests: {name}".encode()).digest()


def public_key(seed: bytes) -> str:
    return b64url(Ed25519PrivateKey.from_private_bytes(seed).public_key().public_bytes_raw())


def key_id(seed: bytes) -> str:
    raw = Ed25519PrivateKey.from_private_bytes(seed).public_key().public_bytes_raw()
    return hashlib.sha256(raw).hexdigest()[:16]


SEED, RETIRED, OTHER = seed_of("the signing key"), seed_of("a retired key"), seed_of("another")
SIGNING_KEY = b64url(SEED)


def signer(seed: bytes) -> Signer:
    return Signer(Ed25519PrivateKey.from_private_bytes(seed))


@pytest.fixture(scope="module")
def redis_url(quiet_redis_url: str) -> str:
    return quiet_redis_url


def app_settings(signing_key: str = "", verify_keys: tuple[str, ...] = ()) -> Settings:
    return Settings(
        rate_limit_per_token=0,
        rate_limit_per_address=0,
        record_signing_key=signing_key,
        record_verify_keys=verify_keys,
    )


@pytest.fixture(scope="module")
async def signed(redis_url: str) -> AsyncIterator[Api]:
    """The app with a signing key and a retired key it still accepts."""
    app = create_app(app_settings(SIGNING_KEY, (public_key(RETIRED),)), redis_url)
    async with client_for(app) as http:
        yield Api(http)


@pytest.fixture(scope="module")
async def unsigned_app(redis_url: str) -> AsyncIterator[Api]:
    """The app as `make run` starts it: no signing key (development)."""
    async with client_for(create_app(app_settings(), redis_url)) as http:
        yield Api(http)


async def exported(api: Api, game_id: str) -> tuple[Document, bytes]:
    """The record over GraphQL, checked to be REST's, and REST's bytes."""
    record: Document = (await api.gql(EXPORT, {"id": game_id}))["exportGame"]
    rest = await api.http.get(f"/v1/games/{game_id}/record")
    assert rest.status_code == 200, rest.text
    assert rest.json() == record
    return record, rest.content


async def verified(api: Api, record: Any) -> Document:
    """verifyGameRecord's answer, checked to be REST's too."""
    answer: Document = (await api.gql(VERIFY, {"record": record}))["verifyGameRecord"]
    rest = await api.http.post("/v1/game-records/verify", json=record)
    assert rest.status_code == 200, rest.text
    assert rest.json() == answer
    return answer


@pytest.fixture(scope="module")
async def games(signed: Api) -> dict[str, str]:
    """Two games that are over: one played to its end, and one with a turn clock (its seconds
    are floats in the record: 30.0, and 1e-05, which JSON.stringify writes 0.00001) resigned."""
    game, tokens = await create(signed, "TREELINGS", 2, seed="sealed")
    await play_to_end(signed, game, tokens, seed="sealed")
    clock = {"perDecisionSeconds": 30, "incrementSeconds": 0.00001, "onTimeout": "FORFEIT"}
    payload = await create_game(signed.http, document=CLOCKED, kind="TREELINE", clock=clock)
    clocked, seats = payload["game"], [s["token"] for s in payload["seats"]]
    acting = seats[clocked["toAct"][0]]
    seen = (await signed.gql(gql.GAME, {"id": clocked["id"]}, acting))["game"]
    await apply(signed, clocked["id"], acting, seen["legalMoves"][0]["move"])
    await signed.gql(gql.RESIGN, {"id": clocked["id"]}, seats[0])
    return {"played": game["id"], "clocked": clocked["id"]}


@pytest.fixture(scope="module")
async def records(signed: Api, games: dict[str, str]) -> dict[str, Document]:
    return {name: (await exported(signed, game_id))[0] for name, game_id in games.items()}


async def test_a_signed_export_ends_with_its_signature(records: dict[str, Document]) -> None:
    for name, record in records.items():
        assert list(record)[-1] == "signature", name
        signature = record["signature"]
        assert signature["keyId"] == key_id(SEED) and signature["algorithm"] == "Ed25519"
        assert len(base64.urlsafe_b64decode(signature["value"] + "==")) == 64
        msgspec.convert(record, GameRecord)  # the published schema's type reads it


async def test_signed_records_are_valid_on_graphql_and_rest(
    signed: Api, records: dict[str, Document]
) -> None:
    for record in records.values():
        answer = await verified(signed, record)
        assert answer["valid"] and answer["difference"] is None, answer
        assert answer["signature"] == "VALID" and answer["keyId"] == key_id(SEED)
    assert records["clocked"]["clock"]["incrementSeconds"] == 0.00001


def test_a_signed_record_is_valid_offline_with_its_public_key(
    records: dict[str, Document], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "signed.json"
    path.write_text(json.dumps(records["played"]))
    key = ["--public-key", public_key(SEED)]
    assert main([str(path), *key, "--require-signature"]) == 0
    said = capsys.readouterr().out.splitlines()
    assert said[0].startswith("valid: TREELINGS, ")
    assert said[1] == f"signature: VALID (key {key_id(SEED)})"
    # without its key: the key id and UNKNOWN_KEY; the game's exit status, unless required
    assert main([str(path)]) == 0
    assert f"signature: UNKNOWN_KEY (key {key_id(SEED)})" in capsys.readouterr().out
    assert main([str(path), "--require-signature", "--public-key", public_key(OTHER)]) == 3
    # edited after signing: still a valid game, its signature INVALID
    edited = {**records["played"], "ended": "2030-01-01T00:00:00.000+00:00"}
    path.write_text(json.dumps(edited))
    assert main([str(path), *key]) == 0
    assert f"signature: INVALID (key {key_id(SEED)})" in capsys.readouterr().out
    assert main([str(path), *key, "--require-signature"]) == 3
    assert main([str(path), "--public-key", "not a key"]) == 2
    assert "--public-key: key 1 is not" in capsys.readouterr().err


def test_the_command_checks_a_signature_as_a_process(
    records: dict[str, Document], tmp_path: Path
) -> None:
    path = tmp_path / "signed.json"
    path.write_text(json.dumps(records["clocked"]))
    command = [sys.executable, "-m", "service.replay", str(path), "--require-signature"]
    run = subprocess.run(
        [*command, "--public-key", public_key(RETIRED), "--public-key", public_key(SEED)],
        capture_output=True, text=True, timeout=60, check=False,
    )  # fmt: skip
    assert run.returncode == 0, run.stdout + run.stderr
    assert run.stdout.splitlines()[1] == f"signature: VALID (key {key_id(SEED)})"


def test_the_signed_bytes_are_rfc_8785_as_javascript_makes_them(
    records: dict[str, Document], tmp_path: Path
) -> None:
    """Another language, with nothing of this service: JSON.stringify with sorted members is
    JCS for these records, and node's own Ed25519 checks the signature."""
    node = shutil.which("node")
    if node is None:
        if os.environ.get("RULES_REQUIRE_ALL_TESTS") == "1":
            pytest.fail("node is not on PATH; RULES_REQUIRE_ALL_TESTS=1 needs it")
        pytest.skip("node is not on PATH (apt-get install nodejs)")
    script = """
const crypto = require("crypto");
const [record, key] = JSON.parse(require("fs").readFileSync(0, "utf8"));
const jcs = (v) => Array.isArray(v) ? `[${v.map(jcs).join(",")}]`
  : v !== null && typeof v === "object"
    ? `{${Object.keys(v).sort().map((k) => `${JSON.stringify(k)}:${jcs(v[k])}`).join(",")}}`
    : JSON.stringify(v);
const { signature, ...content } = record;
const bytes = Buffer.from(jcs(content), "utf8");
const publicKey = crypto.createPublicKey({ key: { kty: "OKP", crv: "Ed25519", x: key }, format: "jwk" });
const valid = crypto.verify(null, bytes, publicKey, Buffer.from(signature.value, "base64url"));
console.log(JSON.stringify({ valid, bytes: bytes.toString("base64") }));
"""
    for record in records.values():
        run = subprocess.run(
            [node, "-e", script], input=json.dumps([record, public_key(SEED)]),
            capture_output=True, text=True, timeout=60, check=False,
        )  # fmt: skip
        assert run.returncode == 0, run.stderr
        answer = json.loads(run.stdout)
        assert base64.b64decode(answer["bytes"]) == canonical(unsigned(record))
        assert answer["valid"] is True
    assert b'"incrementSeconds":0.00001' in canonical(records["clocked"])


def _same(a: Any, b: Any) -> bool:
    """The same JSON value: numbers by value (30.0 is 30), everything else by type too."""
    if isinstance(a, bool) or isinstance(b, bool):
        return a is b
    if isinstance(a, int | float) and isinstance(b, int | float):
        return a == b
    if type(a) is not type(b):
        return False
    if isinstance(a, list):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b, strict=True))
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(_same(a[k], b[k]) for k in a)
    return bool(a == b)


def _paths(value: Any, at: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    found = [at]
    if isinstance(value, dict):
        for name, item in value.items():
            found += _paths(item, (*at, name))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            found += _paths(item, (*at, index))
    return found


JSON_VALUES = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(2**53), 2**53)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=4), inner),
    max_leaves=6,
)
EDITS = st.sampled_from(["replace", "delete", "add"])


@settings(
    max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(data=st.data())
def test_any_edit_after_signing_is_invalid(records: dict[str, Document], data: Any) -> None:
    """Any value replaced, any member or item removed or added, anywhere in the record but
    its signature: INVALID, unless the edit leaves the same JSON (30 for 30.0)."""
    keys = Keyring.from_settings(SIGNING_KEY, ())
    record = records[data.draw(st.sampled_from(sorted(records)))]
    content = unsigned(record)
    edited = json.loads(json.dumps(content))
    path = data.draw(st.sampled_from(_paths(content)[1:]))
    parent = edited
    for part in path[:-1]:
        parent = parent[part]
    last, edit = path[-1], data.draw(EDITS)
    if edit == "replace":
        parent[last] = data.draw(JSON_VALUES)
    elif edit == "delete":
        del parent[last]
    elif isinstance(parent, list):
        parent.insert(last, data.draw(JSON_VALUES))
    else:
        parent[data.draw(st.text(max_size=6).filter(lambda name: name != "signature"))] = data.draw(
            JSON_VALUES
        )
    expected = "VALID" if _same(edited, content) else "INVALID"
    assert keys.check({**edited, "signature": record["signature"]}) == (expected, key_id(SEED))


async def test_an_edited_record_is_still_replayed_its_signature_invalid(
    signed: Api, records: dict[str, Document]
) -> None:
    """Whether the game is legal and who produced the record are separate answers: an edit
    the replay cannot see (the end time, the game id) is caught by the signature alone."""
    record = records["played"]
    for unseen in ({"ended": "2030-01-01T00:00:00.000+00:00"}, {"gameId": "another"}):
        answer = await verified(signed, {**record, **unseen})
        assert answer["valid"] and answer["signature"] == "INVALID", answer
        assert answer["keyId"] == key_id(SEED)
    steps = json.loads(json.dumps(record["steps"]))
    steps[2]["digest"] = "0" * 64
    answer = await verified(signed, {**record, "steps": steps})
    assert answer["difference"]["version"] == 3 and answer["signature"] == "INVALID"
    result = {**record["result"], "version": 2**60}  # no exact JCS form: INVALID, not a 500
    answer = await verified(signed, {**record, "result": result})
    assert not answer["valid"] and answer["signature"] == "INVALID"


async def test_another_keys_record_is_unknown_until_verify_keys_names_it(
    signed: Api, records: dict[str, Document], redis_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A rotation: the new server signs with a new key and still accepts the old one, which it
    names in RULES_RECORD_VERIFY_KEYS (read from the environment, as a deployment sets it)."""
    new = seed_of("the next signing key")
    by_new = signer(new).sign(records["played"])
    answer = await verified(signed, by_new)
    assert answer["valid"] and answer["signature"] == "UNKNOWN_KEY"
    assert answer["keyId"] == key_id(new)
    monkeypatch.setenv("RULES_RECORD_SIGNING_KEY", b64url(new))
    monkeypatch.setenv("RULES_RECORD_VERIFY_KEYS", f" {public_key(SEED)} ,{public_key(RETIRED)}")
    rotated = dataclasses.replace(
        Settings.from_env(), rate_limit_per_token=0, rate_limit_per_address=0
    )
    async with client_for(create_app(rotated, redis_url)) as http:
        api = Api(http)
        for record, key in ((by_new, new), (records["played"], SEED)):
            answer = await verified(api, record)
            assert answer["signature"] == "VALID" and answer["keyId"] == key_id(key)
        by_other = signer(OTHER).sign(records["played"])
        assert (await verified(api, by_other))["signature"] == "UNKNOWN_KEY"
        keys = (await api.http.get("/v1/record-keys")).json()["keys"]
        assert [k["keyId"] for k in keys] == [key_id(new), key_id(SEED), key_id(RETIRED)]


async def test_unsigned_records_are_as_before_and_report_unsigned(
    signed: Api, unsigned_app: Api, games: dict[str, str]
) -> None:
    """Without a signing key a record is the very bytes it was before signatures: the signed
    export is those bytes with the signature as one last member."""
    for game_id in games.values():
        plain, plain_bytes = await exported(unsigned_app, game_id)
        record, signed_bytes = await exported(signed, game_id)
        assert b"signature" not in plain_bytes and "signature" not in plain
        assert signed_bytes.startswith(plain_bytes[:-1] + b',"signature":{')
        assert unsigned(record) == plain
        for api in (unsigned_app, signed):
            answer = await verified(api, plain)
            assert answer["valid"] and answer["signature"] == "UNSIGNED" and not answer["keyId"]
        # a server with no key knows none: a signed record is UNKNOWN_KEY there
        assert (await verified(unsigned_app, record))["signature"] == "UNKNOWN_KEY"
    assert (await unsigned_app.http.get("/v1/record-keys")).json() == {"keys": []}
    assert (await unsigned_app.gql(KEYS))["recordSigningKeys"] == []


async def test_the_keys_are_published_and_the_private_key_is_nowhere(
    signed: Api, redis_url: str, records: dict[str, Document], caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    answers: list[bytes] = []
    rest = await signed.http.get("/v1/record-keys")
    assert rest.status_code == 200 and rest.headers["cache-control"] == "public, max-age=300"
    answers.append(rest.content)
    expected = [
        {"keyId": key_id(seed), "algorithm": "Ed25519", "publicKey": public_key(seed)}
        for seed in (SEED, RETIRED)
    ]
    assert rest.json() == {"keys": expected}
    graphql = await signed.post(KEYS)
    answers.append(graphql.content)
    assert graphql.json()["data"]["recordSigningKeys"] == expected
    with_token = await signed.http.get("/v1/record-keys", headers={"authorization": "Bearer x"})
    assert with_token.json() == rest.json()
    answers.append((await signed.http.get("/openapi.json")).content)
    for record in records.values():
        answers.append(json.dumps(record).encode())
        answers.append((await signed.http.post("/v1/game-records/verify", json=record)).content)
    answers.append((await signed.post(EXPORT, {"id": "nope"})).content)
    with pytest.raises(KeySettingError) as refused:
        create_app(app_settings(SIGNING_KEY, (SIGNING_KEY,)), redis_url)
    shown = [
        "".join(traceback.format_exception(refused.value)),
        repr(app_settings(SIGNING_KEY)),
        repr(Keyring.from_settings(SIGNING_KEY, ())),
        caplog.text,
        *(record.getMessage() + (record.exc_text or "") for record in caplog.records),
    ]
    secrets = [SIGNING_KEY, base64.b64encode(SEED).decode().rstrip("="), SEED.hex()]
    for text in shown:
        assert not any(secret in text for secret in secrets), text
    for answer in answers:
        assert SEED not in answer
        assert not any(secret.encode() in answer for secret in secrets)


BAD_KEYS = {
    "not base64url": "this is not a key!",
    "31 bytes": b64url(SEED[:31]),
    "33 bytes": b64url(SEED + b"x"),
}


@pytest.mark.parametrize("bad", list(BAD_KEYS.values()), ids=list(BAD_KEYS))
def test_a_malformed_signing_key_fails_at_startup_naming_the_setting(
    bad: str, redis_url: str
) -> None:
    with pytest.raises(KeySettingError) as refused:
        create_app(app_settings(bad), redis_url)
    told = "".join(traceback.format_exception(refused.value))
    assert "RULES_RECORD_SIGNING_KEY" in str(refused.value)
    assert bad not in told


def test_malformed_verify_keys_fail_at_startup_naming_the_setting(redis_url: str) -> None:
    for verify_keys in ((public_key(SEED), "nope"), (b64url(b"short"),), (SIGNING_KEY,)):
        with pytest.raises(KeySettingError) as refused:
            create_app(app_settings(SIGNING_KEY, verify_keys), redis_url)
        told = "".join(traceback.format_exception(refused.value))
        assert "RULES_RECORD_VERIFY_KEYS" in told and SIGNING_KEY not in told
    # standard base64 and padding are read too; the key is the same
    padded = base64.b64encode(SEED).decode()
    assert (
        Keyring.from_settings(padded, ()).published()
        == Keyring.from_settings(SIGNING_KEY, ()).published()
    )


def test_the_container_does_not_start_with_a_malformed_key(redis_url: str) -> None:
    """As the image starts the API (`uvicorn --factory service.app:from_env`)."""
    bad = b64url(SEED[:20])
    env = {**os.environ, "REDIS_URL": redis_url, "RULES_RECORD_SIGNING_KEY": bad}
    run = subprocess.run(
        [sys.executable, "-c", "from service.app import from_env; from_env()"],
        env=env, capture_output=True, text=True, timeout=60, check=False,
    )  # fmt: skip
    assert run.returncode != 0
    assert "KeySettingError: RULES_RECORD_SIGNING_KEY holds 20 bytes" in run.stderr
    assert bad not in run.stderr + run.stdout


HOSTILE: dict[str, Any] = {
    "a number": 5,
    "a string": "signed!",
    "null": None,
    "a list": [],
    "empty": {},
    "a numeric key id": {"keyId": 5, "algorithm": "Ed25519", "value": "A" * 86},
    "another algorithm": {"keyId": key_id(SEED), "algorithm": "RS256", "value": "A" * 86},
    "not base64url": {"keyId": key_id(SEED), "algorithm": "Ed25519", "value": "!" * 86},
    "huge": {"keyId": key_id(SEED), "algorithm": "Ed25519", "value": "A" * 500_000},
    "padded": {"keyId": key_id(SEED), "algorithm": "Ed25519", "value": "A" * 86 + "=="},
    "wrong bytes": {"keyId": key_id(SEED), "algorithm": "Ed25519", "value": "A" * 86},
    "an extra member": {"keyId": key_id(SEED), "algorithm": "Ed25519", "value": "A" * 86, "x": 1},
    "upper case": {"keyId": key_id(SEED).upper(), "algorithm": "Ed25519", "value": "A" * 86},
}


async def test_hostile_signature_members_are_a_typed_answer(
    signed: Api, records: dict[str, Document]
) -> None:
    record = records["played"]
    for name, member in HOSTILE.items():
        answer = await verified(signed, {**record, "signature": member})
        assert answer["signature"] == "INVALID", name
        assert answer["valid"], (name, answer)  # the game itself still replays
    moved = {**record["signature"], "keyId": key_id(OTHER)}
    assert (await verified(signed, {**record, "signature": moved}))["signature"] == "UNKNOWN_KEY"
    retired = {**record["signature"], "keyId": key_id(RETIRED)}  # a key it knows, not this one
    assert (await verified(signed, {**record, "signature": retired}))["signature"] == "INVALID"
    # text that is no Unicode (a lone surrogate): refused unread, or INVALID: never a 500
    body = json.dumps({**record, "ended": "\ud800"}).encode()
    rest = await signed.http.post(
        "/v1/game-records/verify", content=body, headers={"content-type": "application/json"}
    )
    assert rest.status_code in (200, 400), rest.text
    if rest.status_code == 200:
        assert rest.json()["signature"] == "INVALID"
    graphql = await signed.http.post(
        "/graphql",
        content=b'{"query": %s, "variables": {"record": %s}}' % (json.dumps(VERIFY).encode(), body),
        headers={"content-type": "application/json"},
    )
    assert graphql.status_code in (200, 400), graphql.text
    assert "INTERNAL" not in graphql.text


# RFC 8785: Appendix B's numbers, and section 3.2.3's sorting by UTF-16 code units
NUMBERS = {
    "0000000000000000": "0",
    "8000000000000000": "0",
    "0000000000000001": "5e-324",
    "7fefffffffffffff": "1.7976931348623157e+308",
    "4340000000000000": "9007199254740992",
    "4430000000000000": "295147905179352830000",
    "44b52d02c7e14af6": "1e+23",
    "444b1ae4d6e2ef50": "1e+21",
    "444b1ae4d6e2ef4f": "999999999999999900000",
    "3eb0c6f7a0b5ed8c": "9.999999999999997e-7",
    "3eb0c6f7a0b5ed8d": "0.000001",
    "41b3de4355555554": "333333333.33333325",
    "becbf647612f3696": "-0.0000033333333333333333",
    "43143ff3c1cb0959": "1424953923781206.2",
}


def test_numbers_are_written_as_rfc_8785_writes_them() -> None:
    for bits, text in NUMBERS.items():
        (number,) = struct.unpack(">d", bytes.fromhex(bits))
        assert canonical(number) == text.encode(), bits
    assert canonical([30.0, 30, -0.0, 0.5, True, None]) == b"[30,30,0,0.5,true,null]"
    for hopeless in (float("nan"), float("inf"), 2**53 + 1, {1: "a"}, b"bytes", "\ud800"):
        with pytest.raises(NotCanonical):
            canonical(hopeless)


def test_members_are_sorted_by_utf16_code_units_and_strings_escaped_as_json() -> None:
    names = ["\u20ac", "\r", "\ufb33", "1", "\U0001f600", "\u0080", "\u00f6"]
    written = canonical(dict.fromkeys(names, 0)).decode()
    order = ["\\r", "1", "\u0080", "\u00f6", "\u20ac", "\U0001f600", "\ufb33"]
    assert written == "{" + ",".join(f'"{name}":0' for name in order) + "}"
    assert canonical('\u2028\x1f"\\\n/é') == '"\u2028\\u001f\\"\\\\\\n/é"'.encode()
    assert canonical({"b": [1, {"d": 1, "c": 2}], "a": ""}) == b'{"a":"","b":[1,{"c":2,"d":1}]}'
