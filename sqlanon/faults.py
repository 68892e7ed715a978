"""Test hooks for the fault tests (``tests/e2e/test_faults.py``, ``tests/e2e/test_interrupt.py``).

``SQLANON_FAULT_PAUSE_IN_SEARCH=<seconds>`` holds a run after its first node evaluation, and
``SQLANON_FAULT_PAUSE_IN_WRITE=<seconds>`` holds the publication of the output at its most fragile point
(``output/writer.py``: inside the write transaction, before the one CREATE OR REPLACE, or between a staged swap's
renames), so that a test can kill the process or drop its connection at that point. Unset, they cost one
environment lookup.
"""

from __future__ import annotations

import os
import time


def fault_pause(variable: str) -> None:
    pause = os.environ.get(variable)
    if pause:
        time.sleep(float(pause))
