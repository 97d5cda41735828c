"""`python -m service.worker`: the bot workers (service/worker/processes.py);
`python -m service.worker quarantine ...`: the games they set aside (quarantine.py)."""

import sys

from service.worker.processes import main

if __name__ == "__main__":
    if sys.argv[1:2] == ["quarantine"]:
        from service.worker.quarantine import main as quarantine

        sys.exit(quarantine(sys.argv[2:]))
    sys.exit(main())
