"""Allow `python -m engine`."""

import sys

from engine.cli import main

# Guarded: a cluster's worker processes are spawned by re-importing this module, and they
# must not run the command line again.
if __name__ == "__main__":
    sys.exit(main())
