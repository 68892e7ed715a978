"""The frequency set: the source aggregated once into distinct quasi-identifier combinations.

It carries the integer code and the Loss weight of every level of every hierarchy, so that a lattice
node is evaluated by a single GROUP BY over this (small) table instead of the raw source.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from ..engines.base import EngineAdapter
from ..hierarchy import LoadedHierarchy
from . import rollup, slicing
from .rollup import RolledUp
from .slicing import Slicing
from .tuning import tuning_for


@dataclass
class PendingCodes:
    """The code table (``FrequencySet.codes_table``), made at its first use: where rolled-up tables serve the
    k-anonymity queries (FARS: every one of them), copying the frequency set's codes costs more than it saves.
    Shared by the copies of a frequency set (``dataclasses.replace``), so it is made once."""

    source: str
    heights: tuple[int, ...]
    sensitive: int
    made: bool = False

    def make(self, adapter: EngineAdapter, table: str) -> None:
        if not self.made:
            adapter.run("project_frequency_set.sql.j2", table=table, source=self.source, heights=list(self.heights),
                        slicing=[], parts=slicing.PARTS, sensitive=self.sensitive)
            self.made = True


@dataclass(frozen=True)
class FrequencySet:
    table: str
    #: Records considered (after removing rows with NULLs under basic match).
    records: int
    #: Distinct quasi-identifier combinations (rows of the frequency set).
    distinct: int
    #: weight_sums[i][j]: sum over all records of the Loss weight (c - 1) of QI i at level j.
    weight_sums: tuple[tuple[int, ...], ...]
    #: single_code[i][j]: QI i has a single code at level j in the data (a class key need not hold it).
    single_code: tuple[tuple[bool, ...], ...]
    #: max_codes[i]: the largest code of QI i at any level in the data (codes are positive; 0 when empty).
    max_codes: tuple[int, ...] = ()
    #: Sensitive attributes with privacy models: [{column, domain, domain_size, numeric, height, single_root,
    #: ordered_max, hierarchical_max}] (the last three for t-closeness: Session._sensitive_domains).
    sensitive: tuple[dict, ...] = ()
    #: Frequency set of the delta-presence population (same QI codes), if any.
    population: str | None = None
    #: The counts and codes alone, for k-anonymity node queries (``NodeQueryTuning.CODE_TABLE``), if built.
    codes_table: str | None = None
    #: distinct_codes[i][j]: number of distinct values of QI i at level j in the data; counted only when asked
    #: for (``build(count_distinct=True)``: DM*'s bound reads them), else None.
    distinct_codes: tuple[tuple[int, ...], ...] | None = None
    #: Each code's Loss weight (``build_code_weights.sql.j2``), for the Loss weights query, if built.
    code_weights: str | None = None
    #: (QI, level) pairs whose codes split the code table into ``parts`` parts (``slicing.py``), if sliced.
    slicing: Slicing = ()
    parts: int = 0
    #: The table of each part's range of row positions (``create_part_ranges.sql.j2``), where sliced checks
    #: read parts by them (``NodeQueryTuning.reads_part_ranges``); else an index on the part serves them.
    part_ranges: str | None = None
    #: The code table rolled up with a QI or two at level 1 (``rollup.py``), if any: tables for nodes above.
    rollups: tuple[RolledUp, ...] = ()
    #: Where the code table is made only when a query first needs it (rolled up from the frequency set).
    codes_pending: PendingCodes | None = None
    #: fixed_weights[i][j]: the Loss weight of every row of QI i's hierarchy at level j where they all have the
    #: same (``LoadedHierarchy.fixed_weights``): the frequency set stores no w{i}_{j} column, and readers take
    #: that weight times cnt instead; None where the column is stored. Empty: every column is stored.
    fixed_weights: tuple[tuple[int | None, ...], ...] = ()

    def fixed_weight(self, qi: int, level: int) -> int | None:
        """QI ``qi``'s Loss weight at ``level`` where every row has it (no column stored), else None."""
        return self.fixed_weights[qi][level] if self.fixed_weights else None

    @classmethod
    def build(  # noqa: PLR0913 - keyword-only: the optional parts of the frequency set, named at the call site
        cls,
        adapter: EngineAdapter,
        *,
        table: str,
        source: Sequence[str],
        hierarchies: Sequence[LoadedHierarchy],
        basic: bool,
        sensitive: Sequence[dict] = (),
        population: str | None = None,
        codes_table: str | None = None,
        count_distinct: bool = False,
        slice_check: tuple[int, int] | None = None,
        rollup_tables: Sequence[str] = (),
        ranges_table: str | None = None,
        counted: str | None = None,
    ) -> FrequencySet:
        """``slice_check``: (k, suppression limit) where feasibility checks may be sliced (``slicing.py``);
        ``rollup_tables``: names for rolled-up code tables (``rollup.py``), where they may be made;
        ``ranges_table``: a name for the table of the parts' row positions, where sliced checks read parts by
        them (``NodeQueryTuning.reads_part_ranges``); ``counted``: where ``source`` is the source grouped already
        (``group_source_rows.sql.j2``), its count column."""
        qis = cls.qi_context(hierarchies)
        fixed = tuple(tuple(qi["fixed"]) for qi in qis)
        adapter.run("build_frequency_set.sql.j2", table=table, source=tuple(source), qis=qis, basic=basic,
                    sensitive=list(sensitive), counted=counted)
        heights = [h.height for h in hierarchies]
        row = adapter.run("summarize_frequency_set.sql.j2", table=table, heights=heights,
                          fixed=[list(f) for f in fixed], distinct=count_distinct,
                          hashed_distinct=tuning_for(adapter).HASHED_COUNT_DISTINCT,
                          k=slice_check[0] if slice_check else None)[0]
        records, distinct = int(row[0] or 0), int(row[1])
        sums, counts, single, maxima, spans, pos = [], [], [], [], [], 2
        for h in heights:
            cells = [row[pos + 4 * j: pos + 4 * j + 4] for j in range(h)]
            sums.append(tuple(int(total or 0) for total, _, _, _ in cells))
            if count_distinct:
                counts.append(tuple(int(count or 0) for _, count, _, _ in cells))
            # An empty frequency set has no codes (max and min NULL): no level has a single one.
            single.append(tuple(high is not None and high == low for _, _, high, low in cells))
            maxima.append(max(int(high or 0) for _, _, high, _ in cells))
            # Codes between the smallest and the largest: the number of codes, or a little more.
            spans.append(tuple(0 if high is None else int(high) - int(low) + 1 for _, _, high, low in cells))
            pos += 4 * h
        levels: Slicing = ()
        rolled: tuple[RolledUp, ...] = ()
        pending = None
        if codes_table is not None:
            radices = [m + 1 for m in maxima]
            if slice_check and slicing.worth_slicing(distinct, int(row[-1] or 0), slice_check[1]):
                levels = cls._slicing(adapter, table, slicing.candidates(heights, spans, radices), distinct)
            qis = rollup.candidates(heights, spans, distinct, records) if rollup_tables else []
            if qis and not levels:
                # Rolled up from the frequency set itself (a pass reads its codes alone, which come first in
                # its rows); the code table waits for a node none of them serves.
                rolled = cls._roll_up(adapter, table, heights, qis, distinct, rollup_tables)
                pending = PendingCodes(table, tuple(heights), len(sensitive)) if rolled else None
            if pending is None:
                adapter.run("project_frequency_set.sql.j2", table=codes_table, source=table, heights=heights,
                            slicing=[{"qi": i, "level": level, "radix": radices[i]} for i, level in levels],
                            parts=slicing.PARTS, sensitive=len(sensitive))
            if levels and ranges_table is not None:
                adapter.run("create_part_ranges.sql.j2", table=ranges_table, source=codes_table)
            elif levels:
                adapter.run("create_part_index.sql.j2", table=codes_table, index=f"{codes_table}_part")
            if qis and levels:
                rolled = cls._roll_up(adapter, codes_table, heights, qis, distinct, rollup_tables)
        return cls(table, records, distinct, tuple(sums), tuple(single), tuple(maxima), tuple(sensitive), population,
                   codes_table, tuple(counts) if count_distinct else None, slicing=levels,
                   parts=slicing.PARTS if levels else 0, part_ranges=ranges_table if levels else None,
                   rollups=rolled, codes_pending=pending, fixed_weights=fixed)

    @staticmethod
    def qi_context(hierarchies: Sequence[LoadedHierarchy]) -> list[dict]:
        """build_frequency_set.sql.j2's ``qis``: each hierarchy's column, coded table, height, and the Loss weight
        of each level whose rows all weigh the same (None elsewhere), which the frequency set stores no column for."""
        return [{"column": h.attribute, "coded": h.coded_table, "height": h.height,
                 "fixed": list(h.fixed_weights or (None,) * h.height)} for h in hierarchies]

    @staticmethod
    def _roll_up(adapter: EngineAdapter, table: str, heights: Sequence[int], qis: Sequence[int], rows: int,
                 names: Sequence[str]) -> tuple[RolledUp, ...]:
        """A rolled-up table per QI from ``table`` (the code table, or the frequency set, whose codes come
        first), and one with both from the smaller, each kept if small enough."""
        def make(name: str, source: str, levels: tuple[int, ...], limit: float) -> RolledUp | None:
            count = adapter.create_counted("roll_up_codes.sql.j2", name, source=source, heights=heights,
                                           levels=levels)
            if count > limit:
                adapter.drop_tables([name])
                return None
            return RolledUp(name, levels, count)

        singles = [made for n, i in enumerate(qis) if (made := make(
            names[n], table, tuple(int(j == i) for j in range(len(heights))), rollup.KEEP_SHARE * rows))]
        if len(singles) < 2:
            return tuple(singles)
        smaller = min(singles, key=lambda t: t.rows)
        both = tuple(max(a, b) for a, b in zip(*(t.levels for t in singles), strict=True))
        combined = make(names[len(qis)], smaller.table, both, rollup.KEEP_SHARE * smaller.rows)
        return (*singles, combined) if combined else tuple(singles)

    @staticmethod
    def _slicing(adapter: EngineAdapter, table: str, pairs: Slicing, rows: int) -> Slicing:
        """The slicing for the code table (``slicing.choose_slicing``), from the largest slice of each candidate."""
        if not pairs:
            return ()
        largest = [0] * len(pairs)
        for grouping, top, _ in adapter.run("describe_slices.sql.j2", table=table,
                                             levels=[{"qi": i, "level": level} for i, level in pairs]):
            # GROUPING() sets the bit of each column left out: the prefix of m columns leaves n - m.
            largest[len(pairs) - int(grouping).bit_length() - 1] = int(top)
        return slicing.choose_slicing(pairs, largest, rows)

    def with_code_weights(
        self, adapter: EngineAdapter, table: str, hierarchies: Sequence[LoadedHierarchy]
    ) -> FrequencySet:
        """The frequency set with the table of each code's Loss weight (``CODE_WEIGHTS``), created as ``table``;
        unchanged, the table dropped, where a code has two weights (an unmapped NULL beside a single value)."""
        adapter.run("build_code_weights.sql.j2", table=table,
                    qis=[{"coded": h.coded_table, "height": h.height} for h in hierarchies])
        if int(adapter.run("describe_code_weights.sql.j2", table=table)[0][0]):
            adapter.drop_tables([table])
            return self
        return replace(self, code_weights=table)
