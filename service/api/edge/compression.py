"""gzip and brotli for HTTP answers of at least `MINIMUM_BYTES` (docs/api.md, "Compression").

starlette-compress picks the encoding from Accept-Encoding (its q-values honoured: br before
gzip, `identity` otherwise), compresses only text types, never a 304 or an answer already
encoded, and says `Vary: Accept-Encoding` on every answer it could have compressed. zstd stays
off: no browser or app client of ours asks for it, and one more encoding is one more variant in
every shared cache. WebSockets pass untouched (their frames are deflated by the server:
permessage-deflate, docs/api.md).
"""

from __future__ import annotations

from starlette.types import ASGIApp
from starlette_compress import CompressMiddleware, add_compress_type, remove_compress_type

MINIMUM_BYTES = 1024  # below this the headers and the CPU cost more than the bytes saved
# brotli 3 is as small as gzip 6 for less CPU; 4 saves ~3% more for ~1.6x the CPU of 3
# (`make bench`, docs/performance.md "Compression")
BROTLI_QUALITY = 3
GZIP_LEVEL = 6

# problem details are JSON too
add_compress_type("application/problem+json")
# A stream must reach the client as it is written: an encoder holds bytes back until it has
# a block's worth, so a streamed answer (incremental delivery, SSE) is never compressed.
remove_compress_type("multipart/mixed")
remove_compress_type("text/event-stream")


def compressed(app: ASGIApp) -> ASGIApp:
    return CompressMiddleware(
        app,
        minimum_size=MINIMUM_BYTES,
        zstd=False,
        brotli_quality=BROTLI_QUALITY,
        gzip_level=GZIP_LEVEL,
    )
