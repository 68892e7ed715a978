"""Atomic write-back: build under a temporary name, then rename in one transaction.

On any failure or interrupt (KeyboardInterrupt included) the transaction rolls back; a killed process
leaves an open transaction that the engine discards, so the target never appears half-written.
"""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from typing import Any

from ..engines.base import EngineAdapter
from ..faults import fault_pause


def write_output(
    adapter: EngineAdapter,
    *,
    target: Sequence[str],
    replace: bool,
    seed: float | None,
    template: str = "write_output.sql.j2",
    **context: Any,
) -> None:
    """Create ``target`` from ``template`` (a method's release: ``CREATE TABLE ... AS SELECT`` in random order)
    atomically, replacing it when asked."""
    temporary = (*target[:-1], f"sqlanon_tmp_{secrets.token_hex(6)}")
    with adapter.transaction():
        if seed is not None:
            adapter.set_random_seed(seed)
        adapter.run(template, table=temporary, **context)
        fault_pause("SQLANON_FAULT_PAUSE_IN_WRITE")  # test hook: a kill in the middle of the transaction
        if replace:
            adapter.run("drop_table.sql.j2", table=tuple(target))
        adapter.run("rename_table.sql.j2", table=temporary, new_name=target[-1])
