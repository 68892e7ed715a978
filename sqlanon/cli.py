"""Command line interface (click), thin over the Python API in ``sqlanon.api``.

Exit codes: 0 success, 2 invalid config or input, 3 no feasible node within the limits, 1 unexpected error,
141 (128 + SIGPIPE, as other Unix tools) when the reader of stdout went away (``sqlanon demo | head -1``).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import click

from . import __version__
from .cli_history import db_group, runs_group
from .console import handle_errors, progress_display, summary, url_from_here
from .errors import ConfigError


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="sqlanon")
def main() -> None:
    """Optimal k-anonymity computed inside DuckDB and PostgreSQL.

    \b
    Start here:
      sqlanon demo                              build a synthetic table and anonymize it
      sqlanon validate configs/patients.yaml    check a config and its hierarchies
      sqlanon anonymize configs/patients.yaml   search, write, verify
    """


REPORT_HELP = "Write a report of the run: .html (self-contained, with charts) or .json. Repeatable."


@main.command()
@click.argument("config", type=click.Path(path_type=Path))
@click.option("--db", "db", metavar="URL", help="Database URL; overrides source.url.")
@click.option("--dry-run", is_flag=True, help="Search and report without writing the output table.")
@click.option("--report", "reports", metavar="FILE", multiple=True, type=click.Path(path_type=Path),
              help=REPORT_HELP)
@click.option("--save-transformation", metavar="FILE", type=click.Path(path_type=Path),
              help="Save the chosen transformation and config as JSON, for `sqlanon apply --transformation`.")
@click.option("--json", "as_json", is_flag=True, help="Print exactly one JSON object on stdout.")
@click.option("--quiet", is_flag=True, help="No progress display.")
def anonymize(config: Path, db: str | None, dry_run: bool, reports: tuple[Path, ...],
              save_transformation: Path | None, as_json: bool, quiet: bool) -> None:
    """Find the optimal generalization, write the output table atomically and verify it.

    The run is recorded in the database's run history (schema `sqlanon`; see
    `sqlanon runs list`), unless the config sets history.enabled: false.

    A lattice too large for the optimal search (search.max_lattice_nodes) is
    searched by the top_down heuristic (search.strategy: auto); a search that
    spends its search.budget says "NOT PROVEN OPTIMAL" with a lower bound.

    \b
    Examples:
      sqlanon anonymize configs/patients.yaml
      sqlanon anonymize configs/wellbeing.yaml     # 129 million nodes, a budget
      sqlanon anonymize configs/patients.yaml --report run.html --report run.json
      sqlanon anonymize adult.yaml --db postgresql+psycopg://me@db/warehouse --json
      sqlanon anonymize adult.yaml --dry-run --save-transformation adult-transformation.json
    """
    from . import api
    from .config import load_config

    def action() -> None:
        cfg = load_config(config)
        if save_transformation is not None:  # before the run, not after its write
            from .methods import method_class
            from .paths import check_writable_file

            if not method_class(cfg.method).HAS_PLAN:
                raise ConfigError(f"--save-transformation: method {cfg.method} has no reusable plan to save (its "
                                  f"result depends on the data itself)")
            check_writable_file(_json_path(save_transformation), "--save-transformation")
        progress = progress_display(not (as_json or quiet))
        try:
            result = api.anonymize(cfg, db=db, dry_run=dry_run, progress=progress, report=list(reports))
        finally:
            if progress is not None:
                progress.end()
        if save_transformation is not None:
            _save_json(save_transformation, result.transformation_document())
        # A relative DuckDB path in the config is relative to the config's folder; one given with --db, to here.
        _finish(result, as_json, dry_run, Path.cwd() if db else cfg.base_dir, cfg.history.schema)

    handle_errors(as_json, action)


def _json_path(path: Path) -> Path:
    return path if path.suffix.lower() == ".json" else path.with_name(path.name + ".json")


def _save_json(path: Path, document: dict[str, Any]) -> None:
    from .report import write_report

    write_report(document, _json_path(path))


def _finish(result: Any, as_json: bool, dry_run: bool, base_dir: Path | None, schema: str | None) -> None:
    if as_json:
        click.echo(json.dumps(result.to_dict()))
    else:
        click.echo(summary(result, base_dir, schema))
    if not dry_run and not result.verified:
        sys.exit(1)


@main.command()
@click.option("--run", "run_id", metavar="ID", help="Apply the transformation of this recorded run (needs --db).")
@click.option("--transformation", metavar="FILE", type=click.Path(path_type=Path),
              help="Apply the transformation in this file (--save-transformation, or a --report .json).")
@click.option("--source", required=True, metavar="TABLE", help="The new batch (schema.table allowed).")
@click.option("--output", required=True, metavar="TABLE", help="Table to write (schema.table allowed).")
@click.option("--db", "db", metavar="URL", help="Database URL (default: the recorded config's source.url).")
@click.option("--if-exists", type=click.Choice(["fail", "replace"]), help="Override output.if_exists.")
@click.option("--on-violation", type=click.Choice(["fail", "search"]), default="fail", show_default=True,
              help="When the batch violates k or a privacy model under the transformation: fail (exit 3, "
                   "nothing written) or search for a new optimal transformation.")
@click.option("--schema", "schema", metavar="NAME", help="Run-history schema to read --run from (default sqlanon).")
@click.option("--dry-run", is_flag=True, help="Check the batch without writing the output table.")
@click.option("--report", "reports", metavar="FILE", multiple=True, type=click.Path(path_type=Path),
              help=REPORT_HELP)
@click.option("--json", "as_json", is_flag=True, help="Print exactly one JSON object on stdout.")
@click.option("--quiet", is_flag=True, help="No progress display.")
def apply(  # noqa: PLR0913 - click passes each of the command's options as an argument
    run_id: str | None, transformation: Path | None, source: str, output: str, db: str | None,
    if_exists: str | None, on_violation: str, schema: str | None, dry_run: bool, reports: tuple[Path, ...],
    as_json: bool, quiet: bool,
) -> None:
    """Apply a previously chosen transformation to a new batch (the nightly load).

    The same generalization levels are applied, k and every privacy model are
    re-checked on the batch, and the output is written atomically and verified.
    Exit code 3 and no output table when the batch violates them (unless
    --on-violation search).

    \b
    Examples:
      sqlanon apply --run 5ba39b1b --db duckdb:///warehouse.duckdb --source patients_2026_11 \\
          --output patients_2026_11_k5
      sqlanon apply --transformation patients-k5.json --source staging.batch --output published.batch \\
          --db postgresql+psycopg://etl@db/warehouse --if-exists replace --on-violation search
    """
    from . import api

    def action() -> None:
        progress = progress_display(not (as_json or quiet))
        try:
            result = api.apply(transformation, run=run_id, source=source, output=output, db=db,
                               if_exists=if_exists, on_violation=on_violation, dry_run=dry_run,
                               history_schema=schema, progress=progress, report=list(reports))
        finally:
            if progress is not None:
                progress.end()
        _finish(result, as_json, dry_run, *_apply_recorded_in(transformation, db, schema))

    handle_errors(as_json, action)


def _apply_recorded_in(transformation: Path | None, db: str | None,
                       schema: str | None) -> tuple[Path | None, str | None]:
    """(folder a relative DuckDB path is relative to, history schema) of the database an apply run is recorded in:
    --db is relative to here; without it, the transformation file's recorded config and folder apply."""
    if db or transformation is None:
        return Path.cwd(), schema
    try:
        document = json.loads(transformation.read_text(encoding="utf-8"))
        base, history = document.get("base_dir"), (document.get("config") or {}).get("history") or {}
    except (OSError, ValueError, AttributeError):
        return None, schema
    return (Path(base) if isinstance(base, str) else None), history.get("schema") or schema

