"""docs/webhooks.md works as written: its receiver, run as it stands, gets and verifies the
events of a game whose endpoint was registered by the page's own curl example, and refuses a
forged one."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest

from service.store.embedded import free_port
from tests.conftest import own_redis
from tests.support.processes import service_processes
from tests.support.workers import worker_process

DOC = Path(__file__).parents[2] / "docs" / "webhooks.md"
BLOCK = re.compile(r"```(sh|python)\n(.*?)```\n<!-- doc-test: (.*?) -->", re.S)
KEY = "docs-secret"
SETTINGS = {"RULES_API_KEYS": f"docs:{KEY}", "RULES_WEBHOOK_ALLOW_PRIVATE": "1"}


def block(directive: str) -> str:
    (code,) = [
        code for _, code, said in BLOCK.findall(DOC.read_text()) if said.startswith(directive)
    ]
    return code


def saved(directive: str, answer: dict[str, object]) -> dict[str, str]:
    values = {}
    for assignment in directive.removeprefix("save ").split():
        name, _, path = assignment.partition("=")
        value: object = answer
        for part in path.split("."):
            value = value[part]  # type: ignore[index]
        values[name] = str(value)
    return values


def wait_for_line(process: subprocess.Popen[str], wanted: str) -> str:
    deadline = time.monotonic() + 60
    assert process.stdout is not None
    while time.monotonic() < deadline:
        line = process.stdout.readline()
        if wanted in line:
            return line
        assert line or process.poll() is None, "the receiver exited"
    raise AssertionError(f"the receiver never printed {wanted!r}")


@pytest.mark.slow
@pytest.mark.skipif(shutil.which("curl") is None, reason="the shell example needs curl")
def test_the_documented_receiver_gets_and_verifies_the_events() -> None:
    port = free_port()
    with (
        own_redis() as redis_url,
        service_processes(redis_url, 1, SETTINGS) as (base,),
        worker_process(redis_url, **SETTINGS),
    ):
        (directive,) = [d for _, _, d in BLOCK.findall(DOC.read_text()) if d.startswith("save")]
        environment = {
            **os.environ,
            "BASE": base,
            "API_KEY": KEY,
            "RECEIVER_URL": f"http://127.0.0.1:{port}/hooks",
        }
        register = subprocess.run(
            ["bash", "-euo", "pipefail", "-c", block("save")],
            env=environment,
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert register.returncode == 0, register.stderr
        values = saved(directive, json.loads(register.stdout))
        assert values["SECRET"].startswith("whsec_")
        receiver = subprocess.Popen(
            [sys.executable, "-u", "-c", block("receiver")],
            env={**os.environ, "WEBHOOK_SECRET": values["SECRET"], "PORT": str(port)},
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
        )
        try:
            forged = {"webhook-id": "msg_x", "webhook-timestamp": str(int(time.time())),
                      "webhook-signature": "v1,Zm9yZ2Vk"}  # fmt: skip
            deadline = time.monotonic() + 60
            while True:
                try:
                    answer = httpx.post(f"http://127.0.0.1:{port}/hooks", content=b"{}",
                                        headers=forged)  # fmt: skip
                    break
                except httpx.TransportError:
                    assert time.monotonic() < deadline, "the receiver did not start"
                    time.sleep(0.05)
            assert answer.status_code == 401
            created = httpx.post(
                f"{base}/v1/games",
                json={"kind": "TREELINGS", "players": 2},
                headers={"x-api-key": KEY},
            )
            assert created.status_code == 201, created.text
            game_id = created.json()["game"]["id"]
            assert wait_for_line(receiver, game_id).split() == ["turn.started", game_id]
        finally:
            receiver.kill()
            receiver.wait(30)
