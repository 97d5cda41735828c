"""Bot workers: play the bot turns queued on the lanes (service/store/jobs.py, docs/bots.md).

A worker takes one job at a time, from the tenants in turn (round-robin over the tenants of
RULES_API_KEYS and the lanes' own streams of games without a tenant), so one tenant's backlog
delays another tenant's bot turn by one job per tenant, not by the whole backlog. It loads
the game, and if the game is still at the job's version with that bot seat to act, it decides
(the bot's strategy, seeded from the game's seed and the version, seeing only the seat's view)
and commits through the same version-checked script as any client, expected version = the
job's version. That commit queues the next bot job if another bot is due. A job whose game
has moved on is stale: acknowledged and dropped. A job is acknowledged only after its commit,
so a worker that dies mid-decision leaves it pending, and another worker takes it over
(XAUTOCLAIM) after RULES_WORKER_RECLAIM_SECONDS; if both end up committing, the version check
lets exactly one through.

Beside the bot turns, each worker delivers the tenants' webhooks (service/webhooks/deliverer.py):
its own task on the same event loop, woken by the same channel.

When the first deadline comes (a poll interval at the latest), the workers also sweep the turn
clocks (`clocks:{bots-n}:<tenant>`, one per lane and tenant): a game whose deadline passed is
claimed atomically and its timeout applied through the same commit, so clocks run out even when
no client ever comes back (service/core/game/clocks.py); one timeout per game per pass, the tenants
in turn, each tenant's earliest deadline first across the lanes.

A job or a clock whose game fails to decode or to play (a damaged record, one from another
release, a bug) is set aside with its reason (service/store/quarantine.py), logged in one line
and counted, and the loop goes on with the next; a failure of Redis is retried as before. A
game a newer release wrote (a rolling upgrade, or a rollback) is left for a worker of that
release: its job stays pending (taken over after RULES_WORKER_RECLAIM_SECONDS, by any worker)
and its clock claimed until the claim lapses; logged once per game, counted, nothing dropped.
Each loop beats a heartbeat per iteration that the liveness probe checks (heartbeat.py).

The decision runs on a thread beside the event loop, one at a time: a worker process is one
core's worth of bot thinking, and `python -m service.worker` starts one per core.

SIGTERM (or SIGINT) drains a worker: it takes no new job, finishes the one in hand (decision,
commit, acknowledgement) within RULES_WORKER_DRAIN_SECONDS, stops its other loops and exits 0.
A job the drain cuts short stays pending and is reclaimed by another worker.

The parts: worker.py composes the loops of one worker: jobs.py (the job loop), sweep.py (the
sweep and the wake-ups that tell it which lanes hold a job), clocks.py (the clock sweep) and
the webhook deliverer; shared.py is what each of them is given (its settings, heartbeat and
stop, Redis retried), containment.py what becomes of a game that fails, threads.py where a
decision runs, serving.py the signals of a worker process (processes.py starts those).
"""

from service.worker.clocks import CLOCK_BATCH
from service.worker.serving import serve
from service.worker.threads import on_daemon_thread
from service.worker.worker import Worker

__all__ = ["CLOCK_BATCH", "Worker", "on_daemon_thread", "serve"]
