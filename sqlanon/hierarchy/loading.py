"""Loading a hierarchy into the target database as a lookup table, validating it, and encoding it.

Over 400 lines on purpose: loading, validation and coding are one pass over the same lookup table, and their
error messages (which name the config file, attribute and value) share the helpers at the bottom; where a
hierarchy comes from is apart, in ``sources.py``.
"""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from ..config.models import HierarchyConfig
from ..engines.base import EngineAdapter
from ..errors import ConfigError, EngineError, InputError
from ..identifiers import display_name, parse_spelled_name
from . import encoding
from .sources import delimiter_hint, inline_rows, plain_csv, read_csv_hierarchy

PROBLEM_LIMIT = 20
#: Hierarchy files up to this size are read, checked and coded in Python (encoding.py), as inline mappings
#: are: every benchmark hierarchy but CUP's ZIP (3.3 MB, 100,001 rows), which the database parses and codes.
PYTHON_FILE_BYTES = 256 * 1024


@dataclass(frozen=True)
class CodedRows:
    """A coded table to create (``create_coded_table.sql.j2``'s columns) and its rows, coded in Python."""

    table: str
    height: int
    rows: list[tuple[object, ...]]


@dataclass(frozen=True)
class LoadedHierarchy:
    """A hierarchy that lives in the database as an integer-coded lookup table (and a raw one, unless it was
    coded in Python)."""

    attribute: str
    #: Every row of the hierarchy: the raw lookup table, or the coded one (same value and label columns) of a
    #: hierarchy coded in Python. validate_hierarchy.sql.j2 checks data values against it, and the report
    #: takes its examples from it (configuration, never the data's values).
    values_table: str
    #: The integer-coded lookup table. Coded in the database for a source of few rows, it holds only the
    #: values of the source (and the NULL row): see ``_code_in_database``.
    coded_table: str
    height: int
    #: Where error messages about it point (config key, and the file of a CSV hierarchy).
    where: str
    #: Non-NULL hierarchy rows as written (N of the Loss metric; duplicates counted).
    leaves: int
    #: Declared information loss per level for WIL (None: level / (height - 1)).
    loss: tuple[float, ...] | None
    #: Per level, the Loss weight every coded row has there where they all have the same one (a level-0 value is
    #: its own label: 0; a single top label: N - 1), else None. The frequency set stores no weight column for
    #: such a level (its weight is that number times the row's count): known only of hierarchies coded in
    #: Python (``encoding.fixed_weights``), the others store every level's.
    fixed_weights: tuple[int | None, ...] = ()
    #: Per level, the level-0 codes whose label there is not their value, as a short list (``encoding.
    #: modified_codes``), for the modification rate's statement; None (or empty, for a hierarchy coded in the
    #: database) where it looks them up in the coded table.
    modified_codes: tuple[tuple[bool, tuple[int, ...]] | None, ...] = ()


def load_hierarchy(  # noqa: PLR0913 - keyword-only, each named at its two call sites
    adapter: EngineAdapter,
    config: HierarchyConfig,
    *,
    attribute: str,
    source: Sequence[str],
    resolve,
    prefix: str,
    index: int,
    created: list[str],
    check_values: bool = True,
    source_rows: int | None = None,
    deferred: list[CodedRows] | None = None,
) -> LoadedHierarchy:
    """Create, fill, validate and encode the lookup tables of one quasi-identifier.

    ``created`` receives every temporary table name so the caller can always drop them. Without
    ``check_values`` the data is not scanned for values missing from level 0: the caller checks that its
    frequency set kept every record (its joins drop a record whose value has no hierarchy row) and runs
    ``validate_hierarchy_values`` only when one was lost. ``source_rows``: the source's row count, when the
    coded table is only ever joined to the source's values (``_code_in_database``). ``deferred``: where given,
    a hierarchy coded in Python leaves its rows there instead of creating its coded table, and the caller
    creates all of them at once (``EngineAdapter.create_coded_tables``).
    """
    where = f"attributes.{attribute}.hierarchy"
    raw, coded = f"{prefix}h{index}", f"{prefix}c{index}"
    kind = config.kind
    found = _read_source(adapter, config, where, resolve, raw, f"{prefix}s{index}", created)
    height = found.height
    if config.loss is not None and len(config.loss) != height:
        raise ConfigError(f"{where}.loss: {len(config.loss)} values for a hierarchy of height {height}")

    # A file of one column whose lines hold another delimiter was most likely read with the wrong one.
    hint = delimiter_hint(found.path, config.delimiter) if found.path is not None and height == 1 else ""
    if kind == "csv":
        where = f"{where} (file {config.csv})"  # content errors name the hierarchy file too
    loading = _Loading(adapter, tuple(source), attribute, raw, coded, where, created, check_values)
    fixed: tuple[int | None, ...] = (None,) * height
    modified: tuple[tuple[bool, tuple[int, ...]] | None, ...] = ()
    if found.rows is not None:
        leaves, fixed, modified = _load_rows(loading, found.rows, height, deferred, hint)
        checked = coded  # same value and label columns as the raw table
    else:
        if not found.loaded:  # else load_csv_hierarchy.sql.j2 created and filled it
            created.append(raw)
            adapter.run("create_lookup_table.sql.j2", table=raw, height=height)
            context = {"lookup": raw, "source": tuple(source), "column": attribute, **found.build}
            _build(adapter, kind, context, where, attribute)
        # A builder's hierarchy holds the source's values alone already.
        generated = kind in ("intervals", "mask", "dates")
        leaves = _code_in_database(
            loading, height, source_rows if kind in ("csv", "table") else None, hint=hint,
            empty=_entirely_null(attribute, source, prefix, kind) if generated else None,
            mask_length=config.mask.length if config.mask is not None else None,
        )
        checked = raw
    return LoadedHierarchy(
        attribute=attribute,
        values_table=checked,
        coded_table=coded,
        height=height,
        where=where,
        leaves=leaves,
        loss=tuple(config.loss) if config.loss is not None else None,
        fixed_weights=fixed,
        modified_codes=modified,
    )


