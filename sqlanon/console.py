"""What a command prints and how it ends: its error message and exit code (the JSON error object with
``--json``), a quiet stop when stdout's reader went away, the progress line, and the text summary of a run.

Shared by ``cli.py`` and ``cli_history.py``.
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import click

from .errors import SqlanonError


def emit_error(exc: BaseException, as_json: bool) -> int:
    code = exc.exit_code if isinstance(exc, SqlanonError) else 1
    message = str(exc) if isinstance(exc, SqlanonError) else f"unexpected error: {type(exc).__name__}: {exc}"
    kind = {2: "invalid_input", 3: "no_solution"}.get(code, "error")
    if as_json:
        click.echo(json.dumps({"status": kind, "error": message, "exit_code": code}))
    click.echo(f"sqlanon: error: {message}", err=True)
    return code


#: The exit status of a process that SIGPIPE ended (128 + 13), as shells report it for other tools.
EXIT_BROKEN_PIPE = 141


def stdout_gone() -> None:
    """The reader of stdout closed it (``sqlanon demo | head -1``): stop quietly, as Unix tools do.

    Python flushes stdout once more at exit, which would raise again and print a traceback: stdout is first
    pointed at /dev/null (Python's documentation, "Note on SIGPIPE"). Nothing is printed: the reader is gone,
    and on stderr a message would only clutter a pipeline that ends early on purpose.
    """
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):  # stdout without a file descriptor (tests' captured output)
        pass
    sys.exit(EXIT_BROKEN_PIPE)


def handle_errors(as_json: bool, action: Callable[[], Any]) -> None:
    """Call a command's action and turn what it raises into the command's message and exit code (the JSON error
    object with ``--json``): every command runs its work through this."""
    try:
        action()
    except BrokenPipeError:
        stdout_gone()
    except KeyboardInterrupt:
        if as_json:
            click.echo(json.dumps({"status": "interrupted", "error": "interrupted; nothing was written",
                                   "exit_code": 130}))
        click.echo("sqlanon: interrupted; nothing was written", err=True)
        sys.exit(130)
    except SqlanonError as exc:
        sys.exit(emit_error(exc, as_json))
    except Exception as exc:  # unexpected: still no traceback, but say it is a bug
        sys.exit(emit_error(exc, as_json))


#: Searches shorter than this show no progress line at all.
PROGRESS_AFTER_SECONDS = 0.5


class Progress:
    """One self-overwriting line on stderr: nodes evaluated, lattice size, best metric so far, the proven lower
    bound on the optimum where the search keeps one (``bound``), elapsed."""

    def __init__(self) -> None:
        self.shown = False
        self._last = 0.0
        self._bound: float | None = None

    def bound(self, value: float) -> None:
        """The search's lower bound on the optimum improved (heuristic and budgeted searches)."""
        self._bound = value

    def __call__(self, evaluated: int, size: int, best: float | None, elapsed: float) -> None:
        if elapsed < PROGRESS_AFTER_SECONDS or elapsed - self._last < 0.1:
            return
        self._last = elapsed
        self.shown = True
        best_text = "-" if best is None else f"{best:.6g}"
        bound_text = "" if self._bound is None else f"  bound {self._bound:.6g}"
        click.echo(f"\r  nodes evaluated {evaluated}/{size:,}  best {best_text}{bound_text}  {elapsed:.1f}s ",
                   err=True, nl=False)

    def end(self) -> None:
        if self.shown:
            click.echo("", err=True)


def progress_display(enabled: bool) -> Progress | None:
    """A progress display, only for people: not with --json or --quiet, not when stderr is not a terminal."""
    if not enabled or not sys.stderr.isatty():
        return None
    return Progress()


def url_from_here(url: str, base_dir: Path | None) -> str:
    """A (masked) database URL that works from the current folder: a relative DuckDB path is relative to
    ``base_dir`` (the config's folder), so it is shown relative to here, or absolute outside it."""
    from urllib.parse import quote, unquote

    if not url.startswith("duckdb:///") or base_dir is None:
        return url
    path, sep, query = url[len("duckdb:///"):].partition("?")
    local = Path(unquote(path))
    if path in ("", ":memory:") or local.is_absolute():
        return url
    target = (base_dir / local).resolve()
    try:
        shown = target.relative_to(Path.cwd().resolve())
    except ValueError:
        shown = target
    return "duckdb:///" + quote(shown.as_posix(), safe="/:@~+=,-._") + sep + query


def runs_show(run_id: str, database: str, base_dir: Path | None, schema: str | None) -> str:
    """The ``sqlanon runs show`` command for a run, ready to paste (shell-quoted where needed)."""
    import shlex

    from .history import DEFAULT_SCHEMA

    command = f"sqlanon runs show {run_id[:8]} --db {shlex.quote(url_from_here(database, base_dir))}"
    if schema and schema != DEFAULT_SCHEMA:
        command += f" --schema {shlex.quote(schema)}"
    return command


def summary(result: Any, base_dir: Path | None = None, schema: str | None = None) -> str:
    from .methods import method_class

    lines = [
        f"{'dry run' if result.dry_run else 'anonymized'} {result.source_table} ({result.rows} rows) "
        f"in {result.seconds:.2f}s on {result.database}",
        *method_class(result.method).summary_lines(result),
    ]
    if result.run_id:
        lines.append(f"  run id: {result.run_id} ({runs_show(result.run_id, result.database, base_dir, schema)})")
    if not result.dry_run:
        lines.append(f"  output: {result.output_table} ({result.output_rows} rows) - " + _verified(result))
    return "\n".join(lines)


def _verified(result: Any) -> str:
    """The summary's account of the verification of the written table."""
    v = result.verification
    if not result.verified:
        return "VERIFICATION FAILED: " + v["reason"] + ("" if v.get("models_verified", True) else
                                                        f"; {v['classes_failing_models']} written classes fail a "
                                                        f"privacy model")
    checked = v.get("models_checked", ())
    if "largest_k" in v:  # trees (related tables): no classes, every combination's support
        return (f"verified: every combination of up to m={result.m} labels and n={result.n} relations is held by "
                f"0 or >= {v['largest_k']} >= k={result.k} of {v['records']} records")
    held = (f"every released box holds {v['fewest_inside']} >= k={result.k} of the source (request mode: classes "
            f"not held to k)" if "k per request" in checked
            else f"smallest class {v['smallest_class']} >= k={result.k}")
    return (f"verified: {held}, {v['suppressed_rows']} suppressed <= {result.suppression_limit}"
            + (f", privacy models re-checked ({', '.join(checked)})" if checked else ""))
