"""Run history in the target database: migrations, recording, reading."""

from .runs import RunRecorder, get_run, list_runs, public_config
from .schema import DEFAULT_SCHEMA, current_version, head, migrations, require_current, resolve_schema, upgrade

__all__ = [
    "DEFAULT_SCHEMA",
    "RunRecorder",
    "current_version",
    "get_run",
    "head",
    "list_runs",
    "migrations",
    "public_config",
    "require_current",
    "resolve_schema",
    "upgrade",
]
