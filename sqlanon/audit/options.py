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
    qis: list[str], k: int | None, masked_as_suppressed: bool, suppression_limit: str | int | Fraction | None,
    boxes: Sequence[str] = (),
) -> int | Fraction | None:
    """``--qi``, ``--k`` and ``--suppression-limit`` checked; the limit parsed (``parse_suppression_limit``).
    ``--qi`` may be empty when ``--box`` columns make the classes."""
    if not qis and not boxes:
        raise ConfigError("--qi: give at least one quasi-identifier column (or --box columns)")
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


def hierarchy_paths(
    hierarchies: Mapping[str, str | Path] | None, attributes: list[str], qis: Sequence[str] = (),
    source: str | None = None,
) -> dict[str, Path]:
    """``--hierarchy`` files by attribute, each of a ``--sensitive`` attribute (hierarchical t-closeness) or of a
    ``--qi`` column (its WHD against ``--source``, which it needs)."""
    hierarchy_paths = {name: Path(path) for name, path in (hierarchies or {}).items()}
    for name, path in hierarchy_paths.items():
        if name in qis and source is None:
            raise ConfigError(
                f"--hierarchy: {name!r} is a quasi-identifier; its WHD compares the table with the table it was "
                f"made from, which needs --source and --key (value {name}={path})"
            )
        if name not in attributes and name not in qis:
            raise ConfigError(
                f"--hierarchy: {name!r} is not one of the --sensitive attributes "
                f"({', '.join(attributes) or 'none given'}) nor a --qi column ({', '.join(qis) or 'none given'}) "
                f"(value {name}={path})"
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


def parse_boxes(boxes: str | Sequence[str] | None) -> list[str]:
    """``--box``: the cloaked columns c, each released as ``c_min`` and ``c_max`` (a comma list, or a list).

    >>> parse_boxes("lat, lon,ts"), parse_boxes(None)
    (['lat', 'lon', 'ts'], [])
    """
    if boxes is None:
        return []
    names = [b.strip() for b in boxes.split(",")] if isinstance(boxes, str) else [str(b).strip() for b in boxes]
    if not names or any(not n for n in names):
        raise ConfigError(f"--box: expected a comma-separated list of cloaked columns, e.g. lat,lon,ts "
                          f"(got {boxes!r})")
    return list(dict.fromkeys(names))


def check_box_options(  # noqa: PLR0913 - the options that go with --box, checked together
    boxes: list[str], *, source: str | None, subject: str | None, per_request: bool, k: int | None,
    masked_as_suppressed: bool,
) -> None:
    """``--subject`` and ``--per-request`` need ``--box`` and ``--source`` (and ``--k``: the k judged)."""
    if subject is not None and (source is None or not boxes):
        raise ConfigError(f"--subject: counts the distinct subjects of the source inside each released box, so it "
                          f"needs --box and --source/--key (got --subject {subject})")
    if per_request and (source is None or not boxes or k is None):
        raise ConfigError("--per-request: judges the per-request k (the fewest source subjects inside a released "
                          "box) against --k, so it needs --box, --source/--key and --k")
    if boxes and masked_as_suppressed:
        raise ConfigError("--masked-as-suppressed: a cloaking release (--box) has no all-'*' rows to treat as "
                          "suppressed records; leave out one of the two")


def parse_whd(weights: str, beta: float | int | str) -> tuple[str, float]:
    """``--whd-weights`` (uniform | height) and ``--whd-beta`` (>= 1, the exponent of the height weights).

    >>> parse_whd("height", "2")
    ('height', 2.0)
    """
    if weights not in ("uniform", "height"):
        raise ConfigError(f"--whd-weights: expected uniform or height (got {weights!r})")
    try:
        value = float(str(beta))
    except ValueError:
        raise ConfigError(f"--whd-beta: expected a number >= 1 (got {beta!r})") from None
    if not value >= 1 or value == float("inf"):
        raise ConfigError(f"--whd-beta: expected a number >= 1 (got {beta})")
    return weights, value