@dataclass(frozen=True)
class _Source:
    """A hierarchy as its config gives it: its height, and what fills its raw lookup table."""

    height: int
    #: Rows read in Python (a small CSV file, an inline mapping), checked and coded there (``_load_rows``).
    rows: list[list[str | None]] | None = None
    #: The file of a CSV hierarchy.
    path: Path | None = None
    #: The database read the CSV file into the raw lookup table itself (``_load_plain_csv``).
    loaded: bool = False
    #: What a builder's template needs besides the lookup table and the column (``_build``).
    build: dict[str, object] = field(default_factory=dict)


def _read_source(
    adapter: EngineAdapter, config: HierarchyConfig, where: str, resolve, raw: str, staging: str, created: list[str]
) -> _Source:
    """Read a CSV or inline hierarchy's rows (a large plain CSV file straight into ``raw``, by the database), or
    describe a builder's."""
    if config.kind == "csv":
        assert config.csv is not None
        path = resolve(config.csv)
        if not _small_file(path):
            created.append(raw)
            loaded = _load_plain_csv(adapter, config, path, raw, staging)
            if loaded is not None:
                return _Source(loaded, path=path, loaded=True)
        rows = read_csv_hierarchy(path, config.delimiter, config.null_value, f"{where}.csv")
        return _Source(len(rows[0]) - 1, rows=rows, path=path)
    if config.kind == "inline":
        assert config.inline is not None
        if not config.inline:
            raise ConfigError(f"{where}.inline: the mapping is empty")
        rows = inline_rows(config.inline, where, config.null_value)
        return _Source(len(rows[0]) - 1, rows=rows)
    return _builder_source(adapter, config, where)


def _builder_source(adapter: EngineAdapter, config: HierarchyConfig, where: str) -> _Source:
    """A hierarchy the database builds: copied from a table, or generated (intervals, mask, dates)."""
    if config.kind == "table":
        assert config.table is not None
        table = adapter.resolve_relation(parse_spelled_name(config.table)).parts
        try:
            columns = adapter.column_names(table)
        except Exception:
            raise ConfigError(f"{where}.table: hierarchy table not found (value: {config.table!r})") from None
        return _Source(len(columns), build={"source": table, "columns": columns})
    if config.kind == "intervals":
        assert config.intervals is not None
        return _Source(len(config.intervals.widths) + 2, build={"widths": config.intervals.widths})
    if config.kind == "mask":
        assert config.mask is not None
        return _Source(config.mask.length + 1, build={"length": config.mask.length, "char": config.mask.char})
    assert config.dates is not None
    return _Source(len(config.dates.levels) + 2, build={"levels": config.dates.levels})


@dataclass(frozen=True)
class _Loading:
    """One hierarchy being loaded: where, from which column, into which lookup tables, and what is checked."""

    adapter: EngineAdapter
    #: The table whose column ``attribute`` the hierarchy generalizes.
    source: tuple[str, ...]
    attribute: str
    #: The raw lookup table (the rows as written) and the integer-coded one.
    raw: str
    coded: str
    #: Where error messages point (config key, and the file of a CSV hierarchy).
    where: str
    #: Receives every table created, so that the caller can always drop them.
    created: list[str]
    #: Whether the source's values are checked against level 0 here (``load_hierarchy``).
    check_values: bool


