"""Atomic write-back: build under a temporary name, then rename in one transaction.

On any failure or interrupt (KeyboardInterrupt included) the transaction rolls back; a killed process
leaves an open transaction that the engine discards, so the target never appears half-written.
"""

from __future__ import annotations

import os
import secrets
import time
from collections.abc import Sequence
from typing import Any

from ..engines.base import EngineAdapter


def _fault_injection_pause() -> None:
    # Test hook for the interrupt tests: SQLANON_FAULT_PAUSE_IN_WRITE=<seconds> holds the write
    # transaction open so that a test can kill the process in the middle of it.
    pause = os.environ.get("SQLANON_FAULT_PAUSE_IN_WRITE")
    if pause:
        time.sleep(float(pause))


def write_output(
    adapter: EngineAdapter,
    *,
    target: Sequence[str],
    replace: bool,
    seed: float | None,
    **context: Any,
) -> None:
    """Create ``target`` from ``write_output.sql.j2`` atomically (replacing it when asked)."""
    temporary = (*target[:-1], f"sqlanon_tmp_{secrets.token_hex(6)}")
    with adapter.transaction():
        if seed is not None:
            adapter.set_random_seed(seed)
        adapter.run("write_output.sql.j2", table=temporary, **context)
        _fault_injection_pause()
        if replace:
            adapter.run("drop_table.sql.j2", table=tuple(target))
        adapter.run("rename_table.sql.j2", table=temporary, new_name=target[-1])
