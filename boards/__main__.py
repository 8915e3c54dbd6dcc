"""``python -m boards``: the same as the ``ttt`` script (boards/ttt.py)."""

import sys

from .ttt import main

sys.exit(main())