@main.command()
@click.option("--db", "db", metavar="URL", required=True, help="Database URL.")
@click.option("--table", required=True, help="Table to measure (schema.table allowed).")
@click.option("--qi", default="", help="Comma-separated quasi-identifier columns (may be left out with --box).")
@click.option("--k", "k", type=int, help="Report classes and records below this k.")
@click.option("--sensitive", metavar="S1,S2", help="Comma-separated sensitive attributes to measure.")
@click.option("--hierarchy", "hierarchy", metavar="ATTR=FILE", multiple=True,
              help="An ARX CSV hierarchy (value;level1;...;top, ';'-separated, one top value): of a sensitive "
                   "attribute for hierarchical t-closeness, or of a quasi-identifier for its WHD against --source. "
                   "Repeatable.")
@click.option("--population", metavar="TABLE",
              help="Population table with the same quasi-identifier columns; --table is the research subset "
                   "(delta-presence).")
@click.option("--c", "c", type=float, default=3.0, show_default=True,
              help="c of recursive (c,l)-diversity (> 0).")
@click.option("--masked-as-suppressed", is_flag=True,
              help="Rows whose every quasi-identifier is '*' (suppressed_rows: mask, ARX) are suppressed records: "
                   "left out of the classes and reported as a separate count.")
@click.option("--suppression-limit", metavar="N|FRACTION",
              help="With --masked-as-suppressed: the most masked rows allowed, a count (10) or a fraction of the "
                   "rows (0.05, floored); exit 3 above it.")
