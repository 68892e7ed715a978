"""A CSV source file (``source.csv``) read by DuckDB into a temporary table, with its dialect fixed and every
problem of the file worded as an input error: ``source.csv: <file>: <cause> (line N)``.

DuckDB's sniffer guesses more than the delimiter, and guesses wrong on files with faults: rows of another
width made it take the last line for the header (or read every line as one column), an unterminated quote
was read as a literal character, and a file whose lines end in ``\\r\\r\\n`` (a careless conversion) could not be
read at all ("Error when sniffing file", exit 1). So the file is read with the dialect spreadsheets and
Windows tools write (RFC 4180 quoting, a header line, no preamble to skip; any line end, a UTF-8 byte order
mark), its delimiter given or found in the first lines. A file DuckDB rejects is read again by Python's
``csv`` module, which words the fault with its line, or, finding none (``\\r\\r\\n`` line ends, mixed line ends),
writes the rows to a clean temporary copy for DuckDB (deleted once read): only a file DuckDB rejects costs a
pass in Python.
"""

from __future__ import annotations

import codecs
import csv
import json
import os
import re
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import IO

from .engines.base import EngineAdapter
from .errors import EngineError, InputError

#: Delimiters looked for when ``source.delimiter`` is not given, the first preferred on a tie (DuckDB's own).
CANDIDATES = (",", ";", "\t", "|")
#: How much of the file's start is read to find the delimiter and check the header.
SAMPLE_BYTES = 64 * 1024


def load_csv_source(adapter: EngineAdapter, table: str, path: Path, delimiter: str | None, shown: str) -> None:
    """Create the temporary table ``table`` from the CSV file at ``path`` (``shown``: as the config spells it).

    Raises InputError naming the file and the fault for anything the file does wrong.
    """
    where = f"source.csv: {shown}"
    if path.is_dir():
        raise InputError(f"{where}: is a directory, not a CSV file")
    if not path.exists():
        raise InputError(f"{where}: file not found")
    if not path.is_file():  # a pipe, say: read once for the dialect, DuckDB would find it drained
        raise InputError(f"{where}: not a regular file")
    delimiter = _read_header(path, delimiter, where)
    with tempfile.TemporaryDirectory(prefix="sqlanon-csv-") as folder:
        readable = path
        if any(c in str(path) for c in "*?[{"):  # DuckDB expands glob characters in the path it is given
            readable = Path(folder) / "source.csv"
            try:
                os.symlink(path, readable)
            except OSError:
                readable = None
        if readable is not None:
            try:
                _read(adapter, table, readable, delimiter)
                return
            except EngineError:
                pass  # Python's reader words the fault, or copies rows DuckDB's strict reader refuses
        clean = Path(folder) / "clean.csv"
        _rewrite(path, delimiter, where, clean)
        try:
            _read(adapter, table, clean, ",")
        except EngineError as exc:
            raise InputError(f"{where}: {cause(exc)}") from None


def _read(adapter: EngineAdapter, table: str, path: Path, delimiter: str) -> None:
    """DuckDB reads the file; where a value does not fit the type detected on the sample of the first rows
    (a ZIP code column with letters after 20,000 numbers), the types are detected on every row instead."""
    try:
        adapter.run("load_csv_source.sql.j2", table=table, path=str(path), delimiter=delimiter)
    except EngineError as exc:
        if "Conversion Error" not in str(exc):
            raise
        adapter.run("load_csv_source.sql.j2", table=table, path=str(path), delimiter=delimiter, sample_all=True)


def cause(exc: EngineError) -> str:
    """DuckDB's message without the adapter's prefix and the error class, with its line at the end.

    >>> cause(EngineError("DuckDB error on duckdb:///:memory:: Invalid Input Error: CSV Error on Line: 7"))
    'cannot read the file (line 7)'
    """
    text = str(exc)
    found = re.search(r"\b[A-Z][A-Za-z]*(?: [A-Z][A-Za-z]*)* Error: (.*)", text)
    text = found.group(1) if found else text
    line = re.match(r"CSV Error on Line: (\d+)\s*(.*)", text)
    if line:
        return f"{line.group(2) or 'cannot read the file'} (line {line.group(1)})"
    return text


