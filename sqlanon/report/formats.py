"""Report formats, chosen by the file suffix."""

from __future__ import annotations

from pathlib import Path

from ..errors import ConfigError

FORMATS = {".html": "html", ".json": "json"}


def report_format(path: Path) -> str:
    """``html`` or ``json`` for a report path; anything else is refused before the run starts."""
    try:
        return FORMATS[path.suffix.lower()]
    except KeyError:
        raise ConfigError(f"--report: {path}: unknown report format (use .html or .json)") from None