@click.option("--q", "q", metavar="FRACTION",
              help="With --sensitive: the (k,p,q,r)-anonymity the table meets for this q (seed 004): the largest p "
                   "and r of the classes holding a value fewer than q * rows records hold.")
@click.option("--source", metavar="TABLE",
              help="The table the checked one was made from, rows matched one to one on --key: the modification "
                   "rate, the WHD of quasi-identifiers given a --hierarchy, and (every quasi-identifier numeric) "
                   "microaggregation's information loss SSE / SST.")
@click.option("--key", metavar="COLUMN", help="With --source: the column matching the two tables' rows.")
@click.option("--standardize", type=click.Choice(["z_score", "range", "none"]), default="z_score",
              show_default=True, help="With --source: the scale of the information loss, as microaggregation's.")
@click.option("--whd-weights", metavar="uniform|height", default="uniform", show_default=True,
              help="With a quasi-identifier --hierarchy: the edge weights of the WHD (height: 1 / (H - a)^beta).")
@click.option("--whd-beta", metavar="BETA", default="1", show_default=True,
              help="With --whd-weights height: the exponent beta (>= 1).")
@click.option("--box", "box", metavar="C1,C2",
              help="Cloaked columns of a cloaking release, each released as C_min and C_max ([C_min, C_max)): the "
                   "boxes join the classes and are checked; with --source, the values outside their box and the "
                   "per-request k.")
@click.option("--subject", metavar="COLUMN",
              help="With --box and --source: the per-request k counts distinct values of this source column.")
@click.option("--per-request", is_flag=True,
              help="With --box, --source and --k: the exit code judges the per-request k (each released box "
                   "holds >= k subjects) instead of the table's classes.")
@click.option("--trees", is_flag=True,
              help="The table is a table of trees (record_id, node_id, parent_id, attribute, value: method "
                   "related_tables' output): report the largest k of k^(m,n)-anonymity for --m and --n.")
@click.option("--m", "m", type=int, default=3, show_default=True,
              help="With --trees: the most labels of a record an attacker knows.")
@click.option("--n", "n", type=int, default=2, show_default=True,
              help="With --trees: the most ancestor-descendant relations among them an attacker knows.")