def _entirely_null(attribute: str, source: Sequence[str], prefix: str, kind: str) -> str:
    """The message for a generated hierarchy without values: its column is NULL in every row."""
    # The session's own copy of a CSV source has a name of this run's, which would tell the user nothing.
    table = "" if len(source) == 1 and source[0].startswith(prefix) else f" in {display_name(tuple(source))}"
    return (
        f"attributes.{attribute}: column {attribute!r} is entirely NULL{table}; {'an' if kind[0] in 'aeiou' else 'a'} "
        f"{kind} hierarchy is generated "
        f"from the column's values and there are none. A column NULL in every row distinguishes no one: give it "
        f"role insensitive (copied), identifier or ignore (removed)"
    )


def _build(adapter: EngineAdapter, kind: str, context: dict, where: str, attribute: str) -> None:
    """Fill the lookup table from a table hierarchy or a builder (intervals, mask, dates)."""
    template = {
        "table": "copy_table_hierarchy.sql.j2",
        "intervals": "build_interval_hierarchy.sql.j2",
        "mask": "build_mask_hierarchy.sql.j2",
        "dates": "build_date_hierarchy.sql.j2",
    }[kind]
    try:
        adapter.run(template, **context)
    except InputError:
        raise
    except Exception as exc:
        raise InputError(f"{where}.{kind}: cannot build the hierarchy from column {attribute!r}: {exc}") from None


def _code_in_database(
    loading: _Loading, height: int, source_rows: int | None, *, hint: str = "", empty: str | None = None,
    mask_length: int | None = None,
) -> int:
    """Survey (``is_plain_tree``; validate where it finds no plain tree), describe and encode the raw lookup
    table in SQL (``_load_rows`` does it in Python); the number of leaves.

    A source of at most ``height`` times the hierarchy's rows (``source_rows``) has its values coded alone:
    the encoding joins every row once per level, and a source that small costs less to scan for its values
    (a large hierarchy such as CUP's ZIP codes is then coded faster, and with smaller codes). Loss weights
    still count every row of the hierarchy. ``hint``: added to the message about several top labels; ``empty``:
    the message for a hierarchy without values; ``mask_length``: a mask hierarchy's length, for the message
    about values of another length."""
    adapter, raw, where = loading.adapter, loading.raw, loading.where
    # Of height 1, level 0 is the top, where the NULL row added below takes a value's label.
    surveyed = f"{raw}_sequences" if not loading.check_values and height > 1 else None
    if surveyed is not None:
        loading.created.append(surveyed)
    unique = surveyed is not None and is_plain_tree(adapter, raw, height, surveyed)
    sequences = surveyed if unique else None  # read again by the description and the coding of a plain tree
    if not unique:
        _validate(adapter, raw, loading.source, loading.attribute, height, where, loading.check_values,
                  mask_length=mask_length)
    leaves, null_rows, top_labels, top_label = describe_lookup(adapter, raw, height, sequences)
    _check_description(where, leaves, null_rows, top_labels, hint=hint, empty=empty)
    if null_rows == 0:
        adapter.run("add_null_row.sql.j2", lookup=raw, height=height, top_label=top_label)
    loading.created.append(loading.coded)
    few = source_rows is not None and source_rows <= height * (int(leaves) + 1)
    adapter.run("encode_hierarchy.sql.j2", lookup=raw, coded=loading.coded, height=height,
                null_explicit=null_rows == 1, leaves=leaves, unique=unique, sequences=sequences,
                null_sequence=top_label if unique and null_rows == 0 else None,
                data={"source": loading.source, "column": loading.attribute} if few else None)
    return int(leaves)


def is_plain_tree(adapter: EngineAdapter, lookup: str, height: int, sequences: str) -> bool:
    """Whether ``survey_hierarchy.sql.j2`` finds a tree whose rows each have their own value, equal to l0, and
    at most one NULL row: validate_hierarchy.sql.j2 would find no fault in it, and encode_hierarchy.sql.j2 may
    code it as ``unique``. Any other hierarchy goes through the exhaustive validation, which words its
    problems, if it has any. ``sequences``: a name for the new temporary table of the lookup's label
    sequences (``label_sequences.sql.j2``; height 2 and above), which the survey reads, and the description
    and the encoding may, so that the three steps build them once."""
    adapter.run("label_sequences.sql.j2", table=sequences, lookup=lookup, height=height)
    repeated, unlike, null_rows, forks, incomplete = adapter.run(
        "survey_hierarchy.sql.j2", lookup=lookup, height=height, sequences=sequences)[0]
    return not (int(repeated) or int(unlike) or int(forks) or int(incomplete)) and int(null_rows) <= 1


