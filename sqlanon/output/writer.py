"""Publishing a method's release as the output table, by the strongest strategy the engine's flags allow.

1. **Transactional rename** (``SUPPORTS_TRANSACTIONAL_DDL``: DuckDB, PostgreSQL). The release is built under a
   private name, then the old table is dropped and the new one renamed to the target, all in one transaction.
   On any failure or interrupt (KeyboardInterrupt included) the transaction rolls back; a killed process leaves
   an open transaction that the engine discards. Other sessions see the old table or the new one, never none and
   never half of one.
2. **Create or replace** (``SUPPORTS_REPLACE_TABLE``, without transactional DDL). One ``CREATE OR REPLACE TABLE
   target AS ...`` (a plain ``CREATE TABLE`` when nothing is replaced); the engine makes that one statement
   atomic, so a failure or a kill leaves the old table as it was. Nothing else is created, nothing is left.
3. **Staged swap** (neither). Four statements, each atomic on its own, none together: the release is built under
   ``sqlanon_new_<digest>``, the old table renamed away to ``sqlanon_old_<digest>``, the new one renamed to the
   target, the old one dropped (``<digest>``: of the target's exact name, so that a later run for the same target
   finds what an interrupted one left). An error or Ctrl-C at any step is undone here (the new table dropped, the
   old one renamed back). A *killed* process is weaker than the other strategies in two ways:

   * between the two renames, the target does not exist: its old contents are in ``sqlanon_old_<digest>``, the
     release in ``sqlanon_new_<digest>``. The next run for that target finds the old copy with no target
     (``settle_interrupted_publication``, before any work) and refuses with exit 2, naming both tables: which one
     becomes the table again is the user's choice, and sqlanon changes neither;
   * after the second rename, the target is the new release and ``sqlanon_old_<digest>`` is left: the next run
     for that target drops it. A release left half-built before the first rename is dropped before the next
     release for that target is built. Two runs replacing one target at the same time therefore fail one
     another instead of interleaving their renames.

The run's verification (``run.write_and_verify``) is the writer's ``check``. With a transactional rename it reads
the new table inside the publishing transaction, before the rename. PostgreSQL then reads rows its own
transaction wrote and sets no hint bits; read after the commit, each page gets them on its first read, and with
data checksums (PostgreSQL 18's default) a page last written before the latest checkpoint is then written to the
write-ahead log whole: a second write of the table (measured in benchmarks/README.md, "The verification
inside the publishing transaction"). A check that raises rolls the write back; one that finds the table unverified
does not (the run reports it). The other strategies check the published table.
"""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

from ..engines.base import EngineAdapter
from ..errors import ConfigError
from ..faults import fault_pause
from ..identifiers import display_name

#: Test hook (``faults.py``): a pause at the point of each strategy where a kill matters most.
_PAUSE = "SQLANON_FAULT_PAUSE_IN_WRITE"
#: The publication strategies, strongest first (``publication_strategy``).
RENAME_IN_TRANSACTION, CREATE_OR_REPLACE, STAGED_SWAP = "rename in transaction", "create or replace", "staged swap"

Checked = TypeVar("Checked")


def write_output(
    adapter: EngineAdapter,
    *,
    target: Sequence[str],
    replace: bool,
    seed: float | None,
    template: str = "write_output.sql.j2",
    check: Callable[[tuple[str, ...]], Checked] | None = None,
    **context: Any,
) -> Checked | None:
    """Create ``target`` from ``template`` (a method's release: ``CREATE TABLE ... AS SELECT`` in random order,
    ``CREATE OR REPLACE`` when ``or_replace``), replacing it when asked, by the engine's strategy; ``check``
    (given the new table's name as it is then) is run on the new table and its result returned: before the
    rename, in its transaction, where the engine publishes so (the module's docstring), otherwise once published."""
    strategy = publication_strategy(adapter)
    if strategy == RENAME_IN_TRANSACTION:
        return _rename_in_transaction(adapter, tuple(target), replace, seed, template, context, check)
    publish = _create_or_replace if strategy == CREATE_OR_REPLACE else _staged_swap
    publish(adapter, tuple(target), replace, seed, template, context)
    return None if check is None else check(tuple(target))


def shuffle_salt(seed: float | None) -> int:
    """The salt of ``shuffle_key`` (``sql/common/macros/shuffle.sql.j2``): secret and new for every run, or
    derived from ``output.seed``, so that the same seed gives the same order. A BIGINT.

    >>> shuffle_salt(0.25) == shuffle_salt(0.25) != shuffle_salt(-0.5)
    True
    """
    if seed is None:
        return secrets.randbits(62)
    return int.from_bytes(hashlib.sha256(repr(float(seed)).encode("ascii")).digest()[:8], "big") >> 2


