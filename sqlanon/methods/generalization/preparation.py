"""Preparing full-domain generalization in the database: hierarchies loaded as lookup tables, the source
aggregated once into the frequency set (with the copies the engine's node queries read), the lattice and what
the metrics need. Nothing of the source's rows comes back to Python."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from ...criteria.registry import numeric_variants
from ...errors import ConfigError, EngineError, InputError
from ...evaluation import FrequencySet, rollup
from ...evaluation.tuning import tuning_for
from ...hierarchy import LoadedHierarchy, load_hierarchy
from ...hierarchy.loading import validate_hierarchy_values
from ...identifiers import display_name, parse_spelled_name
from ...lattice import Lattice
from ...measures import column_types, numeric_kind
from ...metrics import InformationLossMetric, MetricContext, metric_by_name

if TYPE_CHECKING:
    from ...engines.base import EngineAdapter
    from ...session import Session
    from .config import GeneralizationConfig


@dataclass(frozen=True)
class PreparedData:
    source: tuple[str, ...]
    source_display: str
    columns: list[str]
    total_rows: int
    removed_for_null: int
    hierarchies: list[LoadedHierarchy]
    fset: FrequencySet
    lattice: Lattice
    ctx: MetricContext
    #: The search's information-loss metric (``search.metric``), resolved once.
    metric: type[InformationLossMetric]
    #: The source grouped on every column the run reads (``group_source_rows.sql.j2``), where the engine groups
    #: before joining lookups: the frequency set and the release's kinds read it instead of the source.
    grouped: GroupedRows | None = None


@dataclass(frozen=True)
class GroupedRows:
    table: str
    #: The column of how many source rows each of its rows stands for.
    counted: str


def groupable(adapter: EngineAdapter, source: tuple[str, ...], copied: list[str]) -> bool:
    """Whether the copied columns can be grouped (``EngineAdapter.UNGROUPABLE_TYPES``)."""
    ungroupable = adapter.UNGROUPABLE_TYPES
    if not copied or not ungroupable:
        return True
    types = column_types(adapter, source, copied)
    return not any(t.removesuffix("[]") in ungroupable for t in types)


class Preparation:
    """The steps of preparing one run's data, on the session's connection and scratch tables."""

    def __init__(self, session: Session) -> None:
        self.session = session
        self.adapter: EngineAdapter = session.adapter
        #: What the engine's node queries read and how (``evaluation/tuning.py``): which tables to build here.
        self.tuning = tuning_for(self.adapter)
        self.prefix = session.prefix
        self.temporary = session.temporary

    @property
    def config(self) -> GeneralizationConfig:
        return self.session.config  # type: ignore[return-value]

    def prepare(self) -> PreparedData:
        session = self.session
        table = session.describe_source()
        source, shown, columns = table.parts, table.shown, table.columns
        cfg = self.config
        qis = cfg.quasi_identifiers
        # The run's scans are of the source's size, unless a delta-presence population (not counted) is joined:
        # only then may the engine's settings follow the source's row count.
        size_known = cfg.privacy.delta_presence is None
        if size_known:
            self.adapter.settings_for_data(None)
        grouped = self._grouping(source, columns)
        if grouped is None:
            total, removed = session.count_records(table, qis)
        else:
            # The records are counted from the grouped rows: one pass over the source fewer. The planner's
            # estimate of its rows sizes the grouping's work_mem.
            if size_known:
                self.adapter.settings_for_data(self.adapter.estimated_rows(source))
            with self.adapter.aggregate_settings(parallel=True, many_groups=True):
                self._group(source, columns, grouped)
            total, removed = session.count_records(table, qis, grouped=((grouped.table,), grouped.counted))
        considered = total - removed
        basic = cfg.privacy.null_handling == "basic"
        if size_known:
            self.adapter.settings_for_data(total)
        hierarchies, deferred = [], []
        for index, name in enumerate(qis):
            attr = cfg.attributes[name]
            assert attr.hierarchy is not None
            loaded = load_hierarchy(
                self.adapter, attr.hierarchy, attribute=name, source=source, resolve=cfg.resolve,
                prefix=self.prefix, index=index, created=self.temporary, check_values=False,
                # a population's values are coded through the same table
                source_rows=total if size_known else None, deferred=deferred,
            )
            if attr.max_level is not None and attr.max_level > loaded.height - 1:
                raise ConfigError(
                    f"attributes.{name}.max_level: {attr.max_level} exceeds the hierarchy's top level "
                    f"{loaded.height - 1}"
                )
            hierarchies.append(loaded)
        if deferred:  # the coded tables of hierarchies coded in Python, created together
            staging = f"{self.prefix}cs"
            self.temporary.append(staging)
            self.adapter.create_coded_tables(deferred, staging)
        sensitive = self._sensitive_domains(source, basic)
        population = self._population(hierarchies, basic)
        # Queries with models or a population read the whole frequency set and sum the Loss weights themselves
        # (judge.sql.j2): none of the k-anonymity query's tables below are made for them.
        judged = bool(sensitive) or population is not None
        metric = metric_by_name(cfg.search.metric)
        fs_table = f"{self.prefix}fs"
        self.temporary.append(fs_table)
        codes_table = f"{self.prefix}fsc" if self.tuning.CODE_TABLE else None
        if codes_table is not None:
            self.temporary.append(codes_table)
        slice_check = None if judged else self._slice_check(considered, metric)
        with self.adapter.aggregate_settings():
            fset = FrequencySet.build(
                self.adapter, table=fs_table, source=(grouped.table,) if grouped else source,
                hierarchies=hierarchies, basic=basic, counted=grouped.counted if grouped else None,
                sensitive=sensitive, population=population, codes_table=codes_table,
                count_distinct=metric.reads_distinct_codes,
                slice_check=slice_check, rollup_tables=[] if judged else self._rollup_tables(),
                ranges_table=self._ranges_table() if slice_check else None,
            )
        if fset.records != considered:
            self._lost_records(source, hierarchies, fset.records, considered)
        if self.tuning.CODE_WEIGHTS and not judged:
            weights_table = f"{self.prefix}cw"
            self.temporary.append(weights_table)
            fset = fset.with_code_weights(self.adapter, weights_table, hierarchies)
        lattice = Lattice.build(
            [h.height for h in hierarchies], [cfg.attributes[q].max_level for q in qis]
        )
        ctx = MetricContext(
            records=fset.records,
            max_suppressed=cfg.privacy.max_suppressed(fset.records),
            k=cfg.privacy.k,
            heights=lattice.heights,
            leaves=tuple(h.leaves for h in hierarchies),
            weight_sums=fset.weight_sums,
            distinct_codes=fset.distinct_codes,
            distinct_rows=fset.distinct,
            priorities=tuple(Fraction(str(cfg.attributes[q].priority)) for q in qis),
            level_loss=tuple(
                None if h.loss is None else tuple(Fraction(str(x)) for x in h.loss) for h in hierarchies
            ),
            whd_weights=(cfg.search.whd.weights, cfg.search.whd.beta),
        )
        return PreparedData(source, shown, columns, total, removed, hierarchies, fset, lattice, ctx, metric, grouped)

    def _grouping(self, source: tuple[str, ...], columns: list[str]) -> GroupedRows | None:
        """Where the source is grouped once on the columns the run reads and releases (``_group``): where the
        engine groups before joining lookups (``GROUPS_BEFORE_LOOKUPS``: PostgreSQL), so that the frequency set's
        build and the release do not group every row each, and the records are counted from the groups; None
        elsewhere, or where a released column cannot be grouped (``EngineAdapter.UNGROUPABLE_TYPES``: that
        release sorts every row instead)."""
        if not self.adapter.GROUPS_BEFORE_LOOKUPS:
            return None
        copied = [c for c in self._read(columns) if c not in self.config.quasi_identifiers]
        if not groupable(self.adapter, source, copied):
            return None
        counted = "sqlanon_rows"
        while counted in columns:  # a name of none of the source's columns
            counted += "_"
        return GroupedRows(f"{self.prefix}gr", counted)

    def _read(self, columns: list[str]) -> list[str]:
        """The columns grouped: the released ones hold every column the frequency set reads (sensitive
        attributes are released)."""
        return [c["name"] for c in self.config.released_columns(columns)]

    def _group(self, source: tuple[str, ...], columns: list[str], grouped: GroupedRows) -> None:
        self.temporary.append(grouped.table)
        self.adapter.run("group_source_rows.sql.j2", table=grouped.table, source=source, columns=self._read(columns),
                         counted=grouped.counted)

    def _slice_check(self, considered: int, metric: type[InformationLossMetric]) -> tuple[int, int] | None:
        """(k, limit) where feasibility checks may be sliced (``slicing.py``): k-anonymity checks that count
        nothing but suppressed records, in Flash's walk (a limit, and a metric the levels do not determine);
        its cover checks the open region's maximal nodes, which lie above the slicing levels."""
        cfg = self.config
        limit = cfg.privacy.max_suppressed(considered)
        if not self.tuning.SLICED_CHECKS or metric.class_statistics or metric.levels_determine_value or limit == 0:
            return None
        return cfg.privacy.k, limit

    def _rollup_tables(self) -> list[str]:
        """Names for rolled-up code tables (``rollup.py``), registered for removal: the k-anonymity queries read
        them."""
        if not self.tuning.ROLLUPS or not self.tuning.CODE_TABLE:
            return []
        names = [f"{self.prefix}fsr{n}" for n in range(rollup.QIS + 1)]
        self.temporary.extend(names)
        return names

    def _ranges_table(self) -> str | None:
        """A name for the table of the code table's part ranges, registered for removal, where sliced checks
        read parts by their row positions (``NodeQueryTuning.reads_part_ranges``)."""
        if not self.tuning.CODE_TABLE or not self.tuning.reads_part_ranges(self.adapter):
            return None
        name = f"{self.prefix}fsp"
        self.temporary.append(name)
        return name

    def _lost_records(
        self, source: tuple[str, ...], hierarchies: list[LoadedHierarchy], kept: int, considered: int
    ) -> None:
        """The frequency set's joins drop a record whose value has no row at a hierarchy's level 0. The data is
        scanned for such values only then, one quasi-identifier at a time (a scan of the source per
        quasi-identifier on every run was nearly all of the validation's time), and the error names them."""
        for h in hierarchies:
            validate_hierarchy_values(self.adapter, h, source, h.where)
        raise EngineError(  # pragma: no cover - every lost record is a value missing from a hierarchy
            f"the frequency set holds {kept} of the {considered} records considered"
        )

    def _sensitive_domains(self, source: tuple[str, ...], basic: bool) -> list[dict[str, Any]]:
        """One domain table per sensitive attribute with models (codes, table-wide counts, hierarchy codes)."""
        cfg = self.config
        out = []
        for j, name in enumerate(cfg.sensitive_with_models):
            attr = cfg.attributes[name]
            numeric = any(m.criterion(j, name).needs_numeric_column() for m in attr.models)
            if numeric:
                type_name = column_types(self.adapter, source, [name])[0]
                if numeric_kind(type_name) is None:
                    # Decided by the declared type, not by whether today's values happen to cast: text
                    # order would rank '10' < '100' < '9' for the ordered distance.
                    raise InputError(
                        f"attributes.{name}: {numeric_variants()} need a numeric column; {name!r} is {type_name}"
                    )
            coded, height = None, 0
            if attr.hierarchy is not None:
                loaded = load_hierarchy(
                    self.adapter, attr.hierarchy, attribute=name, source=source, resolve=cfg.resolve,
                    prefix=self.prefix, index=100 + j, created=self.temporary,
                )
                coded, height = loaded.coded_table, loaded.height
            domain = f"{self.prefix}d{j}"
            self.temporary.append(domain)
            try:
                self.adapter.run(
                    "build_sensitive_domain.sql.j2", table=domain, source=source, column=name,
                    qis=cfg.quasi_identifiers, basic=basic, numeric=numeric, hierarchy=coded, height=height,
                )
            except EngineError as exc:
                raise InputError(f"attributes.{name}: {numeric_variants()} need a numeric column ({exc})") from None
            size, roots, ordered_max, hierarchical_max = self.adapter.run(
                "describe_sensitive_domain.sql.j2", domain=domain, height=height
            )[0]
            out.append({"column": name, "domain": domain, "domain_size": int(size), "numeric": numeric,
                        "height": height, "single_root": int(roots) <= 1, "ordered_max": int(ordered_max or 0),
                        "hierarchical_max": int(hierarchical_max or 0)})
        return out

    def _population(self, hierarchies: list[LoadedHierarchy], basic: bool) -> str | None:
        """Frequency set of the delta-presence population, through the same hierarchies."""
        dp = self.config.privacy.delta_presence
        if dp is None:
            return None
        table = self.adapter.resolve_relation(parse_spelled_name(dp.population_table)).parts
        try:
            columns = self.adapter.column_names(table)
        except Exception:
            raise ConfigError(
                f"privacy.delta_presence.population_table: table not found (value: {dp.population_table!r})"
            ) from None
        missing = [h.attribute for h in hierarchies if h.attribute not in columns]
        if missing:
            raise ConfigError(
                f"privacy.delta_presence.population_table: {display_name(table)} lacks the quasi-identifier "
                f"column(s) {', '.join(repr(m) for m in missing)}"
            )
        for h in hierarchies:
            validate_hierarchy_values(
                self.adapter, h, table, f"privacy.delta_presence.population_table ({h.attribute})"
            )
        pfs = f"{self.prefix}pfs"
        self.temporary.append(pfs)
        qis = [{"column": h.attribute, "coded": h.coded_table, "height": h.height} for h in hierarchies]
        self.adapter.run("build_frequency_set.sql.j2", table=pfs, source=table, qis=qis, basic=basic, sensitive=[])
        return pfs

