"""`python -m service.worker`: the bot workers (service/worker/processes.py)."""

import sys

from service.worker.processes import main

if __name__ == "__main__":
    sys.exit(main())