def publication_strategy(adapter: EngineAdapter) -> str:
    """The strongest strategy the engine's flags allow (the module's docstring). Transactional DDL needs
    transactions too: an adapter that claims the one without the other gets the strategy after it."""
    if adapter.SUPPORTS_TRANSACTIONS and adapter.SUPPORTS_TRANSACTIONAL_DDL:
        return RENAME_IN_TRANSACTION
    return CREATE_OR_REPLACE if adapter.SUPPORTS_REPLACE_TABLE else STAGED_SWAP


def staged_names(target: Sequence[str]) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The private names (new release, old table) of a staged swap into ``target``, in its schema: fixed per
    target, so that a later run finds what an interrupted swap left."""
    digest = hashlib.sha256("\x1f".join(target).encode("utf-8")).hexdigest()[:16]
    return (*target[:-1], f"sqlanon_new_{digest}"), (*target[:-1], f"sqlanon_old_{digest}")


def settle_interrupted_publication(adapter: EngineAdapter, target: Sequence[str], *,
                                   key: str = "output.table") -> None:
    """Before a run's work: what a killed staged swap into ``target`` left (engines without transactional DDL
    or an atomic replace; a no-op on the others). An old table kept beside the published target is dropped;
    an old table without a target is refused (ConfigError, exit 2) with what to do about it."""
    if publication_strategy(adapter) != STAGED_SWAP:
        return
    staged, old = staged_names(target)
    if not adapter.table_exists(old):
        return
    if adapter.table_exists(target):
        adapter.run("drop_table.sql.j2", table=old)
        return
    release = f" and its release in {display_name(staged)}" if adapter.table_exists(staged) else ""
    raise ConfigError(
        f"{key}: table {display_name(target)} is missing: a run replacing it was stopped between its "
        f"renames ({adapter.name} publishes by a {STAGED_SWAP}); its previous contents are in {display_name(old)}"
        f"{release}. Rename {display_name(old)} back to {target[-1]!r} (or drop it), then run again"
    )


def _rename_in_transaction(adapter: EngineAdapter, target: tuple[str, ...], replace: bool, seed: float | None,
                           template: str, context: dict[str, Any],
                           check: Callable[[tuple[str, ...]], Checked] | None) -> Checked | None:
    temporary = (*target[:-1], f"sqlanon_tmp_{secrets.token_hex(6)}")
    with adapter.transaction():
        if seed is not None:
            adapter.set_random_seed(seed)
        adapter.run(template, table=temporary, or_replace=False, **context)
        fault_pause(_PAUSE)  # a kill in the middle of the transaction
        # Before the old table is dropped, so that readers of the target wait for the rename alone.
        checked = None if check is None else check(temporary)
        if replace:
            adapter.run("drop_table.sql.j2", table=target)
        adapter.run("rename_table.sql.j2", table=temporary, new_name=target[-1])
    return checked


def _create_or_replace(adapter: EngineAdapter, target: tuple[str, ...], replace: bool, seed: float | None,
                       template: str, context: dict[str, Any]) -> None:
    if seed is not None:
        adapter.set_random_seed(seed)
    fault_pause(_PAUSE)  # a kill before the one statement that publishes
    adapter.run(template, table=target, or_replace=replace, **context)


def _staged_swap(adapter: EngineAdapter, target: tuple[str, ...], replace: bool, seed: float | None,
                 template: str, context: dict[str, Any]) -> None:
    staged, old = staged_names(target)
    moved = False
    try:
        adapter.run("drop_table.sql.j2", table=staged)  # what a killed run left half-built
        if seed is not None:
            adapter.set_random_seed(seed)
        adapter.run(template, table=staged, or_replace=False, **context)
        if replace and adapter.table_exists(target):
            adapter.run("rename_table.sql.j2", table=target, new_name=old[-1])
            moved = True
        fault_pause(_PAUSE)  # a kill between the renames: no target (see the module's docstring)
        adapter.run("rename_table.sql.j2", table=staged, new_name=target[-1])
    except BaseException:
        _undo(adapter, target, staged, old, moved)
        raise
    if moved:
        adapter.run("drop_table.sql.j2", table=old)


def _undo(adapter: EngineAdapter, target: tuple[str, ...], staged: tuple[str, ...], old: tuple[str, ...],
          moved: bool) -> None:
    """The staged swap's steps taken back after an error or Ctrl-C, as far as the connection still allows."""
    try:
        if moved and not adapter.table_exists(target):
            adapter.run("rename_table.sql.j2", table=old, new_name=target[-1])
        adapter.run("drop_table.sql.j2", table=staged)
    except Exception:  # noqa: BLE001 - the connection may be gone: the next run settles what is left
        pass