def _read_header(path: Path, delimiter: str | None, where: str) -> str:
    """The delimiter: ``delimiter``, or else the candidate that splits the header into the most fields, the same
    number on every line of the sample where one does (``,`` for a single column). Refuses an empty file and a
    header with an empty or repeated column name, which DuckDB would name ``column1`` or ``a_1``."""
    try:
        with path.open("rb") as fh:
            sample = fh.read(SAMPLE_BYTES)
            complete = len(sample) < SAMPLE_BYTES
    except OSError as exc:
        raise InputError(f"{where}: cannot read the file: {exc.strerror or exc}") from None
    text = sample.removeprefix(codecs.BOM_UTF8).decode("utf-8", errors="replace")
    if not text.strip():
        raise InputError(f"{where}: the file is empty (a header line naming the columns comes first)")
    lines = text.splitlines(keepends=True)
    if not complete and len(lines) > 1:
        lines = lines[:-1]  # cut off mid-line
    best, best_score = delimiter or ",", (0, 0)
    for candidate in CANDIDATES if delimiter is None else ():
        try:
            widths = [len(row) for row in csv.reader(lines, delimiter=candidate) if row]
        except csv.Error:
            continue
        if not widths:
            continue
        score = (int(len(set(widths)) == 1), widths[0])
        if widths[0] > 1 and score > best_score:
            best, best_score = candidate, score
    try:
        header = next((row for row in csv.reader(lines, delimiter=best) if row), [])
    except csv.Error:
        return best  # a quoted header name running past the sample: the reader words what is wrong
    _check_header(header, where, best)
    if delimiter is not None and len(header) == 1:
        for candidate in CANDIDATES:
            fields = next(csv.reader([next(line for line in lines if line.strip())], delimiter=candidate), [])
            if candidate != delimiter and len(fields) > 1:
                raise InputError(
                    f"{where}: the header is one field with the delimiter {json.dumps(delimiter)} but "
                    f"{len(fields)} with {json.dumps(candidate)}: set source.delimiter: {json.dumps(candidate)} "
                    f"(line 1)"
                )
    return best


def _lines(fh: IO[bytes], where: str) -> Iterator[str]:
    """The file's lines (split at ``\\n``, so numbered as an editor does), decoded, the ``\\r\\r\\n`` of a careless
    conversion read as ``\\r\\n``."""
    for number, raw in enumerate(fh, start=1):
        if number == 1:
            raw = raw.removeprefix(codecs.BOM_UTF8)
        if raw.endswith(b"\r\r\n"):
            raw = raw[:-3] + b"\r\n"
        try:
            yield raw.decode("utf-8")
        except UnicodeDecodeError as exc:
            column = len(raw[: exc.start].decode("utf-8", errors="replace")) + 1
            raise InputError(
                f"{where}: not UTF-8: byte 0x{raw[exc.start]:02x} at column {column} (line {number}); "
                f"save the file as UTF-8"
            ) from None


def _rewrite(path: Path, delimiter: str, where: str, out_path: Path) -> None:
    """Parse the file with Python's reader and write its rows to ``out_path`` as plain comma-separated CSV, or
    raise InputError naming the first fault and its line."""
    shown = json.dumps(delimiter)
    try:
        with path.open("rb") as fh, out_path.open("w", encoding="utf-8", newline="") as out:
            # \r\n: the writer quotes a field holding either character, which DuckDB would take for a line end
            writer = csv.writer(out, lineterminator="\r\n")
            reader = csv.reader(_lines(fh, where), delimiter=delimiter, strict=True)
            width = None
            try:
                for row in reader:
                    if not row:  # a blank line, which DuckDB skips too
                        continue
                    if width is None:
                        width = len(row)
                    elif len(row) != width:
                        raise InputError(
                            f"{where}: {len(row)} fields where the header has {width} (delimiter {shown}; a "
                            f"field holding the delimiter needs double quotes) (line {reader.line_num})"
                        )
                    writer.writerow(row)
            except csv.Error as exc:
                raise InputError(f"{where}: {_csv_cause(exc)} (line {reader.line_num})") from None
    except OSError as exc:
        raise InputError(f"{where}: cannot read the file: {exc.strerror or exc}") from None
    if width is None:
        raise InputError(f"{where}: the file is empty (a header line naming the columns comes first)")


def _check_header(row: list[str], where: str, delimiter: str) -> None:
    for j, name in enumerate(row, start=1):
        if not name.strip():
            end = "; a delimiter at the end of the line?" if j == len(row) else ""
            raise InputError(
                f"{where}: field {j} of the header is empty: every column needs a name (delimiter "
                f"{json.dumps(delimiter)}{end}) (line 1)"
            )
    seen: dict[str, int] = {}
    for j, name in enumerate(row, start=1):
        if name.lower() in seen:
            raise InputError(
                f"{where}: the header names column {name!r} twice (fields {seen[name.lower()]} and {j}) (line 1)"
            )
        seen[name.lower()] = j


def _csv_cause(exc: csv.Error) -> str:
    text = str(exc)
    if text == "unexpected end of data":
        return "a quoted field is not closed before the end of the file"
    if "expected after" in text:
        return f"{text}: a double quote inside a quoted field is written twice (\"\")"
    return text

