"""``python -m polyenv``: the ``polyenv`` command line (see polyenv/cli.py)."""

import sys

from .cli import main

sys.exit(main())
