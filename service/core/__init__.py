"""The protocol-neutral game service: what both API adapters and the workers call.

`GameService` loads, authorizes, checks versions, runs the engine, commits and answers a
`LoadedGame`; it fails one way, `Refused` (service/refusals.py). Its longer paths are modules
beside it (callers, loading, moves, endings, past_versions, reads, record_requests, takebacks),
as are access (seat tokens, API keys, tenants), decisions (what a move, a bot turn or a timeout
does to a record), clocks, folding and listing. It imports no adapter (docs/architecture.md).
"""

from service.core.callers import Caller
from service.core.loaded import Applied, LoadedGame
from service.core.service import GameService

__all__ = ["Applied", "Caller", "GameService", "LoadedGame"]
