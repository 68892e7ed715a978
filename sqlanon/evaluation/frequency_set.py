"""The frequency set: the source aggregated once into distinct quasi-identifier combinations.

It carries the integer code and the Loss weight of every level of every hierarchy, so that a lattice
node is evaluated by a single GROUP BY over this (small) table instead of the raw source.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ..engines.base import EngineAdapter
from ..hierarchy import LoadedHierarchy


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
    #: The counts and codes alone, for k-anonymity node queries (``EngineAdapter.CODE_TABLE``), if built.
    codes_table: str | None = None
    #: distinct_codes[i][j]: number of distinct values of QI i at level j in the data; counted only when asked
    #: for (``build(count_distinct=True)``: DM*'s bound reads them), else None.
    distinct_codes: tuple[tuple[int, ...], ...] | None = None

    @classmethod
    def build(
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
    ) -> FrequencySet:
        qis = [{"column": h.attribute, "coded": h.coded_table, "height": h.height} for h in hierarchies]
        adapter.run("build_frequency_set.sql.j2", table=table, source=tuple(source), qis=qis, basic=basic,
                    sensitive=list(sensitive))
        heights = [h.height for h in hierarchies]
        if codes_table is not None:
            adapter.run("project_frequency_set.sql.j2", table=codes_table, source=table, heights=heights)
        row = adapter.run("summarize_frequency_set.sql.j2", table=table, heights=heights, distinct=count_distinct)[0]
        records, distinct = int(row[0] or 0), int(row[1])
        sums, counts, single, maxima, pos = [], [], [], [], 2
        for h in heights:
            cells = [row[pos + 4 * j: pos + 4 * j + 4] for j in range(h)]
            sums.append(tuple(int(total or 0) for total, _, _, _ in cells))
            if count_distinct:
                counts.append(tuple(int(count or 0) for _, count, _, _ in cells))
            # An empty frequency set has no codes (max and min NULL): no level has a single one.
            single.append(tuple(high is not None and high == low for _, _, high, low in cells))
            maxima.append(max(int(high or 0) for _, _, high, _ in cells))
            pos += 4 * h
        return cls(table, records, distinct, tuple(sums), tuple(single), tuple(maxima), tuple(sensitive), population,
                   codes_table, tuple(counts) if count_distinct else None)