def describe_lookup(
    adapter: EngineAdapter, lookup: str, height: int, sequences: str | None = None
) -> tuple[int, int, int, str | None]:
    """``describe_hierarchy.sql.j2``'s row: leaves, NULL rows, distinct top labels, the smallest top label. The
    distinct top labels are counted only when there are several (then the hierarchy is refused or needs them).
    ``sequences``: the lookup's table of label sequences (``is_plain_tree``), read instead where there is one."""
    context = {"lookup": lookup, "height": height, "sequences": sequences}
    leaves, null_rows, top_labels, top_label = adapter.run("describe_hierarchy.sql.j2", **context, count_tops=False)[0]
    if top_labels is None:
        top_labels = adapter.run("describe_hierarchy.sql.j2", **context, count_tops=True)[0][2]
    return int(leaves), int(null_rows), int(top_labels), top_label


def _small_file(path: Path) -> bool:
    try:
        return path.stat().st_size <= PYTHON_FILE_BYTES
    except OSError:
        return True  # Python's reader words the error


def _load_rows(
    loading: _Loading, rows: list[list[str | None]], height: int, deferred: list[CodedRows] | None = None,
    hint: str = "",
) -> tuple[int, tuple[int | None, ...], tuple[tuple[bool, tuple[int, ...]] | None, ...]]:
    """The coded table of a hierarchy whose rows are in Python, checked and coded there; the number of
    leaves, the Loss weight of each level where every coded row has the same one (``fixed_weights``), and each
    level's modified codes (``modified_codes``). A hierarchy that is not a tree goes to the database after all,
    which lists its problems."""
    adapter, where = loading.adapter, loading.where
    if not encoding.well_formed(rows, height):
        loading.created.append(loading.raw)
        load_lookup_rows(adapter, rows, loading.raw, loading.source, loading.attribute, where, loading.check_values)
        raise EngineError(f"{where}: the database found no fault in a hierarchy Python rejected")  # pragma: no cover
    described = encoding.describe(rows)
    _check_description(where, described.leaves, described.null_rows, described.top_labels, hint=hint)
    null_explicit = described.null_rows == 1
    if not null_explicit:
        rows = [*rows, [None] * height + [described.top_label]]  # add_null_row.sql.j2
    loading.created.append(loading.coded)
    coded = encoding.encode(rows, height, null_explicit)
    batch = [CodedRows(loading.coded, height, coded)]
    if deferred is not None and not loading.check_values:
        deferred.extend(batch)
    else:
        adapter.create_coded_tables(batch)
    if loading.check_values:  # values of the data missing from level 0
        _validate(adapter, loading.coded, loading.source, loading.attribute, height, where)
    return described.leaves, encoding.fixed_weights(coded, height), encoding.modified_codes(coded, height)


def _check_description(
    where: str, leaves: int, null_rows: int, top_labels: int, *, hint: str = "", empty: str | None = None
) -> None:
    if leaves == 0:
        raise InputError(empty or f"{where}: the hierarchy has no values")
    if null_rows > 1:
        raise InputError(f"{where}: NULL is mapped more than once")
    if null_rows == 0 and top_labels != 1:
        raise InputError(
            f"{where}: the top level has {top_labels} different values; extended match needs a single top "
            f"value to generalize NULL to, or an explicit NULL mapping{hint}"
        )


def _load_plain_csv(
    adapter: EngineAdapter, config: HierarchyConfig, path: Path, raw: str, staging: str
) -> int | None:
    """Fill the lookup table ``raw`` with the database's own CSV reader and return the height, or None when
    Python's reader is to load the file: it is not plain (``sources.plain_csv``) or the database rejected it,
    for a row of another width, say, which Python's reader then words as an error."""
    plain = plain_csv(path, config.delimiter)
    if plain is None:
        return None
    staged = False
    try:
        staged = adapter.stage_csv(staging, plain.data, config.delimiter, plain.height)
        adapter.run(
            "load_csv_hierarchy.sql.j2", table=raw, height=plain.height, path=str(path), delimiter=config.delimiter,
            null=f"sqlanon-null-{secrets.token_hex(16)}", staging=staging, null_value=config.null_value,
        )
    except EngineError:
        return None
    finally:
        if staged:
            adapter.run("drop_table.sql.j2", table=(staging,))
    return plain.height


