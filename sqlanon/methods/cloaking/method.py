"""Spatial and temporal cloaking (seed 002; Gruteser & Grunwald, MobiSys 2003): locations and times, which no
hand-written hierarchy fits, released as boxes: quadtree cells of a region for space (one or two numeric
columns) and nested halves of a time range, each cloaked column ``c`` as ``c_min``, ``c_max`` ([c_min, c_max)).

Table mode (the default) is a k-anonymous release: every box starts as a whole root (a combination of the
quasi-identifiers released unchanged) and is split top-down, one level of every box per statement, only while
each non-empty part keeps k records (or k subjects); parts below k may be suppressed within the suppression
limit, the splits that cost fewest suppressed records first. Boxes of table mode are disjoint.

Request mode is the survey's location-based-service setting: each record alone goes down the quadtree while its
cell holds k subjects of its time window. A record at a level shares its cell with records that went deeper, so
the released table is *not* k-anonymous: each request's box holds k subjects, which the verification checks
against the source instead of the classes.

NULLs (extended matching): a NULL coordinate is released as NULL bounds; records are split only along their
non-NULL dimensions, in boxes of their own. Basic matching leaves out records with a NULL quasi-identifier.
"""

from __future__ import annotations

import time
from datetime import UTC, datetime
from typing import Any, ClassVar

from ...errors import ConfigError, InputError, NoSolutionError
from ...measures import column_types, numeric_kind
from ...metrics.whd import cumulative
from ..base import AnonymizationMethod, Outcome, ProgressCallback, Records, Release
from ..microaggregation.method import RID
from ..modification import Modification
from .boxes import TEMPLATES, US, Dimension, Rounds, default_region, region_number, split
from .config import CloakingConfig