@click.option("--json", "as_json", is_flag=True, help="Print exactly one JSON object on stdout.")
def check(  # noqa: PLR0913 - click passes each of the command's options as an argument
    db: str, table: str, qi: str, k: int | None, sensitive: str | None, hierarchy: tuple[str, ...],
    population: str | None, c: float, masked_as_suppressed: bool, suppression_limit: str | None,
    q: str | None, source: str | None, key: str | None, standardize: str, whd_weights: str, whd_beta: str,
    box: str | None, subject: str | None, per_request: bool, trees: bool, m: int, n: int, as_json: bool,
) -> None:
    """Measure k-anonymity and attribute disclosure of an existing table, in SQL.

    NULL is a value of its own, in quasi-identifiers and sensitive attributes.
    Exit code 0 when the table is k-anonymous (or no --k is given), 3 when it
    is not (or its masked rows exceed --suppression-limit, or it breaks a claim:
    an invalid box, a source value outside its box, a released value that does
    not generalize its source value), 2 on bad input (an empty table, a --key
    that does not identify the rows); the sensitive-attribute measures, the
    modification rate and the WHD never change the exit code.

    \b
    Per --sensitive attribute (over the equivalence classes; p = class, q = table distribution):
      distinct l / p      min distinct values per class (distinct l-diversity, p-sensitivity)
      entropy l           min exp(entropy) per class (entropy l-diversity)
      recursive l         largest l with r1 < c (r_l + ... + r_m) in every class (c from --c)
      alpha               max share of the most frequent value in a class ((alpha,k)-anonymity)
      t (equal)           max 1/2 sum |p - q| over all values (t-closeness)
      t (ordered)         max ordered-distance EMD, values ascending, NULL last (numeric columns)
      t (hierarchical)    max hierarchical-distance EMD (needs --hierarchy S=FILE)
      e                   min (max - min) per class, NULLs ignored ((k,e)-anonymity; numeric columns)
    t (ordered) and e are null (n/a) when the column's type is not numeric.
    With --population: delta_min / delta_max of subset / population records per class.
    With --source/--key: modification rate = QI cells whose released value differs from the
    source's / (source rows x QIs), a source row missing from the table modifying all its cells;
    WHD (per QI with a --hierarchy): a cell at level j costs the WHD of climbing j levels, a
    missing row or masked '*' cell 1.
    With --box: the per-request k is the fewest source records (or --subject values) inside a
    released box, over the box dimensions only.
    With --trees: the table holds trees, one row per node; the largest k is the fewest records
    holding any combination of up to --m labels (attribute and value) and up to --n
    ancestor-descendant relations among them that some record holds (k^(m,n)-anonymity, seed 003).

    \b
    Examples:
      sqlanon check --db duckdb:///sqlanon-demo.duckdb --table patients_k5 --qi age,zip,sex,admitted --k 5
      sqlanon check --db duckdb:///study.duckdb --table study --qi age,zip --k 5 \\
          --sensitive diagnosis,length_of_stay --hierarchy diagnosis=diagnosis.csv --c 4 --json
      sqlanon check --db duckdb:///study.duckdb --table study --qi age,zip --population census
      sqlanon check --db duckdb:///wh.duckdb --table adult_k5 --qi age,zip --k 5 \\
          --masked-as-suppressed --suppression-limit 0.05
      sqlanon check --db duckdb:///tax.duckdb --table incomes_k5 --qi income,tax,age --k 5 \\
          --sensitive benefit --q 0.2 --source incomes --key id
      sqlanon check --db duckdb:///wh.duckdb --table adult_k5 --qi age,zip,sex --k 5 \\
          --source adult --key id --hierarchy zip=zip.csv --whd-weights height --whd-beta 1
      sqlanon check --db duckdb:///trips.duckdb --table trips_cloaked --box lat,lon,ts --k 5 \\
          --source trips --key trip_id --subject driver --per-request
      sqlanon check --db duckdb:///tpch.duckdb --table customer_trees --trees --m 3 --n 2 --k 20
    """
    from . import api
    from .audit import format_report, format_verdict, parse_hierarchy_specs

    if trees:
        _check_trees(db, table, m, n, k, as_json, qi=qi or sensitive or source or box)
        return

    def action() -> None:
        attributes = [s.strip() for s in (sensitive or "").split(",") if s.strip()]
        if sensitive is not None and not attributes:
            raise ConfigError("--sensitive: give at least one column name")
        result = api.check(db, table, [q.strip() for q in qi.split(",") if q.strip()], k,
                           sensitive=attributes, hierarchies=parse_hierarchy_specs(hierarchy), population=population,
                           c=c, masked_as_suppressed=masked_as_suppressed, suppression_limit=suppression_limit, q=q,
                           source=source, key=key, standardize=standardize, boxes=box, subject=subject,
                           per_request=per_request, whd_weights=whd_weights, whd_beta=whd_beta)
        if as_json:
            click.echo(json.dumps(result.to_dict()))
        else:
            boxes = (result.boxes or {}).get("columns", [])
            over = [*result.quasi_identifiers, *(f"[{b}_min, {b}_max)" for b in boxes)]
            click.echo(f"{result.table}: {result.rows} rows, {result.classes} equivalence classes over "
                       f"{', '.join(over)}")
            if result.masked_rows is not None:
                limit = ("" if result.suppression_limit is None else
                         f" {'<=' if result.within_suppression_limit else '> the'} limit {result.suppression_limit}"
                         + ("" if result.within_suppression_limit else " -> TOO MANY SUPPRESSED"))
                click.echo(f"  masked rows (every quasi-identifier '*'): {result.masked_rows}, treated as "
                           f"suppressed (not in the classes){limit}")
            click.echo(f"  smallest class {result.smallest_class}, largest {result.largest_class}, "
                       f"rows with a NULL quasi-identifier {result.rows_with_null}")
            if k is not None:
                click.echo(f"  k={k}: {result.classes_below_k} classes / {result.records_below_k} records below k "
                           f"-> {'k-anonymous' if result.k_anonymous else 'NOT k-anonymous'}")
            for line in [*format_verdict(result), *format_report(result)]:
                click.echo(line)
        if not result.passed:
            sys.exit(3)

    handle_errors(as_json, action)


