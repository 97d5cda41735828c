"""The embedded PostgreSQL's undertaker: `python -I -S watchdog.py PID WORKDIR` (stdlib only, run
by path so that it starts in milliseconds without importing the service).

EmbeddedPostgres starts one next to every postgres it starts, with a pipe on its stdin, as
EmbeddedRedis does (service/store/watchdog.py). A parent that stops its server cleanly writes
one byte and closes the pipe: nothing to do. A parent that dies without doing so closes the
pipe by dying: then the watchdog shuts the orphaned server down (SIGINT, PostgreSQL's fast
shutdown; SIGQUIT, its immediate one; SIGKILL) and removes its directory.
"""

from __future__ import annotations

import os
import shutil
import signal
import sys
import time

GRACE = 5.0


def running(pid: int) -> bool:
    """Whether `pid` is a process that has not exited (a zombie has)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    try:
        with open(f"/proc/{pid}/stat", "rb") as stat:
            return stat.read().rsplit(b")", 1)[1].split()[0] != b"Z"
    except OSError:
        return True  # no /proc (macOS): signal 0 is all there is


def bury(pid: int, workdir: str) -> None:
    for sig in (signal.SIGINT, signal.SIGQUIT, signal.SIGKILL):
        if not running(pid):
            break
        os.kill(pid, sig)
        deadline = time.monotonic() + GRACE
        while running(pid) and time.monotonic() < deadline:
            time.sleep(0.02)
    shutil.rmtree(workdir, ignore_errors=True)


def main() -> None:
    pid, workdir = int(sys.argv[1]), sys.argv[2]
    released = sys.stdin.buffer.read(1)  # blocks until the parent writes or dies
    if not released:
        bury(pid, workdir)


if __name__ == "__main__":
    main()
