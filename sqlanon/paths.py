"""Files a run will write (reports, a saved transformation, a CSV export), checked before the run starts:
a report path in a missing folder used to fail after the output was written and the run recorded."""

from __future__ import annotations

import os
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from .errors import ConfigError


def check_writable_file(path: Path, key: str, create_folders: bool = False) -> None:
    """Refuse (ConfigError, exit 2, naming ``key``) a path that cannot be written: its folder is missing
    (unless ``create_folders``: then the nearest existing one must be writable) or not writable, or the path
    is a folder.

    >>> check_writable_file(Path("/nonexistent-folder/run.html"), "--report")
    Traceback (most recent call last):
    ...
    sqlanon.errors.ConfigError: --report: /nonexistent-folder/run.html: the folder /nonexistent-folder does not exist
    """
    if path.is_dir():
        raise ConfigError(f"{key}: {path} is a folder; give a file name")
    folder = path.parent if str(path.parent) else Path(".")
    if create_folders:
        while not folder.exists() and folder != folder.parent:
            folder = folder.parent
    if not folder.is_dir():
        raise ConfigError(f"{key}: {path}: the folder {folder} does not exist")
    if not os.access(folder, os.W_OK | os.X_OK) or (path.exists() and not os.access(path, os.W_OK)):
        raise ConfigError(f"{key}: {path}: no permission to write there")


@contextmanager
def replaced_atomically(path: Path, suffix: str) -> Iterator[str]:
    """A temporary file beside ``path`` for the caller (or its database) to write; renamed to ``path`` when the
    block ends without an error, removed otherwise, so that a reader never sees half a file."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=".sqlanon-", suffix=suffix, dir=path.parent)
    os.close(fd)
    try:
        yield tmp
        os.replace(tmp, path)
    finally:
        if os.path.exists(tmp):
            os.unlink(tmp)
