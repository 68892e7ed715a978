"""``sqlanon check``'s options, each checked (and every hierarchy file read) before the database is opened."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from fractions import Fraction
from pathlib import Path

from ..errors import ConfigError
from ..hierarchy.sources import read_csv_hierarchy


def parse_hierarchy_specs(specs: Sequence[str]) -> dict[str, Path]:
    """``ATTRIBUTE=FILE`` values of ``--hierarchy`` (repeatable) as a mapping.

    >>> parse_hierarchy_specs(["diagnosis=h/diagnosis.csv"])
    {'diagnosis': PosixPath('h/diagnosis.csv')}
    """
    result: dict[str, Path] = {}
    for spec in specs:
        name, sep, path = spec.partition("=")
        if not sep or not name.strip() or not path.strip():
            raise ConfigError(f"--hierarchy: expected ATTRIBUTE=FILE, e.g. diagnosis=diagnosis.csv (got {spec!r})")
        name = name.strip()
        if name in result:
            raise ConfigError(f"--hierarchy: attribute {name!r} given twice (value {spec!r})")
        result[name] = Path(path.strip())
    return result


def parse_suppression_limit(value: str | int | float | Fraction | None) -> int | Fraction | None:
    """``--suppression-limit``: an integer is a count of records, a number with a point a fraction in [0, 1]
    of the table's rows (as ``privacy.suppression_limit``; floored).

    >>> parse_suppression_limit("3"), parse_suppression_limit("0.05"), parse_suppression_limit(None)
    (3, Fraction(1, 20), None)
    """
    if value is None:
        return None
    text = str(value).strip()
    try:
        if isinstance(value, bool):
            raise ValueError
        if isinstance(value, int) or (isinstance(value, str) and re.fullmatch(r"[+-]?\d+", text)):
            count = int(text)
            if count < 0:
                raise ValueError
            return count
        fraction = value if isinstance(value, Fraction) else Fraction(text)
    except (ValueError, ZeroDivisionError):
        raise ConfigError(
            f"--suppression-limit: expected a count (e.g. 10) or a fraction of the rows in [0, 1] "
            f"(e.g. 0.05) (got {value!r})"
        ) from None
    if not 0 <= fraction <= 1:
        raise ConfigError(f"--suppression-limit: a fraction must be in [0, 1] (got {value})")
    return fraction


def parse_c(c: float | int | str | Fraction) -> Fraction:
    try:
        value = c if isinstance(c, Fraction) else Fraction(str(c))
    except (ValueError, ZeroDivisionError):
        raise ConfigError(f"--c: expected a number > 0 (got {c!r})") from None
    if value <= 0:
        raise ConfigError(f"--c: must be > 0 (got {c})")
    return value


def parse_k_and_limit(
    qis: list[str], k: int | None, masked_as_suppressed: bool, suppression_limit: str | int | Fraction | None
) -> int | Fraction | None:
    """``--qi``, ``--k`` and ``--suppression-limit`` checked; the limit parsed (``parse_suppression_limit``)."""
    if not qis:
        raise ConfigError("--qi: give at least one quasi-identifier column")
    if k is not None and k < 1:
        raise ConfigError(f"--k: must be >= 1 (got {k})")
    if suppression_limit is not None and not masked_as_suppressed:
        raise ConfigError(
            f"--suppression-limit: limits the masked rows, so it needs --masked-as-suppressed "
            f"(got --suppression-limit {suppression_limit})"
        )
    return parse_suppression_limit(suppression_limit)


def check_source_options(source: str | None, key: str | None, standardize: str) -> None:
    if (source is None) != (key is None):
        raise ConfigError("--source and --key go together: the source table and the column that matches its rows "
                          "to the checked table's")
    if standardize not in ("z_score", "range", "none"):
        raise ConfigError(f"--standardize: expected z_score, range or none (got {standardize!r})")


def hierarchy_paths(hierarchies: Mapping[str, str | Path] | None, attributes: list[str]) -> dict[str, Path]:
    """``--hierarchy`` files by attribute, each of a ``--sensitive`` attribute."""
    hierarchy_paths = {name: Path(path) for name, path in (hierarchies or {}).items()}
    for name, path in hierarchy_paths.items():
        if name not in attributes:
            raise ConfigError(
                f"--hierarchy: {name!r} is not one of the --sensitive attributes "
                f"({', '.join(attributes) or 'none given'}) (value {name}={path})"
            )
    return hierarchy_paths


def parse_q(q: float | str | None) -> Fraction | None:
    if q is None:
        return None
    try:
        value = Fraction(str(q))
    except (ValueError, ZeroDivisionError):
        raise ConfigError(f"--q: expected a fraction in (0, 1] (got {q!r})") from None
    if not 0 < value <= 1:
        raise ConfigError(f"--q: expected a fraction in (0, 1] (got {q})")
    return value


def read_hierarchy(path: Path, where: str) -> list[list[str | None]]:
    """An ARX-shaped hierarchy file (';'-separated, no header), read as a config's CSV hierarchy is."""
    rows = read_csv_hierarchy(path, ";", None, where)
    if len(rows[0]) < 3:
        raise ConfigError(
            f"{where}: a hierarchy needs at least two columns (value;...;top), got {len(rows[0]) - 1}"
        )
    return rows
