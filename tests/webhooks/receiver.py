"""A webhook receiver as its own process, for the tests: `python -m tests.webhooks.receiver
<port> <log file> [<certificate> <key>]` (with the last two: https). Every request is logged as one JSON line when it arrives ("arrived") and
again when answered ("answered"), with its path, headers and body. What it answers depends on
the path:

    /ok                  204
    /status/<code>       always <code>
    /fail-first/<n>      500 to the first n requests of each webhook-id (on that path), then 200
    /slow/<seconds>      200 after that many seconds
    /hold-first          the first request of each webhook-id is never answered; later ones 200
    /down/<flag>         503 while a file <flag> is beside the log file (an outage), then 204
    /refuse/<flag>       500 to bodies that hold the text of the file <flag> beside the log
                         file (a receiver that refuses one game's events), 204 to the others
"""

from __future__ import annotations

import json
import os
import ssl
import sys
import threading
import time
from collections import Counter
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import IO

seen: Counter[str] = Counter()
lock = threading.Lock()


def record(log: IO[str], entry: dict[str, object]) -> None:
    with lock:
        log.write(json.dumps(entry) + "\n")
        log.flush()


class Handler(BaseHTTPRequestHandler):
    log_file: IO[str]

    def do_POST(self) -> None:
        body = self.rfile.read(int(self.headers.get("content-length", 0))).decode()
        headers = {name.lower(): value for name, value in self.headers.items()}
        message = f"{self.path} {headers.get('webhook-id', '')}"
        with lock:
            seen[message] += 1
            nth = seen[message]
        entry = {"path": self.path, "headers": headers, "body": body, "nth": nth}
        record(self.log_file, {**entry, "phase": "arrived", "at": time.time()})
        parts = self.path.strip("/").split("/")
        status = 200
        if parts[0] == "ok":
            status = 204
        elif parts[0] == "status":
            status = int(parts[1])
        elif parts[0] == "fail-first" and nth <= int(parts[1]):
            status = 500
        elif parts[0] == "slow":
            time.sleep(float(parts[1]))
        elif parts[0] == "hold-first" and nth == 1:
            time.sleep(3600)
        elif parts[0] == "down":
            flag = os.path.join(os.path.dirname(self.log_file.name), os.path.basename(parts[1]))
            status = 503 if os.path.exists(flag) else 204
        elif parts[0] == "refuse":
            flag = os.path.join(os.path.dirname(self.log_file.name), os.path.basename(parts[1]))
            with open(flag) as refused:
                status = 500 if refused.read() in body else 204
        self.send_response(status)
        self.send_header("content-length", "0")
        self.end_headers()
        record(self.log_file, {**entry, "phase": "answered", "status": status, "at": time.time()})

    def log_message(self, format: str, *args: object) -> None:
        pass


def main() -> None:
    port, path, tls = int(sys.argv[1]), sys.argv[2], sys.argv[3:]
    with open(path, "a") as log:
        Handler.log_file = log
        server = ThreadingHTTPServer(("127.0.0.1", port), Handler)
        server.daemon_threads = True
        # port 0: the system's choice, told in the file `port` beside the log (written whole,
        # then renamed), so that no other process can take it between a probe and the bind
        told = os.path.join(os.path.dirname(path), "port")
        with open(told + ".new", "w") as written:
            written.write(str(server.server_address[1]))
        os.replace(told + ".new", told)
        if tls:
            context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
            context.load_cert_chain(*tls)
            server.socket = context.wrap_socket(server.socket, server_side=True)
        server.serve_forever()


if __name__ == "__main__":
    main()