def load_lookup_rows(
    adapter: EngineAdapter, rows: list[list[str | None]], lookup: str, source: Sequence[str], attribute: str,
    where: str, check_values: bool = True,
) -> None:
    """Create the lookup table ``lookup`` from rows read in Python (``[value, l0, l1, ..., top]``) and validate
    it: values of the column missing from level 0 (with ``check_values``), values mapped twice, labels with two
    parents. The caller registers ``lookup`` for removal first."""
    height = len(rows[0]) - 1
    adapter.run("create_lookup_table.sql.j2", table=lookup, height=height)
    adapter.bulk_insert(adapter.quote_identifier(lookup), height + 1, rows)
    _validate(adapter, lookup, source, attribute, height, where, check_values)


def validate_hierarchy_values(
    adapter: EngineAdapter, hierarchy: LoadedHierarchy, source: Sequence[str], where: str
) -> None:
    """Validate a loaded hierarchy against another table's column of the same name (a population)."""
    _validate(adapter, hierarchy.values_table, source, hierarchy.attribute, hierarchy.height, where)


def _validate(
    adapter: EngineAdapter, raw: str, source: Sequence[str], attribute: str, height: int, where: str,
    check_values: bool = True, *, mask_length: int | None = None,
) -> None:
    def problems_found(values: bool) -> list[tuple]:
        return adapter.run(
            "validate_hierarchy.sql.j2",
            lookup=raw,
            source=tuple(source) if values else None,
            column=attribute,
            height=height,
            limit=PROBLEM_LIMIT,
        )

    problems = problems_found(check_values)
    if not problems:
        return
    if not check_values:
        problems = problems_found(True)  # the message lists every problem, values missing from the data too
    by_kind: dict[str, list[tuple[object, object, int]]] = {}
    for kind, value, detail, total in problems:
        by_kind.setdefault(kind, []).append((value, detail, int(total)))
    messages = []
    if "missing" in by_kind:
        items = by_kind["missing"]
        listed = ", ".join(f"{v!r} ({n} rows)" for v, n, _ in items)
        total = items[0][2]
        more = f" (first {len(items)} of {total}, most frequent first)" if total > len(items) else ""
        messages.append(f"{where}: {total} value(s) of column {attribute!r} missing from level 0{more}: {listed}")
    if "ambiguous" in by_kind:
        items = by_kind["ambiguous"]
        listed = ", ".join(f"{v!r} (level {lvl})" for v, lvl, _ in items)
        messages.append(f"{where}: {items[0][2]} value(s) map to more than one value at a level: {listed}")
    if "inconsistent" in by_kind:
        items = by_kind["inconsistent"]
        listed = ", ".join(f"{v!r} (level {int(lvl) - 1} -> {lvl})" for v, lvl, _ in items)
        messages.append(
            f"{where}: inconsistent levels, {items[0][2]} label(s) have more than one parent "
            f"at the next level: {listed}"
        )
    if "incomplete" in by_kind and mask_length is not None:
        messages.append(_mask_lengths(where, attribute, mask_length, by_kind.pop("incomplete")))
    if "incomplete" in by_kind:
        items = by_kind["incomplete"]
        listed = ", ".join(f"{v!r} (level {lvl})" for v, lvl, _ in items)
        messages.append(f"{where}: {items[0][2]} value(s) have no label at some level: {listed}")
    raise InputError("\n".join(messages))


def _mask_lengths(where: str, attribute: str, length: int, items: list[tuple[object, object, int]]) -> str:
    """A mask labels only values of its length (build_mask_hierarchy.sql.j2); the others have no labels. Their
    lengths, of the values listed (at most ``PROBLEM_LIMIT``, in order), say what ``length`` should be."""
    total = items[0][2]
    lengths = sorted({len(str(v)) for v, _, _ in items})
    seen = f"{lengths[0]}..{lengths[-1]}" if len(lengths) > 3 else ", ".join(str(n) for n in lengths)
    among = f" (of the first {len(items)} in order)" if total > len(items) else ""
    listed = ", ".join(f"{v!r} ({len(str(v))})" for v, _, _ in items)
    return (
        f"{where}.mask.length: {length}, but {total} value(s) of column {attribute!r} have another length: "
        f"lengths seen {seen}{among}: {listed}; a mask generalizes values of one length (the mask's)"
    )
