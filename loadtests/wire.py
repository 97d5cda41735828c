"""A minimal HTTP/1.1 keep-alive client on asyncio streams: the benchmark's load generator.

The generator shares two cores with the server it measures, so it must cost far less per
request than the server: no URL parsing, no header objects, no cookie jars. It speaks just
enough HTTP/1.1 for our own loopback servers (Content-Length or chunked bodies).
"""

from __future__ import annotations

import asyncio


class HttpError(Exception):
    pass


class Connection:
    """One persistent connection; requests on it are sequential."""

    def __init__(self, host: str, port: int) -> None:
        self.host = host
        self.port = port
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None
        self.prefix = f"Host: {host}:{port}\r\nContent-Type: application/json\r\n"

    async def _open(self) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
        if self.reader is None or self.writer is None:
            self.reader, self.writer = await asyncio.open_connection(self.host, self.port)
        return self.reader, self.writer

    async def request(
        self, method: str, path: str, body: bytes = b"", headers: str = ""
    ) -> tuple[int, bytes]:
        """`headers` is preformatted: "Name: value\\r\\n" lines. Returns (status, body)."""
        reader, writer = await self._open()
        head = (
            f"{method} {path} HTTP/1.1\r\n{self.prefix}{headers}Content-Length: {len(body)}\r\n\r\n"
        )
        writer.write(head.encode() + body)
        try:
            raw = await reader.readuntil(b"\r\n\r\n")
        except (asyncio.IncompleteReadError, ConnectionError) as exc:
            await self.close()
            raise HttpError(f"connection lost: {exc}") from exc
        lines = raw.decode("latin-1").split("\r\n")
        status = int(lines[0].split(" ", 2)[1])
        length = -1
        chunked = False
        for line in lines[1:]:
            name, _, value = line.partition(":")
            name = name.lower()
            if name == "content-length":
                length = int(value)
            elif name == "transfer-encoding" and "chunked" in value.lower():
                chunked = True
        if chunked:
            payload = await _chunks(reader)
        elif length >= 0:
            payload = await reader.readexactly(length)
        else:
            raise HttpError("a response without a length")
        return status, payload

    async def close(self) -> None:
        if self.writer is not None:
            self.writer.close()
        self.reader = self.writer = None


async def _chunks(reader: asyncio.StreamReader) -> bytes:
    parts: list[bytes] = []
    while True:
        size = int((await reader.readuntil(b"\r\n")).split(b";")[0], 16)
        if size == 0:
            await reader.readuntil(b"\r\n")
            return b"".join(parts)
        parts.append(await reader.readexactly(size))
        await reader.readexactly(2)