def _check_trees(db: str, table: str, m: int, n: int, k: int | None, as_json: bool, qi: Any) -> None:
    """``check --trees``: k^(m,n) of a node table (exit 3 when below --k or its parent links are broken)."""
    from .audit.trees import check_trees

    def action() -> None:
        if qi:
            raise ConfigError("--trees: the options of a table of records (--qi, --sensitive, --source, --box) do "
                              "not apply to a table of trees")
        audit = check_trees(db, table, m, n, k)
        if as_json:
            click.echo(json.dumps(audit.to_dict()))
        else:
            click.echo(f"{table}: {audit.records} records, {audit.nodes} nodes; every combination of up to m={m} "
                       f"labels and n={n} relations among them is held by 0 or >= {audit.largest_k} records "
                       f"(largest k)")
            if audit.broken_nodes:
                click.echo(f"  {audit.broken_nodes} nodes whose parent is not a node of their record (or that lie "
                           f"on a cycle, or repeat an id) -> NOT a table of trees")
            if k is not None:
                click.echo(f"  k={k}: {audit.combinations_below_k} combinations held by fewer than k records -> "
                           + ("k^(m,n)-anonymous" if audit.anonymous else "NOT k^(m,n)-anonymous"))
        if not audit.anonymous:
            sys.exit(3)

    handle_errors(as_json, action)


@main.command()
@click.argument("config", type=click.Path(path_type=Path))
@click.option("--db", "db", metavar="URL", help="Database URL; overrides source.url.")
@click.option("--json", "as_json", is_flag=True, help="Print exactly one JSON object on stdout.")
def validate(config: Path, db: str | None, as_json: bool) -> None:
    """Validate a config and its hierarchies against the data, without searching.

    \b
    Example:
      sqlanon validate configs/patients.yaml
    """
    from . import api

    def action() -> None:
        info = api.validate(config, db=db)
        if as_json:
            click.echo(json.dumps(info))
        elif info["method"] != "generalization":
            click.echo(_validation_text(config, info))
        else:
            click.echo(f"{config}: valid. {info['rows']} rows in {info['source_table']}, "
                       f"{info['distinct_combinations']} distinct quasi-identifier combinations, "
                       f"lattice of {info['lattice_size']} nodes (heights "
                       + ", ".join(f"{a}={h}" for a, h in info["hierarchy_heights"].items()) + ")")
            plan = info["search"]
            if plan["runs"] and plan["estimated_memory_bytes"] is None:
                click.echo(f"search: {plan['strategy']} over {plan['lattice_size']:,} nodes (state for the explored "
                           f"nodes only)" + (f"; {plan['reason']}" if plan["reason"] else ""))
            elif plan["runs"]:
                click.echo(f"search: {plan['strategy']} over {plan['lattice_size']:,} nodes "
                           f"(at most {plan['max_lattice_nodes']:,}, ~{plan['estimated_memory_bytes'] >> 20:,} MB of "
                           f"search state)" + (f"; {plan['reason']}" if plan["reason"] else ""))
            else:
                click.echo(f"anonymize would refuse this lattice: {plan['refusal']}")

    handle_errors(as_json, action)


