"""``sqlanon demo``: synthetic microdata with NULLs in an embedded DuckDB file, anonymized end to end."""

from __future__ import annotations

from pathlib import Path

import yaml

from .api import AnonymizationResult, anonymize
from .config import parse_config
from .engines import adapter_for_url

DEMO_TABLE = "patients"


def demo_output(k: int) -> str:
    return f"patients_k{k}"


def demo_config(database: Path, k: int = 5) -> dict:
    """The config the demo runs (also written next to the database so it can be re-run and edited)."""
    return {
        "source": {"url": f"duckdb:///{database.name}", "table": DEMO_TABLE},
        "output": {"table": demo_output(k), "if_exists": "replace", "suppressed_rows": "remove"},
        "attributes": {
            "patient_id": {"role": "identifier"},
            "name": {"role": "identifier"},
            "age": {"role": "quasi_identifier", "hierarchy": {"intervals": {"widths": [5, 10, 20]}}},
            "zip": {"role": "quasi_identifier", "hierarchy": {"mask": {"length": 5}}},
            "sex": {"role": "quasi_identifier",
                    "hierarchy": {"inline": {"female": ["*"], "male": ["*"]}}},
            "admitted": {"role": "quasi_identifier",
                         "hierarchy": {"dates": {"levels": ["month", "year", "decade"]}}},
            "diagnosis": {"role": "sensitive"},
            "length_of_stay": {"role": "insensitive"},
            "notes": {"role": "ignore"},
        },
        "privacy": {"k": k, "suppression_limit": 0.05, "null_handling": "extended"},
        "search": {"strategy": "flash", "metric": "loss"},
    }


def create_demo_database(database: Path, rows: int, seed: float = 0.42) -> None:
    adapter = adapter_for_url(f"duckdb:///{database}")
    adapter.connect()
    try:
        adapter.set_random_seed(seed)
        adapter.run("drop_table.sql.j2", table=(DEMO_TABLE,))
        adapter.run("create_demo_table.sql.j2", table=(DEMO_TABLE,), rows=rows)
    finally:
        adapter.close()


def run_demo(database: Path, rows: int = 20_000, k: int = 5) -> tuple[AnonymizationResult, Path, list[tuple]]:
    """Create the table, write the config beside it, anonymize; return result, config path, sample rows."""
    database = database.resolve()
    database.parent.mkdir(parents=True, exist_ok=True)
    create_demo_database(database, rows)
    data = demo_config(database, k)
    config_path = database.with_suffix(".yaml")
    config_path.write_text(
        "# Written by `sqlanon demo`; run it again with: sqlanon anonymize " + config_path.name + "\n"
        + yaml.safe_dump(data, sort_keys=False),
        encoding="utf-8",
    )
    result = anonymize(parse_config(data, source=str(config_path), base_dir=database.parent))
    adapter = adapter_for_url(f"duckdb:///{database}")
    adapter.connect()
    try:
        sample = adapter.run("sample_table.sql.j2", table=(demo_output(k),), limit=5)
        header = adapter.column_names((demo_output(k),))
    finally:
        adapter.close()
    return result, config_path, [tuple(header), *sample]