class CloakingMethod(AnonymizationMethod):
    """k records (or subjects) per released box of space and time."""

    name: ClassVar[str] = "cloaking"

    rounds: Rounds

    @property
    def config(self) -> CloakingConfig:
        return self.session.config  # type: ignore[return-value]

    # -- prepare ----------------------------------------------------------------------------------------------
    def prepare(self) -> None:
        session, adapter, cfg = self.session, self.adapter, self.config
        table = session.describe_source()
        self._check_columns(table.columns)
        kinds = self._kinds(table.parts)
        self.total, self.removed = session.count_records(table, cfg.quasi_identifiers)
        self.considered = self.total - self.removed
        self.max_suppressed = cfg.privacy.max_suppressed(self.considered)
        self.columns = table.columns
        self.records_table = session.scratch("cr")
        qis = cfg.cloaked + cfg.exact
        adapter.run("methods/microaggregation/create_records.sql.j2", table=self.records_table, source=table.parts,
                    qis=qis, others=[c for c in table.columns if c not in qis], rid=RID,
                    basic=cfg.privacy.null_handling == "basic")
        self.state = session.scratch("cs0")
        adapter.run(TEMPLATES + "create_state.sql.j2", table=self.state, records=self.records_table, rid=RID,
                    dims=[{"column": c, "time": kinds[c]} for c in cfg.cloaked], exact=cfg.exact,
                    subject=cfg.cloaking.subject)
        self.dims = self._regions(kinds)
        settings = cfg.cloaking
        if settings.mode == "request" and cfg.time is not None:
            time_dim = len(cfg.space)
            d = self.dims[time_dim]
            adapter.run(TEMPLATES + "assign_windows.sql.j2", state=self.state, dim=time_dim, d=d.context(),
                        size=self.window)
        adapter.run(TEMPLATES + "suppress_small_roots.sql.j2", state=self.state, k=cfg.privacy.k,
                    subject=settings.subject is not None, dims=len(self.dims))
        self.done = session.scratch("cdone")
        adapter.run(TEMPLATES + "create_done.sql.j2", table=self.done, state=self.state)
        self.root_suppressed = int(adapter.run("count_table.sql.j2", table=(self.done,))[0][0])

    @property
    def window(self) -> float:
        """Request mode's time window in the time dimension's unit."""
        cfg = self.config
        assert cfg.cloaking.window is not None and cfg.time is not None
        d = next(d for d in self.dims if d.time)
        return float(round(cfg.cloaking.window * US)) if d.timestamp else cfg.cloaking.window

    def _check_columns(self, columns: list[str]) -> None:
        cfg = self.config
        if RID in columns:
            raise ConfigError(f"source: a column named {RID!r} is reserved by cloaking; rename it")
        released = {c["name"] for c in cfg.released_columns(columns)}
        for name in cfg.cloaked:
            for made in (f"{name}_min", f"{name}_max"):
                if made in released:
                    raise ConfigError(f"attributes.{name}: cloaking releases it as {made}, which is already a "
                                      f"released column of the source; rename one, or give {made} role ignore")
        subject = cfg.cloaking.subject
        if subject is not None and subject not in columns:
            raise ConfigError(f"cloaking.subject: no column {subject!r} in the source (columns: {', '.join(columns)})")

    def _kinds(self, parts: tuple[str, ...]) -> dict[str, bool]:
        """Per cloaked column: True for a timestamp or date (counted in microseconds), False for numbers."""
        cfg = self.config
        kinds: dict[str, bool] = {}
        for name, type_name in zip(cfg.cloaked, column_types(self.adapter, parts, cfg.cloaked), strict=True):
            lowered = type_name.lower()
            # Spark's timestamp is an instant (counted exactly whatever the session's zone) and its
            # timestamp_ntz a wall-clock time read in the session's zone; PostgreSQL's timestamptz is refused.
            timestamp = lowered in ("date", "timestamp", "timestamp without time zone", "timestamp_ntz")
            if numeric_kind(type_name) is None and not timestamp:
                need = "a numeric column" if name in cfg.space else "a timestamp, date or numeric column"
                hint = (" (cast it to a timestamp in UTC in a view)" if "zone" in lowered or lowered == "timestamptz"
                        else "")
                raise ConfigError(f"attributes.{name}: cloak: {cfg.attributes[name].cloak} needs {need}; {name!r} "
                                  f"is {type_name}{hint}")
            if timestamp and name in cfg.space:
                raise ConfigError(f"attributes.{name}: cloak: space needs a numeric column; {name!r} is {type_name} "
                                  f"(use cloak: time)")
            kinds[name] = timestamp
        return kinds

    def _regions(self, kinds: dict[str, bool]) -> list[Dimension]:
        """Each dimension's region: the config's, or the data's bounding box; values outside are an error."""
        cfg = self.config
        row = self.adapter.run(TEMPLATES + "describe_dims.sql.j2", state=self.state, dims=cfg.cloaked)[0]
        dims = []
        for i, name in enumerate(cfg.cloaked):
            low, high, nulls = row[3 * i], row[3 * i + 1], int(row[3 * i + 2])
            given = cfg.cloaking.region.get(name)
            if given is None:
                x0, w = default_region(None if low is None else float(low), None if high is None else float(high),
                                       kinds[name])
            else:
                where = f"{cfg.source_file}: cloaking.region.{name}"
                x0 = region_number(given[0], kinds[name], where)
                w = region_number(given[1], kinds[name], where) - x0
            dims.append(Dimension(column=name, time=cfg.attributes[name].cloak == "time", timestamp=kinds[name],
                                  x0=x0, w=w, nulls=nulls))
        if cfg.cloaking.region:
            outside = self.adapter.run(TEMPLATES + "count_outside.sql.j2", state=self.state,
                                       dims=[d.context() for d in dims])[0]
            for d, count in zip(dims, outside, strict=True):
                if int(count):
                    raise InputError(f"{cfg.source_file}: cloaking.region.{d.column}: {int(count)} records have a "
                                     f"{d.column} outside the region; widen it, or leave it out to take the data's")
        return dims

    def records(self) -> Records:
        return Records(rows=self.total, considered=self.considered, removed_for_null=self.removed,
                       max_suppressed=self.max_suppressed)

    # -- solve ------------------------------------------------------------------------------------------------
    def solve(self, plan: dict[str, Any] | None, on_violation: str, progress: ProgressCallback | None,
              started: float) -> str:
        cfg = self.config
        settings = cfg.cloaking
        counted = "subjects" if settings.subject else "records"
        if self.root_suppressed > self.max_suppressed:
            apart = (f" of {', '.join(cfg.exact)} (released unchanged, each combination cloaked apart)"
                     if cfg.exact else "")
            window = " and time window" if settings.mode == "request" and cfg.time else ""
            raise NoSolutionError(
                f"{self.root_suppressed} records are in combinations{apart}{window} (or patterns of NULL coordinates) "
                f"with fewer than k={cfg.privacy.k} "
                f"{counted}, so no box can hold them; the suppression limit is {self.max_suppressed}: raise "
                f"privacy.suppression_limit" + (", or leave out unchanged quasi-identifiers" if cfg.exact else ""))

        def tick(done: int, total: int) -> None:
            if progress is not None:
                progress(done, total, None, time.perf_counter() - started)

        request = settings.mode == "request"
        self.rounds = split(self.adapter, self.session.scratch, self.state, self.done, dims=self.dims,
                            k=cfg.privacy.k, subject=settings.subject is not None,
                            budget=self.max_suppressed - self.root_suppressed, space_levels=settings.space_levels,
                            time_levels=self.time_levels, request=request, tick=tick)
        self._measure()
        return self.strategy_name()

    @property
    def time_levels(self) -> int:
        """The finest time level that splits: for timestamps, no finer than a microsecond (an interval below one
        would have equal bounds once they are whole microseconds)."""
        levels = self.config.cloaking.time_levels
        for d in self.dims:
            if d.time and d.integral:
                levels = min(levels, int(d.w).bit_length() - 1)
        return levels

    def strategy_name(self) -> str:
        return "interval cloaking (per request)" if self.config.cloaking.mode == "request" else "top-down splits"

    def _measure(self) -> None:
        rows = self.adapter.run(TEMPLATES + "describe_levels.sql.j2", state=self.done,
                                dims=[d.context() for d in self.dims])
        self.levels = [(int(r[0]), int(r[1]), int(r[2]), [int(v) for v in r[3:-1]], int(r[-1])) for r in rows]
        self.suppressed = sum(n for ls, _, n, _, _ in self.levels if ls < 0)

    # -- release and verification -----------------------------------------------------------------------------
    def release(self) -> Release:
        cfg = self.config
        request = cfg.cloaking.mode == "request"
        cloaked = {d.column: {"index": i, "d": d.context(), "level": "lt" if d.time else "ls",
                              "window": self.window if request and d.time else None}
                   for i, d in enumerate(self.dims)}
        return Release(
            template=TEMPLATES + "write_cloaked.sql.j2",
            context={"records": self.records_table, "rid": RID, "state": self.done,
                     "columns": cfg.released_columns(self.columns), "cloaked": cloaked,
                     "timestamps": [d.column for d in self.dims if d.timestamp]},
            qis=self.released_qis(),
            # Request mode's classes are not held to k: each box is, against the source (verify_models).
            k=1 if request else cfg.privacy.k,
            considered=self.considered,
            max_suppressed=self.max_suppressed,
            starred=False,
        )

    def released_qis(self) -> list[str]:
        cfg = self.config
        return [f"{c}_{end}" for c in cfg.cloaked for end in ("min", "max")] + cfg.exact

    def verify_models(self, table: tuple[str, ...]) -> dict[str, Any] | None:
        """Request mode, or k subjects: every released box against the source's records inside it (the classes
        alone cannot show either: subjects are not released, and request boxes overlap)."""
        cfg = self.config
        request = cfg.cloaking.mode == "request"
        if not request and cfg.cloaking.subject is None:
            return None
        boxes, below, fewest, mismatched = (int(v or 0) for v in self.adapter.run(
            TEMPLATES + "verify_boxes.sql.j2", output=table, records=self.records_table,
            cloaked=[{"column": d.column, "nullable": d.nulls > 0} for d in self.dims], exact=cfg.exact,
            subject=cfg.cloaking.subject, k=cfg.privacy.k, bucket=self._bucket(table))[0])
        # Table mode's boxes are disjoint and hold no suppressed record: the records inside are the class.
        ok = below == 0 and (request or mismatched == 0)
        return {"models_verified": ok,
                "models_checked": ["k per request" if request else "k subjects per box"],
                "classes_failing_models": below + (0 if request else mismatched),
                "boxes": boxes, "fewest_inside": fewest, "boxes_below_k": below,
                **({} if request else {"boxes_not_matching_their_records": mismatched})}

    def _bucket(self, table: tuple[str, ...]) -> int | None:
        """The time dimension when the written table's time intervals are disjoint and never NULL (request
        mode's windows; checked on the table, not assumed): verify_boxes then meets each box with the records of
        its interval only."""
        index = next((i for i, d in enumerate(self.dims) if d.time and d.nulls == 0), None)
        if index is None:
            return None
        overlaps, nulls = self.adapter.run("count_overlaps.sql.j2", output=table,
                                           column=self.dims[index].column)[0]
        return index if int(overlaps) == 0 and int(nulls) == 0 else None

    # -- what the run tells -----------------------------------------------------------------------------------
    def _depth_whd(self, d: Dimension, ls: int, lt: int) -> float:
        """A released cell's WHD in the dimension's implicit hierarchy: the value, then its cell at the finest
        level, ..., the whole region (height levels + 2); request mode's window: value, window, region."""
        cfg = self.config
        weights = ("uniform", 1.0)
        if d.time and cfg.cloaking.mode == "request":
            return float(cumulative(3, *weights)[1])
        levels = cfg.cloaking.time_levels if d.time else cfg.cloaking.space_levels
        depth = lt if d.time else ls
        return float(cumulative(levels + 2, *weights)[levels + 1 - depth])

    def metrics(self) -> dict[str, float]:
        q = len(self.config.quasi_identifiers)
        cells = self.modification().records * q
        distortion = float(self.suppressed * q)
        area = interval = 0.0
        space = [d for d in self.dims if not d.time]
        time_dim = next((i for i, d in enumerate(self.dims) if d.time), None)
        in_space = sum(full for ls, _, _, _, full in self.levels if ls >= 0)
        timed = 0
        for ls, lt, _count, non_null, full in self.levels:
            if ls < 0:
                continue
            for d, cnt in zip(self.dims, non_null, strict=True):
                distortion += cnt * self._depth_whd(d, ls, lt)
            sides = [d.w / 2**ls for d in space]
            area += full * (sides[0] * sides[1] if len(sides) == 2 else (sides[0] if sides else 0.0))
            if time_dim is not None:
                d = self.dims[time_dim]
                length = self.window if self.config.cloaking.mode == "request" else d.w / 2**lt
                interval += non_null[time_dim] * d.unit(length)
                timed += non_null[time_dim]
        out = {"whd": distortion / cells if cells else 0.0, "whd_distortion": distortion,
               "modification_rate": self.modification().rate}
        if len(space) == 2:
            out["mean_box_area"] = area / in_space if in_space else 0.0
        elif space:
            out["mean_box_width"] = area / in_space if in_space else 0.0
        if timed:
            out["mean_interval"] = interval / timed
        return out

    def modification(self) -> Modification:
        """Every cloaked cell of a kept record that is not NULL is modified (an interval is never the value); the
        unchanged quasi-identifiers never are."""
        modified = dict.fromkeys(self.config.quasi_identifiers, 0)
        for ls, _, _, non_null, _ in self.levels:
            if ls >= 0:
                for d, cnt in zip(self.dims, non_null, strict=True):
                    modified[d.column] += cnt
        records = sum(count for _, _, count, _, _ in self.levels)
        return Modification.of(list(modified), records, self.suppressed, list(modified.values()))

    def outcome(self) -> Outcome:
        cfg = self.config
        by_level: dict[str, int] = {}
        for ls, lt, count, _, _ in self.levels:
            if ls >= 0:
                by_level[f"{ls},{lt}"] = count
        return Outcome(
            suppressed_rows=self.suppressed,
            metrics=self.metrics(),
            details={
                "strategy": self.strategy_name(),
                "mode": cfg.cloaking.mode,
                "subject": cfg.cloaking.subject,
                "rounds": self.rounds.rounds,
                "region": self._region_shown(),
                "modification_rate_by_attribute": self.modification().by_attribute,
                "space_levels": cfg.cloaking.space_levels,
                "time_levels": cfg.cloaking.time_levels,
                "records_by_level": by_level,
                "interval_unit": "seconds" if any(d.timestamp for d in self.dims) else "units",
            },
        )

    def _region_shown(self) -> dict[str, dict[str, float | str]]:
        """Each dimension's region [low, high) in the column's own terms (numbers, or ISO date-times)."""
        return {d.column: {"low": self._shown(d, d.x0), "high": self._shown(d, d.x0 + d.w)} for d in self.dims}

    @staticmethod
    def _shown(d: Dimension, value: float) -> float | str:
        if not d.timestamp:
            return value
        return datetime.fromtimestamp(value / US, tz=UTC).replace(tzinfo=None).isoformat()

    def report_sections(self, result: Any, table: tuple[str, ...] | None,
                        class_info: dict[str, Any] | None) -> dict[str, Any]:
        return {"cloaking": {key: result.details[key] for key in (
            "strategy", "mode", "subject", "rounds", "region", "space_levels", "time_levels", "records_by_level",
            "interval_unit")}}

    def validation(self) -> dict[str, Any]:
        cfg = self.config
        return {
            "quasi_identifiers": cfg.quasi_identifiers,
            "cloaked": {d.column: "time" if d.time else "space" for d in self.dims},
            "released_unchanged": cfg.exact,
            "mode": cfg.cloaking.mode,
            "region": self._region_shown(),
            "records_that_cannot_be_boxed": self.root_suppressed,
        }

    @classmethod
    def summary_lines(cls, result: Any) -> list[str]:
        m = result.metrics
        sizes = []
        if "mean_box_area" in m:
            sizes.append(f"mean box area {m['mean_box_area']:.6g}")
        if "mean_box_width" in m:
            sizes.append(f"mean box width {m['mean_box_width']:.6g}")
        if "mean_interval" in m:
            sizes.append(f"mean interval {m['mean_interval']:.6g} {result.interval_unit}")
        lines = [
            f"  k={result.k}{' subjects' if result.subject else ''}, mode {result.mode}, strategy {result.strategy}, "
            f"{result.rounds} rounds",
            "  " + ", ".join(sizes) if sizes else "",
            f"  suppressed rows: {result.suppressed_rows}"
            + (f"; removed for NULL (basic match): {result.removed_for_null}" if result.removed_for_null else ""),
            f"  WHD per cell {m['whd']:.6g}, modification rate {m['modification_rate']:.4%}",
        ]
        if result.mode == "request":
            lines.append("  request mode: every released box holds k subjects of the source; the table itself is "
                         "not k-anonymous (this protects each request, not the table)")
        lines.append(f"  {result.statements} SQL statements")
        return [line for line in lines if line]