def _validation_text(config: Path, info: dict[str, Any]) -> str:
    """``validate``'s lines for a method without a lattice: the common first line, then what the method found
    (its ``validation()``), one key per line."""
    common = {"status", "method", "source_table", "rows", "rows_considered", "removed_for_null", "suppression_limit",
              "database"}
    lines = [f"{config}: valid. {info['rows']} rows in {info['source_table']} (method {info['method']}; "
             f"{info['rows_considered']} considered, suppression limit {info['suppression_limit']})"]
    lines += [f"  {key}: {json.dumps(value)}" for key, value in info.items() if key not in common]
    return "\n".join(lines)


def _parse_node(text: str | None) -> dict[str, int] | None:
    if not text:
        return None
    node: dict[str, int] = {}
    for part in text.split(","):
        name, sep, level = part.partition("=")
        if not sep or not level.strip().isdigit():
            raise ConfigError(f"--node: expected attribute=level pairs like age=2,sex=1 (got {part!r})")
        node[name.strip()] = int(level)
    return node


@main.command()
@click.argument("config", type=click.Path(path_type=Path))
@click.option("--node", "node", metavar="A=L,...", help="Levels per quasi-identifier (default: all 0).")
@click.option("--db", "db", metavar="URL", help="Database URL; overrides source.url.")
def explain(config: Path, node: str | None, db: str | None) -> None:
    """Print the SQL that evaluates one lattice node.

    The statement that builds the frequency set and the node's query, with
    bind parameters written in as literals. They read the run's temporary
    tables, which exist only while sqlanon runs: the header lists them.

    \b
    Example:
      sqlanon explain configs/patients.yaml --node age=2,zip=1
    """
    from . import api

    handle_errors(False, lambda: click.echo(api.explain(config, node=_parse_node(node), db=db)))


@main.command()
@click.option("--path", "path", type=click.Path(path_type=Path), default=Path("sqlanon-demo.duckdb"),
              show_default=True, help="DuckDB file to create (replaced if it exists).")
@click.option("--rows", type=click.IntRange(min=10), default=20_000, show_default=True, help="Rows to generate.")
@click.option("--k", "k", type=click.IntRange(min=1), default=5, show_default=True)
@click.option("--json", "as_json", is_flag=True, help="Print exactly one JSON object on stdout.")
def demo(path: Path, rows: int, k: int, as_json: bool) -> None:
    """Build synthetic patient microdata with NULLs in a DuckDB file and anonymize it.

    \b
    Example:
      sqlanon demo --path /tmp/demo.duckdb --rows 50000 --k 10
    """
    import shlex
    from urllib.parse import quote

    from .demo import run_demo

    def action() -> None:
        result, config_path, sample = run_demo(path, rows=rows, k=k)
        if as_json:
            click.echo(json.dumps({**result.to_dict(), "config": str(config_path)}))
            return
        click.echo(f"created table patients ({rows} rows with NULLs) in {path}")
        click.echo(summary(result, path.resolve().parent, None))
        click.echo(f"\nfirst rows of patients_k{k} (random order):")
        widths = [max(len(str(r[i])) for r in sample) for i in range(len(sample[0]))]
        for row in sample:
            click.echo("  " + "  ".join(str(v).ljust(w) for v, w in zip(row, widths, strict=True)))
        click.echo(f"\nconfig written to {config_path}; re-run with: sqlanon anonymize {config_path}")
        url = shlex.quote(url_from_here(f"duckdb:///{quote(path.name)}", path.resolve().parent))
        click.echo(f"check it: sqlanon check --db {url} --table patients_k{k} "
                   f"--qi age,zip,sex,admitted --k {k}")

    handle_errors(as_json, action)



main.add_command(db_group)
main.add_command(runs_group)

if __name__ == "__main__":  # pragma: no cover
    main()
