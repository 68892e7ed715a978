"""Errors with the exit codes the CLI maps them to.

Expected errors carry a message for the user and never a traceback.
"""


class SqlanonError(Exception):
    """Base class of every expected sqlanon error."""

    exit_code = 1


class ConfigError(SqlanonError):
    """Invalid configuration or input (exit code 2); the message names what and where."""

    exit_code = 2


class InputError(ConfigError):
    """The data or hierarchies do not fit the configuration (exit code 2)."""


class NoSolutionError(SqlanonError):
    """No lattice node within the limits satisfies the privacy models (exit code 3)."""

    exit_code = 3


class EngineError(SqlanonError):
    """The database failed or could not be reached (exit code 1)."""

    exit_code = 1


class WriteConflict(EngineError):
    """Another transaction changed the same catalog entry at the same time (DuckDB detects this when the
    statement runs, before the other transaction commits)."""
