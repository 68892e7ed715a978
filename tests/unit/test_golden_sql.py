"""Golden SQL: every template rendered through the real engine adapters, compared with a stored snapshot.

Each case renders one template with a fixed, representative context (hostile identifiers included) on
both engines and compares the result with ``tests/snapshots/<case>/<engine>/out.sql``: the SQL exactly
as the driver receives it, followed by the bind parameters as a trailing comment. A template change
therefore shows up as a reviewable diff of the generated SQL.

Regenerate the snapshots after an intended change with::

    SQLANON_UPDATE_SNAPSHOTS=1 python -m pytest tests/unit/test_golden_sql.py

Rendering needs no database connection; the adapters are constructed but never connected.
"""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any

import jinja2
import jinja2.meta
import pytest

from sqlanon.audit.trees import audit_masks
from sqlanon.criteria import PrivacyCriterion
from sqlanon.engines.base import EngineAdapter
from sqlanon.engines.duckdb import DuckDBAdapter
from sqlanon.engines.postgres import PostgresAdapter
from sqlanon.engines.spark import SparkAdapter
from sqlanon.evaluation.evaluator import CLASS_STATISTICS
from sqlanon.methods.related_tables.cuts import masks as rt_masks
from sqlanon.templates import sql_root, template_names
from tests.helpers import REPO

SNAPSHOTS = REPO / "tests" / "snapshots"
UPDATE = os.environ.get("SQLANON_UPDATE_SNAPSHOTS") == "1"
ENGINES = ("duckdb", "postgres", "spark")
PARAMS_PREFIX = "-- bind parameters: "

# Hostile identifiers: an embedded double quote, a semicolon and a space (an injection attempt if it
# were not quoted), and a percent sign (psycopg's placeholder character).
WEIRD = 'we"ird; col'
PERCENT = "pct%col"
PREFIX = "sqlanon_0a1b2c3d_"
#: audit_trees' scratch tables (sqlanon/audit/trees.py names them).
AUDIT_NAMES = {name: f"{PREFIX}audit_{name}" for name in ("nodes", "up", "items")}
SOURCE = ("analytics", "patients")
WEIRD_SOURCE = ("analytics", WEIRD)

NO_MODELS: dict[str, Any] = {"criteria": [], "sensitive": [], "population": None, "n": 1000, "float_sums": False,
                             "counted": list(CLASS_STATISTICS), "code_weights": None,
                             "sliced": None}


#: A chain of three tables for related tables' templates: the root, a child with a limit and a lookup.
RT_CHAIN = [
    {"parts": WEIRD_SOURCE, "key": "id", "fk": None, "limit": None,
     "attrs": [{"cls": 0, "column": "nation", "lookup": None}]},
    {"parts": ("analytics", "orders"), "key": PERCENT, "fk": "cust", "limit": 2,
     "attrs": [{"cls": 1, "column": WEIRD, "lookup": None},
               {"cls": 2, "column": "part", "lookup": {"parts": ("analytics", "part"), "key": "p_key",
                                                       "column": PERCENT}}]},
]
RT_CLASSES = [{"cls": 0, "coded": f"{PREFIX}c0", "distinct": f"{PREFIX}rv0", "name": "nation", "height": 3},
              {"cls": 1, "coded": f"{PREFIX}c1", "distinct": f"{PREFIX}rv1", "name": WEIRD, "height": 4},
              {"cls": 2, "coded": f"{PREFIX}c2", "distinct": f"{PREFIX}rv2", "name": PERCENT, "height": 2}]


#: The class summary columns each kind's model reads, from the criteria's own declarations.
SUMMARY_COLUMNS = {c.kind: list(c.summary_columns) for c in PrivacyCriterion.__subclasses__()}


def _model(kind: str, index: int, attribute: int | None, **params: Any) -> dict[str, Any]:
    return {"kind": kind, "index": index, "attribute": attribute, "summary_columns": SUMMARY_COLUMNS[kind], **params}


#: Every privacy model kind on two sensitive attributes, plus delta-presence.
MODELS: dict[str, Any] = {
    "criteria": [
        _model("distinct_l_diversity", 1, 0, l=3),
        _model("entropy_l_diversity", 2, 0, l=2.5, tolerance=1e-9),
        _model("recursive_cl_diversity", 3, 0, l=2, c={"num": 4, "den": 1}),
        _model("t_closeness", 4, 0, t={"num": 1, "den": 5}, distance="equal"),
        _model("t_closeness", 5, 0, t={"num": 1, "den": 5}, distance="hierarchical"),
        _model("t_closeness", 6, 1, t={"num": 3, "den": 10}, distance="ordered"),
        _model("p_sensitivity", 7, 1, l=2),
        _model("alpha_k_anonymity", 8, 1, alpha={"num": 1, "den": 2}),
        _model("k_e_anonymity", 9, 1, e=5000.0),
        _model("delta_presence", 10, None, dmin={"num": 0, "den": 1}, dmax={"num": 1, "den": 2}),
    ],
    "sensitive": [
        {"column": "diagnosis", "domain": f"{PREFIX}d0", "domain_size": 9, "numeric": False, "height": 3,
         "single_root": True, "ordered_max": 0, "hierarchical_max": 3100},
        {"column": WEIRD, "domain": f"{PREFIX}d1", "domain_size": 40, "numeric": True, "height": 0,
         "single_root": True, "ordered_max": 41000, "hierarchical_max": 0},
    ],
    "population": f"{PREFIX}pfs",
    "n": 30162,
    "float_sums": False,
}

#: case name -> (template, context). Case names are the snapshot folder names.
#: Two quasi-identifiers of local recoding: heights 3 and 2, WHD to each level scaled by 2.
LR_ATTRS = [{"height": 3, "cum": [0, 1, 2]}, {"height": 2, "cum": [0, 2]}]
LR_QIS = [{"coded": f"{PREFIX}c0", "height": 3}, {"coded": f"{PREFIX}c1", "height": 2}]

#: Cloaking's dimensions: a space dimension, and time counted in microseconds.
CL_DIMS = [{"x0": 40.4, "w": 0.6, "integral": False, "time": False, "column": "lat"},
           {"x0": 1709251200000000.0, "w": 2592000000000.0, "integral": True, "time": True, "column": WEIRD}]

#: The release of generalization, as the writes render it: remove suppressed rows, or mask them with basic match.
RELEASE_REMOVE: dict = {
    "source": WEIRD_SOURCE,
    "columns": [
        {"name": "age", "qi_index": 0},
        {"name": "diagnosis", "qi_index": None},
        {"name": WEIRD, "qi_index": 1},
    ],
    "qis": [
        {"column": "age", "coded": f"{PREFIX}c0", "level": 2},
        {"column": WEIRD, "coded": f"{PREFIX}c1", "level": 0},
    ],
    "failing": f"{PREFIX}fail",
    "mask": False,
    "basic": False,
}
RELEASE_MASK_BASIC: dict = {
    "source": (f"{PREFIX}src",),
    "columns": [
        {"name": PERCENT, "qi_index": 1},
        {"name": "age", "qi_index": 0},
        {"name": "length_of_stay", "qi_index": None},
    ],
    "qis": [
        {"column": "age", "coded": f"{PREFIX}c0", "level": 1},
        {"column": PERCENT, "coded": f"{PREFIX}c1", "level": 3},
    ],
    "failing": f"{PREFIX}fail",
    "mask": True,
    "basic": True,
}

#: Two packed class keys of a batch of checks, each also its own GROUPING argument.
PACKED_SETS = [{"levels": [1, 2], "grouped": [True, True], "radices": [5, 7]},
               {"levels": [2, 0], "grouped": [True, False], "radices": [5, 7]}]

CASES: dict[str, tuple[str, dict[str, Any]]] = {
    "add_null_row": (
        "add_null_row.sql.j2",
        {"lookup": f"{PREFIX}h0", "height": 4, "top_label": "*"},
    ),
    "audit_column_types": (
        "audit_column_types.sql.j2",
        {"table": WEIRD_SOURCE, "columns": ["diagnosis", WEIRD, PERCENT]},
    ),
    "audit_hierarchical_emd": (
        "audit_hierarchical_emd.sql.j2",
        {"table": WEIRD_SOURCE, "qis": ["age", WEIRD], "column": PERCENT, "lookup": f"{PREFIX}audit_h0",
         "height": 4},
    ),
    "audit_ordered_emd": (
        "audit_ordered_emd.sql.j2",
        {"table": SOURCE, "qis": ["age", WEIRD], "column": PERCENT},
    ),
    "audit_presence": (
        "audit_presence.sql.j2",
        {"table": WEIRD_SOURCE, "population": ("census", PERCENT), "qis": ["age", WEIRD],
         "flag": "sqlanon_in_subset"},
    ),
    "audit_sensitive_categorical": (
        "audit_sensitive.sql.j2",
        {"table": SOURCE, "qis": ["age", WEIRD, PERCENT], "column": "diagnosis", "c_num": 3, "c_den": 1,
         "numeric": None},
    ),
    "audit_sensitive_integer": (
        "audit_sensitive.sql.j2",
        {"table": WEIRD_SOURCE, "qis": ["age"], "column": WEIRD, "c_num": 3, "c_den": 10, "numeric": "integer"},
    ),
    "audit_sensitive_decimal": (
        "audit_sensitive.sql.j2",
        {"table": SOURCE, "qis": ["zip", "sex"], "column": PERCENT, "c_num": 5, "c_den": 2, "numeric": "decimal"},
    ),
    "build_date_hierarchy": (
        "build_date_hierarchy.sql.j2",
        {"lookup": f"{PREFIX}h3", "source": SOURCE, "column": "admitted", "levels": ["month", "year", "decade"]},
    ),
    "build_date_hierarchy_year_only": (
        "build_date_hierarchy.sql.j2",
        {"lookup": f"{PREFIX}h3", "source": WEIRD_SOURCE, "column": WEIRD, "levels": ["year"]},
    ),
    "build_frequency_set_extended": (
        "build_frequency_set.sql.j2",
        {
            "table": f"{PREFIX}fs",
            "source": WEIRD_SOURCE,
            "qis": [
                {"column": "age", "coded": f"{PREFIX}c0", "height": 3},
                {"column": WEIRD, "coded": f"{PREFIX}c1", "height": 2},
                {"column": PERCENT, "coded": f"{PREFIX}c2", "height": 1},
            ],
            "basic": False,
            "sensitive": [{"column": "diagnosis", "domain": f"{PREFIX}d0"}, {"column": WEIRD, "domain": f"{PREFIX}d1"}],
        },
    ),
    "build_frequency_set_basic": (
        "build_frequency_set.sql.j2",
        {
            "table": f"{PREFIX}fs",
            "source": SOURCE,
            "qis": [
                {"column": "age", "coded": f"{PREFIX}c0", "height": 2},
                {"column": WEIRD, "coded": f"{PREFIX}c1", "height": 2},
            ],
            "basic": True,
            "sensitive": [],
        },
    ),
    "build_frequency_set_fixed_weights": (
        "build_frequency_set.sql.j2",
        {
            "table": f"{PREFIX}fs",
            "source": SOURCE,
            "qis": [
                {"column": "age", "coded": f"{PREFIX}c0", "height": 3, "fixed": [0, None, 41]},
                {"column": WEIRD, "coded": f"{PREFIX}c1", "height": 2, "fixed": [None, None]},
            ],
            "basic": False,
            "sensitive": [],
        },
    ),
    "build_frequency_set_grouped": (
        "build_frequency_set.sql.j2",
        {
            "table": f"{PREFIX}fs",
            "source": (f"{PREFIX}gr",),
            "qis": [
                {"column": "age", "coded": f"{PREFIX}c0", "height": 2},
                {"column": WEIRD, "coded": f"{PREFIX}c1", "height": 2},
            ],
            "basic": True,
            "sensitive": [{"column": "diagnosis", "domain": f"{PREFIX}d0"}],
            "counted": "sqlanon_rows",
        },
    ),
    "group_source_rows": (
        "group_source_rows.sql.j2",
        {"table": f"{PREFIX}gr", "source": WEIRD_SOURCE, "columns": ["age", WEIRD, "diagnosis"],
         "counted": "sqlanon_rows"},
    ),
    "build_interval_hierarchy": (
        "build_interval_hierarchy.sql.j2",
        {"lookup": f"{PREFIX}h0", "source": SOURCE, "column": "age", "widths": [5, 10, 20]},
    ),
    "build_mask_hierarchy": (
        "build_mask_hierarchy.sql.j2",
        {"lookup": f"{PREFIX}h1", "source": WEIRD_SOURCE, "column": WEIRD, "length": 5, "char": "*"},
    ),
    "build_mask_hierarchy_custom_char": (
        "build_mask_hierarchy.sql.j2",
        {"lookup": f"{PREFIX}h1", "source": SOURCE, "column": "zip", "length": 3, "char": "#"},
    ),
    "check_table": (
        "check_table.sql.j2",
        {"table": ("public", "patients_k5"), "qis": ["age", WEIRD, PERCENT], "k": 5},
    ),
    "copy_table_hierarchy": (
        "copy_table_hierarchy.sql.j2",
        {"lookup": f"{PREFIX}h2", "source": ("reference", "zip_hierarchy"), "columns": ["leaf", WEIRD, "top"]},
    ),
    "count_rows": (
        "count_rows.sql.j2",
        {"source": WEIRD_SOURCE, "qis": ["age", WEIRD], "nulls": True},
    ),
    "count_nulls": (
        "count_nulls.sql.j2",
        {"source": WEIRD_SOURCE, "columns": ["age", WEIRD]},
    ),
    "count_rows_total": (
        "count_rows.sql.j2",
        {"source": WEIRD_SOURCE, "qis": ["age", WEIRD], "nulls": False},
    ),
    "count_rows_grouped": (
        "count_rows.sql.j2",
        {"source": (f"{PREFIX}gr",), "qis": ["age", WEIRD], "nulls": True, "counted": "sqlanon_rows"},
    ),
    "create_demo_table": (
        "create_demo_table.sql.j2",
        {"table": ("patients",), "rows": 1000},
    ),
    "create_coded_table": (
        "create_coded_table.sql.j2",
        {"table": f"{PREFIX}c0", "height": 3},
    ),
    "create_lookup_table": (
        "create_lookup_table.sql.j2",
        {"table": f"{PREFIX}h0", "height": 3},
    ),
    "describe_hierarchy": (
        "describe_hierarchy.sql.j2",
        {"lookup": f"{PREFIX}h0", "height": 3, "count_tops": False},
    ),
    "describe_hierarchy_sequences": (
        "describe_hierarchy.sql.j2",
        {"lookup": f"{PREFIX}h0", "height": 3, "count_tops": False, "sequences": WEIRD},
    ),
    "describe_hierarchy_count_tops": (
        "describe_hierarchy.sql.j2",
        {"lookup": WEIRD, "height": 2, "count_tops": True},
    ),
    "drop_table": (
        "drop_table.sql.j2",
        {"table": WEIRD_SOURCE},
    ),
    "drop_tables": (
        "drop_tables.sql.j2",
        {"tables": [f"{PREFIX}fs", WEIRD]},
    ),
    "create_coded_table_parts": ("create_coded_table.sql.j2", {"table": f"{PREFIX}cs", "height": 2, "parts": True}),
    "split_coded_tables": (
        "split_coded_tables.sql.j2",
        {"staging": f"{PREFIX}cs", "tables": [{"table": f"{PREFIX}c0", "height": 2}, {"table": WEIRD, "height": 1}]},
    ),
    "encode_hierarchy": (
        "encode_hierarchy.sql.j2",
        {"lookup": f"{PREFIX}h0", "coded": f"{PREFIX}c0", "height": 3, "null_explicit": False, "leaves": 8,
         "unique": False, "data": None, "sequences": None, "null_sequence": None},
    ),
    "encode_hierarchy_data_values": (
        "encode_hierarchy.sql.j2",
        {"lookup": f"{PREFIX}h0", "coded": f"{PREFIX}c0", "height": 3, "null_explicit": True, "leaves": 8,
         "unique": False, "data": {"source": WEIRD_SOURCE, "column": WEIRD}, "sequences": None,
         "null_sequence": None},
    ),
    "encode_hierarchy_unique": (
        "encode_hierarchy.sql.j2",
        {"lookup": f"{PREFIX}h0", "coded": f"{PREFIX}c0", "height": 3, "null_explicit": False, "leaves": 8,
         "unique": True, "data": {"source": WEIRD_SOURCE, "column": WEIRD}, "sequences": WEIRD,
         "null_sequence": "it's *"},
    ),
    "encode_hierarchy_unique_null_mapped": (
        "encode_hierarchy.sql.j2",
        {"lookup": f"{PREFIX}h0", "coded": f"{PREFIX}c0", "height": 2, "null_explicit": True, "leaves": 8,
         "unique": True, "data": None, "sequences": f"{PREFIX}h0_sequences", "null_sequence": None},
    ),
    "label_sequences": ("label_sequences.sql.j2", {"table": WEIRD, "lookup": f"{PREFIX}h0", "height": 4}),
    "evaluate_node_loss_weights": (
        "evaluate_node_k_anonymity.sql.j2",
        {"table": f"{PREFIX}fs", "levels": [2, 0, 1], "grouped": [True] * 3, "k": 5, "loss_weights": True,
         **NO_MODELS},
    ),
    "evaluate_node_loss_weights_fixed": (
        "evaluate_node_k_anonymity.sql.j2",
        {"table": f"{PREFIX}fs", "levels": [2, 0, 1], "grouped": [True] * 3, "k": 5, "loss_weights": True,
         **NO_MODELS, "fixed": [41, 0, None]},
    ),
    "evaluate_node_float_sums_fixed": (
        "evaluate_node_k_anonymity.sql.j2",
        {"table": f"{PREFIX}fs", "levels": [1, 2], "grouped": [True] * 2, "k": 3, "loss_weights": True, **NO_MODELS,
         "float_sums": True, "fixed": [None, 7]},
    ),
    "evaluate_node_code_weights": (
        "evaluate_node_code_weights.sql.j2",
        {"table": f"{PREFIX}fsc", "levels": [2, 0, 1], "grouped": [True] * 3, "k": 5, "loss_weights": True,
         **NO_MODELS, "float_sums": True, "code_weights": WEIRD},
    ),
    "evaluate_node_sliced": (
        "evaluate_node_sliced.sql.j2",
        {"table": f"{PREFIX}fsc", "levels": [2, 0, 1], "grouped": [True, False, True], "k": 5, "loss_weights": False,
         **NO_MODELS, "float_sums": True, "counted": [], "sliced": {"parts": 8, "limit": 150, "ranges": None}},
    ),
    "evaluate_node_sliced_packed": (
        "evaluate_node_sliced.sql.j2",
        {"table": f"{PREFIX}fsc", "levels": [2, 0, 1], "grouped": [True, False, True], "k": 5, "loss_weights": False,
         **NO_MODELS, "counted": [], "sliced": {"parts": 4, "limit": 0, "ranges": None}, "radices": [9, 3, 100001]},
    ),
    "evaluate_node_sliced_by_ranges": (
        "evaluate_node_sliced.sql.j2",
        {"table": WEIRD, "levels": [2, 0, 1], "grouped": [True, False, True], "k": 5, "loss_weights": False,
         **NO_MODELS, "counted": [], "sliced": {"parts": 4, "limit": 0, "ranges": f"{WEIRD}_ranges"},
         "radices": [9, 3, 100001]},
    ),
    "project_frequency_set_sliced": (
        "project_frequency_set.sql.j2",
        {"table": f"{PREFIX}fsc", "source": f"{PREFIX}fs", "heights": [3, 2, 4], "parts": 8,
         "slicing": [{"qi": 0, "level": 1, "radix": 12}, {"qi": 2, "level": 2, "radix": 40}], "sensitive": 0},
    ),
    "roll_up_codes": (
        "roll_up_codes.sql.j2",
        {"table": f"{PREFIX}fsr2", "source": WEIRD, "heights": [3, 2, 4], "levels": [1, 0, 1]},
    ),
    "create_part_index": ("create_part_index.sql.j2", {"table": WEIRD, "index": f"{WEIRD}_part"}),
    "create_part_ranges": ("create_part_ranges.sql.j2", {"table": f"{WEIRD}_ranges", "source": WEIRD}),
    "build_code_weights": (
        "build_code_weights.sql.j2",
        {"table": f"{PREFIX}cw", "qis": [{"coded": f"{PREFIX}c0", "height": 3}, {"coded": WEIRD, "height": 2}]},
    ),
    "describe_code_weights": ("describe_code_weights.sql.j2", {"table": WEIRD}),
    "evaluate_node_float_sums": (
        "evaluate_node_k_anonymity.sql.j2",
        {"table": f"{PREFIX}fs", "levels": [1, 2], "grouped": [True] * 2, "k": 3, "loss_weights": True, **NO_MODELS,
         "float_sums": True},
    ),
    "evaluate_node_feasibility_only": (
        "evaluate_node_k_anonymity.sql.j2",
        {"table": f"{PREFIX}fs", "levels": [0, 1, 3, 1], "grouped": [True, False, True, False], "k": 10,
         "loss_weights": False, **NO_MODELS},
    ),
    "evaluate_node_suppression_only": (
        "evaluate_node_k_anonymity.sql.j2",
        {"table": f"{PREFIX}fs", "levels": [0, 2], "grouped": [True, True], "k": 5, "loss_weights": False,
         **NO_MODELS, "counted": []},
    ),
    "evaluate_node_dm_star_only": (
        "evaluate_node_k_anonymity.sql.j2",
        {"table": f"{PREFIX}fs", "levels": [1, 2], "grouped": [True, True], "k": 5, "loss_weights": False,
         **NO_MODELS, "counted": ["dm_star"]},
    ),
    "evaluate_node_packed_key": (
        "evaluate_node_k_anonymity.sql.j2",
        {"table": f"{PREFIX}fs", "levels": [0, 1, 3, 1], "grouped": [True, False, True, True], "k": 10,
         "loss_weights": True, **NO_MODELS, "float_sums": True, "radices": [100001, 7, 54, 3]},
    ),
    "evaluate_nodes_columns": (
        "evaluate_nodes_k_anonymity.sql.j2",
        {"table": f"{PREFIX}fs", "levels": [1, 2], "grouped": [True, True], "k": 5, "loss_weights": False,
         **NO_MODELS, "counted": ["classes", "dm_star"],
         "groupings": [{"levels": [1, 2], "grouped": [True, True], "radices": None},
                       {"levels": [2, 0], "grouped": [True, False], "radices": None}],
         "grouped_by": [{"column": [0, 1]}, {"column": [1, 2]}, {"column": [0, 2]}]},
    ),
    "evaluate_nodes_packed": (
        "evaluate_nodes_k_anonymity.sql.j2",
        {"table": f"{PREFIX}fsc", "levels": [1, 2], "grouped": [True, True], "k": 5, "loss_weights": False,
         **NO_MODELS, "float_sums": True, "counted": [],
         "groupings": PACKED_SETS, "grouped_by": PACKED_SETS},
    ),
    "evaluate_node_models": (
        "evaluate_node_judged.sql.j2",
        {"table": f"{PREFIX}fs", "levels": [1, 0], "k": 5, "loss_weights": True, **MODELS},
    ),
    "evaluate_node_models_prepared": (
        "evaluate_node_judged.sql.j2",
        {"table": f"{PREFIX}fs", "levels": [1, 0], "k": 5, "loss_weights": True, **MODELS, "level_heights": [3, 2]},
    ),
    "evaluate_node_models_fixed_weights": (
        "evaluate_node_judged.sql.j2",
        {"table": f"{PREFIX}fs", "levels": [2, 0], "k": 5, "loss_weights": True, **MODELS, "fixed": [12, 0]},
    ),
    "evaluate_node_models_prepared_fixed_weights": (
        "evaluate_node_judged.sql.j2",
        {"table": f"{PREFIX}fs", "levels": [1, 0], "k": 5, "loss_weights": True, **MODELS, "level_heights": [3, 2],
         "fixed_weights": [[0, None, 12], [0, 3]]},
    ),
    "evaluate_node_models_packed": (
        "evaluate_node_judged.sql.j2",
        {"table": f"{PREFIX}fs", "levels": [1, 0], "k": 5, "loss_weights": True, **MODELS, "population": None,
         "criteria": MODELS["criteria"][:-1], "radices": [7, 4]},
    ),
    "evaluate_node_numeric_summary": (
        "evaluate_node_judged.sql.j2",
        {"table": f"{PREFIX}fs", "levels": [2, 1], "k": 4, "loss_weights": False, "population": None, "n": 500,
         "float_sums": False, "criteria": [_model("k_e_anonymity", 1, 0, e=10.0)],
         "sensitive": [{**MODELS["sensitive"][1], "domain": f"{PREFIX}d0"}]},
    ),
    "evaluate_node_population_only": (
        "evaluate_node_judged.sql.j2",
        {"table": f"{PREFIX}fs", "levels": [0, 3], "k": 2, "loss_weights": True, **NO_MODELS,
         "criteria": [_model("delta_presence", 1, None, dmin={"num": 1, "den": 10}, dmax={"num": 9, "den": 10})],
         "population": f"{PREFIX}pfs"},
    ),
    "find_failing_classes_k_only": (
        "find_failing_classes.sql.j2",
        {"failing": f"{PREFIX}fail", "table": f"{PREFIX}fs", "levels": [2, 1], "k": 5, "loss_weights": False,
         **NO_MODELS},
    ),
    "find_failing_classes_models": (
        "find_failing_classes.sql.j2",
        {"failing": f"{PREFIX}fail", "table": f"{PREFIX}fs", "levels": [0, 2], "k": 3, "loss_weights": False,
         **MODELS},
    ),
    "measure_modification_k_only": (
        "measure_modification.sql.j2",
        {"table": f"{PREFIX}fs", "levels": [2, 1], "k": 5, "loss_weights": False, **NO_MODELS,
         "hierarchies": [{"coded": f"{PREFIX}c0", "level": 2}, {"coded": f"{PREFIX}c1", "level": 1}]},
    ),
    "measure_modification_listed": (
        "measure_modification.sql.j2",
        {"table": f"{PREFIX}fs", "levels": [0, 2, 1, 3], "k": 5, "loss_weights": False, **NO_MODELS,
         "hierarchies": [{"coded": f"{PREFIX}c0", "level": 0, "listed": (False, ())},
                         {"coded": f"{PREFIX}c1", "level": 2, "listed": (True, ())},
                         {"coded": WEIRD, "level": 1, "listed": (True, (7,))},
                         {"coded": f"{PREFIX}c3", "level": 3, "listed": None}]},
    ),
    "measure_modification_models": (
        "measure_modification.sql.j2",
        {"table": f"{PREFIX}fs", "levels": [0, 2], "k": 3, "loss_weights": False, **MODELS,
         "hierarchies": [{"coded": f"{PREFIX}c0", "level": 0}, {"coded": f"{PREFIX}c1", "level": 2}]},
    ),
    "project_frequency_set": (
        "project_frequency_set.sql.j2",
        {"table": f"{PREFIX}fsc", "source": f"{PREFIX}fs", "heights": [3, 1, 4], "slicing": [], "parts": 8,
         "sensitive": 2},
    ),
    "describe_sensitive_domain": (
        "describe_sensitive_domain.sql.j2",
        {"domain": f"{PREFIX}d0", "height": 4},
    ),
    "describe_sensitive_domain_flat": (
        "describe_sensitive_domain.sql.j2",
        {"domain": f"{PREFIX}d1", "height": 0},
    ),
    "count_table": (
        "count_table.sql.j2",
        {"table": (f"{PREFIX}d0",)},
    ),
    "sample_table": (
        "sample_table.sql.j2",
        {"table": ("patients_k5",), "limit": 5},
    ),
    "build_verification_set": (
        "build_verification_set.sql.j2",
        {"table": f"{PREFIX}vfs", "output": ("analytics", WEIRD),
         "qis": [{"column": "age", "coded": f"{PREFIX}c0", "level": 2},
                 {"column": WEIRD, "coded": f"{PREFIX}c1", "level": 0}],
         "sensitive": [{"column": "diagnosis", "domain": f"{PREFIX}d0"}]},
    ),
    "build_sensitive_domain_numeric": (
        "build_sensitive_domain.sql.j2",
        {"table": f"{PREFIX}d0", "source": WEIRD_SOURCE, "column": WEIRD, "qis": ["age"], "basic": True,
         "numeric": True, "hierarchy": None, "height": 0},
    ),
    "build_sensitive_domain_hierarchy": (
        "build_sensitive_domain.sql.j2",
        {"table": f"{PREFIX}d1", "source": SOURCE, "column": "diagnosis", "qis": ["age", WEIRD], "basic": False,
         "numeric": False, "hierarchy": f"{PREFIX}c100", "height": 3},
    ),
    "export_csv": (
        "export_csv.sql.j2",
        {"table": ("patients_k5",), "path": "/tmp/o'brien/.sqlanon-x.csv", "delimiter": ";"},
    ),
    "create_csv_staging": ("create_csv_staging.sql.j2", {"table": WEIRD, "columns": 3}),
    "load_csv_hierarchy": (
        "load_csv_hierarchy.sql.j2",
        {"table": f"{PREFIX}h0", "height": 3, "path": "/data/it's 100%.csv", "delimiter": ";",
         "null": "sqlanon-null-0123", "staging": f"{PREFIX}s0", "null_value": "NULL"},
    ),
    "load_csv_hierarchy_no_null_value": (
        "load_csv_hierarchy.sql.j2",
        {"table": WEIRD, "height": 1, "path": "/data/h.csv", "delimiter": "'",
         "null": "sqlanon-null-0123", "staging": WEIRD, "null_value": None},
    ),
    "load_csv_source_delimiter": (
        "load_csv_source.sql.j2",
        {"table": f"{PREFIX}src", "path": "/data/it's 100%.csv", "delimiter": ";"},
    ),
    "load_csv_source_sniffed": (
        "load_csv_source.sql.j2",
        {"table": f"{PREFIX}src", "path": "/data/adult.csv", "delimiter": None},
    ),
    "find_relation": (
        "catalog/find_relation.sql.j2",
        {"name": WEIRD, "regclass": '"analytics"."we""ird; col"', "schema": "analytics"},
    ),
    "find_relation_unqualified": (
        "catalog/find_relation.sql.j2", {"name": "adult", "regclass": '"adult"', "schema": None},
    ),
    "find_dependants": (
        "catalog/find_dependants.sql.j2",
        {"table": ("warehouse", "analytics", WEIRD), "regclass": '"analytics"."we""ird; col"'},
    ),
    "estimate_rows": (
        "catalog/estimate_rows.sql.j2", {"source": ("analytics", WEIRD)},
    ),
    "find_tables_read": (
        "catalog/find_tables_read.sql.j2",
        {"table": ("warehouse", "analytics", WEIRD), "regclass": '"analytics"."we""ird; col"'},
    ),
    "rename_table": (
        "rename_table.sql.j2",
        {"table": ("analytics", "sqlanon_tmp_0123456789ab"), "new_name": WEIRD},
    ),
    "summarize_frequency_set": (
        "summarize_frequency_set.sql.j2",
        {"table": f"{PREFIX}fs", "heights": [3, 2, 1], "distinct": False},
    ),
    "summarize_frequency_set_fixed_weights": (
        "summarize_frequency_set.sql.j2",
        {"table": f"{PREFIX}fs", "heights": [3, 2], "distinct": False, "fixed": [[0, None, 41], [None, 5]]},
    ),
    "summarize_frequency_set_below_k": (
        "summarize_frequency_set.sql.j2",
        {"table": f"{PREFIX}fs", "heights": [3, 2], "distinct": False, "k": 5},
    ),
    "describe_slices": (
        "describe_slices.sql.j2",
        {"table": WEIRD, "levels": [{"qi": 3, "level": 4}, {"qi": 0, "level": 2}, {"qi": 1, "level": 1}]},
    ),
    "summarize_frequency_set_distinct": (
        "summarize_frequency_set.sql.j2",
        {"table": f"{PREFIX}fs", "heights": [3, 2, 1], "distinct": True},
    ),
    "summarize_frequency_set_distinct_fixed_weights": (
        "summarize_frequency_set.sql.j2",
        {"table": f"{PREFIX}fs", "heights": [3, 2], "distinct": True, "fixed": [[0, None, 41], [None, 5]]},
    ),
    "summarize_frequency_set_distinct_hashed": (
        "summarize_frequency_set.sql.j2",
        {"table": f"{PREFIX}fs", "heights": [3, 2, 1], "distinct": True, "hashed_distinct": True, "k": 5},
    ),
    "survey_hierarchy": ("survey_hierarchy.sql.j2", {"lookup": f"{PREFIX}h0", "height": 4, "sequences": WEIRD}),
    "validate_hierarchy": (
        "validate_hierarchy.sql.j2",
        {"lookup": f"{PREFIX}h0", "source": WEIRD_SOURCE, "column": WEIRD, "height": 3, "limit": 20},
    ),
    "validate_hierarchy_alone": (
        "validate_hierarchy.sql.j2",
        {"lookup": f"{PREFIX}h0", "source": None, "column": WEIRD, "height": 3, "limit": 20},
    ),
    "verify_output": (
        "verify_output.sql.j2",
        {"table": ("analytics", "patients_k5"), "qis": ["age", WEIRD, PERCENT], "starred": True},
    ),
    "verify_output_numbers": (
        "verify_output.sql.j2",
        {"table": ("analytics", "census_k3"), "qis": ["AGI", WEIRD], "starred": False},
    ),
    "ma_create_records": (
        "methods/microaggregation/create_records.sql.j2",
        {"table": f"{PREFIX}mr", "source": WEIRD_SOURCE, "qis": ["AGI", WEIRD], "others": ["id", PERCENT],
         "rid": "sqlanon_rid", "basic": True},
    ),
    "ma_standardize_records": (
        "methods/microaggregation/standardize_records.sql.j2",
        {"table": f"{PREFIX}mz", "records": f"{PREFIX}mr", "rid": "sqlanon_rid", "qis": ["AGI", WEIRD],
         "scale": "z_score", "sensitive": None, "numeric_sensitive": False},
    ),
    "ma_standardize_records_sensitive": (
        "methods/microaggregation/standardize_records.sql.j2",
        {"table": f"{PREFIX}mz", "records": f"{PREFIX}mr", "rid": "sqlanon_rid", "qis": ["AGI"],
         "scale": "z_score", "sensitive": WEIRD, "numeric_sensitive": True},
    ),
    "ma_standardize_records_ranked": (
        "methods/microaggregation/standardize_records.sql.j2",
        {"table": f"{PREFIX}mz", "records": f"{PREFIX}mr", "rid": "sqlanon_rid", "qis": ["AGI"],
         "scale": "z_score", "sensitive": WEIRD, "numeric_sensitive": False},
    ),
    "ma_mark_rare_values": (
        "methods/microaggregation/mark_rare_values.sql.j2",
        {"table": f"{PREFIX}mz", "num": 1, "den": 5, "all_rare": False},
    ),
    "ma_mark_every_value_rare": (
        "methods/microaggregation/mark_rare_values.sql.j2",
        {"table": f"{PREFIX}mz", "num": 1, "den": 1, "all_rare": True},
    ),
    "ma_describe_sensitive_group": (
        "methods/microaggregation/describe_sensitive_records.sql.j2",
        {"table": f"{PREFIX}mz", "which": "group", "group": 2**50},
    ),
    "ma_describe_sensitive_rare_left": (
        "methods/microaggregation/describe_sensitive_records.sql.j2",
        {"table": f"{PREFIX}mz", "which": "rare_left", "group": None},
    ),
    "ma_describe_sensitive_all": (
        "methods/microaggregation/describe_sensitive_records.sql.j2",
        {"table": f"{PREFIX}mz", "which": "all", "group": None},
    ),
    "ma_next_seed_record": ("methods/microaggregation/next_seed_record.sql.j2", {"table": f"{PREFIX}mz", "seed": 7}),
    **{f"ma_nearest_candidate_{step}": (
        "methods/microaggregation/nearest_candidate.sql.j2",
        {"table": f"{PREFIX}mz", "group": 2**50, "around": 17, "step": step, "prefer_raises": True,
         "min_var": 4.125, "d": 2},
    ) for step in ("new_value", "raises", "keeps")},
    **{f"ma_assign_records_{name}": (
        "methods/microaggregation/assign_records.sql.j2",
        {"table": f"{PREFIX}mz", "group": group, "rid": rid, "rest_of_rare": rest, "merge": merge,
         "common_of": common},
    ) for name, group, rid, rest, merge, common in (
        ("one", 2**50, 17, False, None, None), ("rest", 2**50, None, True, None, None),
        ("merge", 2**50, None, False, 2**50 + 1, None), ("common", None, None, False, None, 2**50))},
    "ma_absorb_small_remainders": (
        "methods/microaggregation/absorb_small_remainders.sql.j2",
        {"table": f"{PREFIX}mz", "k": 5, "first_group": 2**50},
    ),
    "ma_distribute_rare_records": (
        "methods/microaggregation/distribute_rare_records.sql.j2",
        {"table": f"{PREFIX}mz", "first_group": 2**50, "d": 2},
    ),
    "audit_kpqr": (
        "audit_kpqr.sql.j2",
        {"table": ("analytics", "census_k3"), "qis": ["AGI", WEIRD], "column": PERCENT, "num": 1, "den": 5,
         "numeric": True},
    ),
    "audit_kpqr_text": (
        "audit_kpqr.sql.j2",
        {"table": ("analytics", "census_k3"), "qis": ["AGI"], "column": WEIRD, "num": 1, "den": 5,
         "numeric": False},
    ),
    "audit_information_loss": (
        "audit_information_loss.sql.j2",
        {"table": ("analytics", "census_k3"), "source": WEIRD_SOURCE, "key": "id", "qis": ["AGI", WEIRD],
         "scale": "z_score"},
    ),
    "audit_information_loss_range": (
        "audit_information_loss.sql.j2",
        {"table": ("analytics", "census_k3"), "source": WEIRD_SOURCE, "key": "id", "qis": ["AGI"],
         "scale": "range"},
    ),
    "audit_information_loss_none": (
        "audit_information_loss.sql.j2",
        {"table": ("analytics", "census_k3"), "source": WEIRD_SOURCE, "key": "id", "qis": ["AGI"],
         "scale": "none"},
    ),
    "ma_standardize_records_range": (
        "methods/microaggregation/standardize_records.sql.j2",
        {"table": f"{PREFIX}mz", "records": f"{PREFIX}mr", "rid": "sqlanon_rid", "qis": ["AGI"], "scale": "range",
         "sensitive": None, "numeric_sensitive": False},
    ),
    "ma_standardize_records_none": (
        "methods/microaggregation/standardize_records.sql.j2",
        {"table": f"{PREFIX}mz", "records": f"{PREFIX}mr", "rid": "sqlanon_rid", "qis": ["AGI"], "scale": "none",
         "sensitive": None, "numeric_sensitive": False},
    ),
    "ma_suppress_small_parts": (
        "methods/microaggregation/suppress_small_parts.sql.j2", {"table": f"{PREFIX}mz", "k": 5},
    ),
    "ma_describe_parts": ("methods/microaggregation/describe_parts.sql.j2", {"table": f"{PREFIX}mz"}),
    "ma_describe_groups": ("methods/microaggregation/describe_groups.sql.j2", {"table": f"{PREFIX}mz"}),
    "ma_split_parts": ("methods/microaggregation/split_parts.sql.j2", {"table": f"{PREFIX}mz", "d": 2, "limit": 1000}),
    "ma_group_round": (
        "methods/microaggregation/group_round.sql.j2",
        {"table": f"{PREFIX}mz", "k": 5, "d": 2, "base": 0, "stride": 540, "offset": 9},
    ),
    "ma_measure_information_loss": (
        "methods/microaggregation/measure_information_loss.sql.j2", {"table": f"{PREFIX}mz", "d": 2},
    ),
    "ma_measure_modification": (
        "methods/microaggregation/measure_modification.sql.j2",
        {"records": f"{PREFIX}mr", "rid": "sqlanon_rid", "groups": f"{PREFIX}mz",
         "qis": [{"column": "AGI", "round": None}, {"column": WEIRD, "round": 2}]},
    ),
    "ma_write_microaggregated": (
        "methods/microaggregation/write_microaggregated.sql.j2",
        {"table": ("analytics", "census_k3"), "records": f"{PREFIX}mr", "rid": "sqlanon_rid",
         "groups": f"{PREFIX}mz", "columns": [{"name": "id", "qi_index": None}, {"name": WEIRD, "qi_index": 1},
                                              {"name": "AGI", "qi_index": 0}],
         "qis": [{"column": "AGI", "round": None}, {"column": WEIRD, "round": 2}], "source": WEIRD_SOURCE},
    ),
    **{f"lr_{name}": (f"methods/local_recoding/{name}.sql.j2", context) for name, context in {
        "create_classes": {"table": f"{PREFIX}lrc", "fset": f"{PREFIX}fs", "attrs": LR_ATTRS},
        "create_members": {"table": f"{PREFIX}lrmem", "classes": f"{PREFIX}lrc", "attrs": LR_ATTRS},
        "count_tops": {"fset": f"{PREFIX}fs", "attrs": LR_ATTRS},
        "count_small": {"classes": f"{PREFIX}lrc", "k": 5, "failing": None},
        "judge_classes": {"table": f"{PREFIX}lrj", "fset": f"{PREFIX}fs", "members": f"{PREFIX}lrmem",
                          "attrs": LR_ATTRS, "sensitive": 2},
        "verification_classes": {"table": f"{PREFIX}lrj", "output": ("analytics", "t_out"), "qis": ["age", WEIRD],
                                 "sensitive": [{"column": "diagnosis", "domain": f"{PREFIX}d0"}], "mask": True},
        "small_classes": {"classes": f"{PREFIX}lrc", "k": 5, "failing": f"{PREFIX}lrf1"},
        "nearest": {"edges": f"{PREFIX}lre0", "classes": f"{PREFIX}lrc", "attrs": LR_ATTRS, "k": 5, "one": None,
                    "block": [], "failing": None},
        "count_codes": {"classes": f"{PREFIX}lrc", "attrs": LR_ATTRS},
        "merge": {"table": f"{PREFIX}lrm0", "classes": f"{PREFIX}lrc", "edges": f"{PREFIX}lre0", "attrs": LR_ATTRS},
        "next_classes": {"table": f"{PREFIX}lrc0", "merged": f"{PREFIX}lrm0", "attrs": LR_ATTRS},
        "move_members": {"members": f"{PREFIX}lrmem", "merged": f"{PREFIX}lrm0"},
        "suppress_outliers": {"members": f"{PREFIX}lrmem", "classes": f"{PREFIX}lrc", "edges": f"{PREFIX}lre0",
                              "limit": 30},
        "drop_suppressed": {"classes": f"{PREFIX}lrc", "members": f"{PREFIX}lrmem"},
        "measure": {"members": f"{PREFIX}lrmem", "classes": f"{PREFIX}lrc", "qis": LR_QIS},
        "describe_levels": {"classes": f"{PREFIX}lrc", "attrs": LR_ATTRS},
        "write_local_recoding": {
            "table": ("analytics", "sqlanon_tmp_0123456789ab"), "or_replace": False, "source": WEIRD_SOURCE,
            "columns": [{"name": "age", "qi_index": 0}, {"name": "diagnosis", "qi_index": None},
                        {"name": WEIRD, "qi_index": 1}],
            "qis": [{"column": "age", **LR_QIS[0]}, {"column": WEIRD, **LR_QIS[1]}],
            "members": f"{PREFIX}lrmem", "classes": f"{PREFIX}lrc", "mask": True, "basic": True},
    }.items()},
    "lr_nearest_one": ("methods/local_recoding/nearest.sql.j2",
                       {"edges": f"{PREFIX}lre1", "classes": f"{PREFIX}lrc", "attrs": LR_ATTRS, "k": 5, "one": 17,
                        "block": [], "failing": None}),
    "lr_nearest_block": ("methods/local_recoding/nearest.sql.j2",
                         {"edges": f"{PREFIX}lre2", "classes": f"{PREFIX}lrc", "attrs": LR_ATTRS, "k": 5, "one": None,
                          "block": [(0, 1)], "failing": f"{PREFIX}lrf1"}),
    **{f"cl_{name}": (f"methods/cloaking/{name}.sql.j2", context) for name, context in {
        "create_state": {"table": f"{PREFIX}cs0", "records": f"{PREFIX}cr", "rid": "sqlanon_rid",
                         "dims": [{"column": "lat", "time": False}, {"column": WEIRD, "time": True}],
                         "exact": [PERCENT], "subject": "usr"},
        "describe_dims": {"state": f"{PREFIX}cs0", "dims": ["lat", WEIRD]},
        "count_outside": {"state": f"{PREFIX}cs0", "dims": CL_DIMS},
        "assign_windows": {"state": f"{PREFIX}cs0", "dim": 1, "d": CL_DIMS[1], "size": 3600e6},
        "suppress_small_roots": {"state": f"{PREFIX}cs0", "k": 5, "subject": True, "dims": 2},
        "create_done": {"table": f"{PREFIX}cdone", "state": f"{PREFIX}cs0"},
        "split_round": {"table": f"{PREFIX}cs1", "state": f"{PREFIX}cs0", "dims": CL_DIMS, "k": 5, "subject": True,
                        "budget": 7, "space_levels": 20, "time_levels": 24},
        "request_round": {"table": f"{PREFIX}cs1", "state": f"{PREFIX}cs0", "dims": CL_DIMS[:1], "all_dims": 2,
                          "k": 5, "subject": False, "space_levels": 20},
        "move_final": {"done": f"{PREFIX}cdone", "state": f"{PREFIX}cs1"},
        "count_state": {"state": f"{PREFIX}cs1"},
        "describe_levels": {"state": f"{PREFIX}cdone", "dims": CL_DIMS},
        "write_cloaked": {
            "table": ("analytics", "sqlanon_tmp_0123456789ab"), "or_replace": False, "records": f"{PREFIX}cr",
            "rid": "sqlanon_rid", "state": f"{PREFIX}cdone",
            "columns": [{"name": "lat", "qi_index": 0}, {"name": PERCENT, "qi_index": None},
                        {"name": WEIRD, "qi_index": 1}],
            "cloaked": {"lat": {"index": 0, "d": CL_DIMS[0], "level": "ls", "window": None},
                        WEIRD: {"index": 1, "d": CL_DIMS[1], "level": "lt", "window": 3600e6}},
            "timestamps": [WEIRD]},
        "verify_boxes": {"output": ("analytics", "trips_k5"), "records": f"{PREFIX}cr",
                         "cloaked": [{"column": "lat", "nullable": False}, {"column": WEIRD, "nullable": True}],
                         "exact": [PERCENT], "subject": "usr", "k": 5, "bucket": None},
    }.items()},
    **{f"rt_{name}": (f"methods/related_tables/{name}.sql.j2", context) for name, context in {
        "create_chain": {"table": f"{PREFIX}rch0", "chain": RT_CHAIN},
        "create_class_values": {"table": f"{PREFIX}rv1", "chain": f"{PREFIX}rch0", "cls": 1, "name": WEIRD,
                                "slot": 2},
        "count_duplicate_keys": {"parts": WEIRD_SOURCE, "key": PERCENT},
        "create_hierarchy_rows": {"table": f"{PREFIX}rhr", "classes": RT_CLASSES, "max_height": 4},
        "create_dgh": {"table": f"{PREFIX}rdgh", "rows": f"{PREFIX}rhr", "classes": RT_CLASSES},
        "create_leaves": {"table": f"{PREFIX}rlv", "rows": f"{PREFIX}rhr", "dgh": f"{PREFIX}rdgh"},
        "create_ancestors": {"table": f"{PREFIX}ranc", "dgh": f"{PREFIX}rdgh", "max_height": 4},
        "create_paths": {"table": f"{PREFIX}rraw", "leaves": f"{PREFIX}rlv",
                         "chains": [{"table": f"{PREFIX}rch0", "classes": [0, 1, 2]},
                                    {"table": f"{PREFIX}rch1", "classes": [0, 3]}]},
        "project_paths": {"table": f"{PREFIX}rpc", "paths": f"{PREFIX}rp0", "map": f"{PREFIX}rmap", "depth": 3},
        "create_path_items": {"table": f"{PREFIX}rli", "paths": f"{PREFIX}rp0", "depth": 3},
        "describe_dgh": {"dgh": f"{PREFIX}rdgh"},
        "describe_nodes": {"dgh": f"{PREFIX}rdgh", "ids": [3, 17]},
        "count_values": {"dgh": f"{PREFIX}rdgh"},
        "count_records": {"root": f"{PREFIX}rch0", "paths": f"{PREFIX}rp0"},
        "create_cut_map": {"table": f"{PREFIX}rmap", "ancestors": f"{PREFIX}ranc", "dgh": f"{PREFIX}rdgh",
                           "expanded": [0, 4, 9]},
        "create_items": {"table": f"{PREFIX}ritems", "leaf_items": f"{PREFIX}rli", "map": f"{PREFIX}rmap"},
        "group_trees": {"table": f"{PREFIX}rmembers", "what": "members", "paths": f"{PREFIX}rpc"},
        "create_relations": {"table": f"{PREFIX}rrel", "paths": f"{PREFIX}rtrees0", "depth": 3},
        "find_value_violation": {"items": f"{PREFIX}ritems", "leaf_items": f"{PREFIX}rli",
                                 "ancestors": f"{PREFIX}ranc", "dgh": f"{PREFIX}rdgh", "size": 3, "k": 20,
                                 "fresh": 9},
        "structure_check": {"what": "rules", "violations": f"{PREFIX}rviol", "held": f"{PREFIX}rheld",
                            "weights": f"{PREFIX}rweights", "m": 3, "k": 20, "masks": rt_masks(3, 2),
                            "limit": 1000},
        "select_holders": {"table": f"{PREFIX}rholders", "relations": f"{PREFIX}rrel", "rules": [(4, 17), (4, 21)]},
        "create_tree_labels": {"table": f"{PREFIX}rtitems", "paths": f"{PREFIX}rtrees0", "depth": 3, "fresh": None},
        "select_label_holders": {"table": f"{PREFIX}rfrec", "items": f"{PREFIX}ritems", "node": 9},
        "disassociate": {"table": f"{PREFIX}rsd", "paths": f"{PREFIX}rtrees0", "rules": [(4, 17), (4, 21)], "depth": 3,
                         "only": f"{PREFIX}rholders"},
        "replace_trees": {"table": f"{PREFIX}rtrees0", "only": f"{PREFIX}rholders", "delete": True},
        "measure_rpd": {"paths": f"{PREFIX}rtrees0", "dgh": f"{PREFIX}rdgh", "weights": f"{PREFIX}rweights",
                        "depth": 3},
        "rpd_bound": {"paths": f"{PREFIX}rp0", "map": f"{PREFIX}rmap", "dgh": f"{PREFIX}rdgh", "depth": 3,
                      "open": [(4, 25), (9, 2406)]},
        "copy_paths": {"table": f"{PREFIX}rbest", "paths": f"{PREFIX}rtrees0", "members": f"{PREFIX}rmembers"},
        "measure_ml2": {"what": "measure", "lifted": f"{PREFIX}rlifted", "frequent": f"{PREFIX}rfreq",
                        "source": f"{PREFIX}rp0",
                        "released": f"{PREFIX}rbest", "ancestors": f"{PREFIX}ranc", "dgh": f"{PREFIX}rdgh",
                        "map": f"{PREFIX}rbestmap", "heights": {0: 3, 1: 4, 2: 2}, "levels": 4, "support": 15,
                        "depth": 3},
        "write_trees": {"table": ("analytics", "sqlanon_tmp_0123456789ab"), "or_replace": False,
                        "paths": f"{PREFIX}rbest", "dgh": f"{PREFIX}rdgh", "classes": ["nation", WEIRD, PERCENT]},
        "export_trees_json": {"table": ("analytics", "customer_trees"), "path": "/tmp/it's.jsonl", "depth": 3},
        "write_documents": {"table": ("analytics", "sqlanon_tmp_0123456789ab"), "or_replace": True,
                            "nodes": ("analytics", "customer_trees"), "depth": 3},
        "write_paths": {"table": ("analytics", "sqlanon_tmp_0123456789ab"), "or_replace": True,
                        "nodes": ("analytics", "customer_trees"), "classes": ["nation", WEIRD, PERCENT], "depth": 3},
    }.items()},
    "rt_select_holders_items": ("methods/related_tables/select_holders.sql.j2",
                                {"table": f"{PREFIX}rholders", "items": f"{PREFIX}rtitems",
                                 "rules": [(4, 17), (4, 21)]}),
    "rt_rpd_bound_none_open": ("methods/related_tables/rpd_bound.sql.j2",
                               {"paths": f"{PREFIX}rp0", "map": f"{PREFIX}rmap", "dgh": f"{PREFIX}rdgh", "depth": 3,
                                "open": []}),
    "rt_rpd_bound_leaves": ("methods/related_tables/rpd_bound.sql.j2",
                            {"paths": f"{PREFIX}rp0", "map": f"{PREFIX}rmap", "dgh": f"{PREFIX}rdgh", "depth": 3,
                             "open": [(4, 25), (9, 80)], "leaves": True}),
    "rt_rpd_bound_lifted": ("methods/related_tables/rpd_bound.sql.j2",
                            {"paths": f"{PREFIX}rp0", "map": f"{PREFIX}rmap", "dgh": f"{PREFIX}rdgh", "depth": 3,
                             "open": [(4, 25)], "leaves": True, "lifted": True}),
    "rt_measure_rpd_records": ("methods/related_tables/measure_rpd.sql.j2",
                               {"paths": f"{PREFIX}rpc", "dgh": f"{PREFIX}rdgh", "weights": None, "depth": 3}),
    "rt_rpd_state_records": ("methods/related_tables/rpd_state.sql.j2",
                             {"what": "records", "table": f"{PREFIX}rprec", "paths": f"{PREFIX}rpc",
                              "dgh": f"{PREFIX}rdgh", "depth": 3}),
    "rt_rpd_state_prefixes": ("methods/related_tables/rpd_state.sql.j2",
                              {"what": "prefixes", "table": f"{PREFIX}rppre", "paths": f"{PREFIX}rpc",
                               "dgh": f"{PREFIX}rdgh", "depth": 3}),
    "rt_rpd_state_totals": ("methods/related_tables/rpd_state.sql.j2",
                            {"what": "totals", "records": f"{PREFIX}rprec", "prefixes": f"{PREFIX}rppre"}),
    "rt_measure_rpd_delta": ("methods/related_tables/measure_rpd_delta.sql.j2",
                             {"paths": f"{PREFIX}rdpaths", "records": f"{PREFIX}rprec",
                              "prefixes": f"{PREFIX}rppre", "node": 9, "dgh": f"{PREFIX}rdgh", "depth": 3}),
    "rt_project_paths_holding": ("methods/related_tables/project_paths.sql.j2",
                                 {"table": f"{PREFIX}rdpaths", "paths": f"{PREFIX}rp0", "map": f"{PREFIX}rmap",
                                  "depth": 3, "holding": (f"{PREFIX}ritems", 9), "uneven": False}),
    "rt_copy_paths_records": ("methods/related_tables/copy_paths.sql.j2",
                              {"table": f"{PREFIX}rbest", "paths": f"{PREFIX}rpc", "members": None}),
    "rt_count_child_supports": ("methods/related_tables/count_child_supports.sql.j2",
                                {"leaf_items": f"{PREFIX}rli", "ancestors": f"{PREFIX}ranc", "dgh": f"{PREFIX}rdgh"}),
    "rt_group_trees_trees": ("methods/related_tables/group_trees.sql.j2",
                             {"table": f"{PREFIX}rtrees0", "what": "trees", "paths": f"{PREFIX}rpc",
                              "members": f"{PREFIX}rmembers"}),
    "rt_group_trees_weights": ("methods/related_tables/group_trees.sql.j2",
                               {"table": f"{PREFIX}rweights", "what": "weights", "members": f"{PREFIX}rmembers"}),
    "rt_structure_check_held_records": ("methods/related_tables/structure_check.sql.j2", {
        "what": "held", "table": f"{PREFIX}rheld", "items": f"{PREFIX}rtitems", "only": None, "sign": 1,
        "insert": False, "weights": None, "m": 3, "k": 20, "masks": rt_masks(3, 2), "path_bits": True}),
    "rt_structure_check_rules_m2": ("methods/related_tables/structure_check.sql.j2", {
        "what": "rules", "violations": f"{PREFIX}rviol", "held": f"{PREFIX}rheld",
        "weights": None, "m": 2, "k": 20, "masks": rt_masks(2, 1), "limit": 1000, "path_bits": True}),
    "rt_find_value_violation_all": ("methods/related_tables/find_value_violation.sql.j2",
                                    {"items": f"{PREFIX}ritems", "leaf_items": f"{PREFIX}rli",
                                     "ancestors": f"{PREFIX}ranc", "dgh": f"{PREFIX}rdgh", "size": 2, "k": 20,
                                     "fresh": None}),
    "rt_find_fresh_violation": ("methods/related_tables/find_fresh_violation.sql.j2",
                                {"items": f"{PREFIX}rfitems", "k": 20, "masks": rt_masks(3, 2), "size": 3}),
    "rt_find_fresh_violation_path_bits": ("methods/related_tables/find_fresh_violation.sql.j2",
                                          {"items": f"{PREFIX}rfitems", "k": 20, "masks": rt_masks(3, 2), "size": 3,
                                           "path_bits": True}),
    **{f"rt_structure_check_{what}": ("methods/related_tables/structure_check.sql.j2", {
        "what": what, "table": f"{PREFIX}rdelta", "held": f"{PREFIX}rheld", "violations": f"{PREFIX}rviol",
        "delta": f"{PREFIX}rdelta", "affected": None if what == "violations" else f"{PREFIX}raffected",
        "items": f"{PREFIX}rtitems", "only": f"{PREFIX}rholders" if what == "held" else None, "sign": -1,
        "insert": what == "held", "weights": f"{PREFIX}rweights", "m": 3, "k": 20, "masks": rt_masks(3, 2)})
       for what in ("held", "affected", "merge", "unviolate", "violations")},
    "rt_structure_check_held_path_bits": ("methods/related_tables/structure_check.sql.j2", {
        "what": "held", "table": f"{PREFIX}rheld", "items": f"{PREFIX}rtitems", "only": None, "sign": 1,
        "insert": False, "weights": f"{PREFIX}rweights", "m": 3, "k": 20, "masks": rt_masks(3, 2),
        "path_bits": True}),
    "rt_structure_check_replace_violations": ("methods/related_tables/structure_check.sql.j2", {
        "what": "violations", "held": f"{PREFIX}rheld", "violations": f"{PREFIX}rviol",
        "affected": f"{PREFIX}raffected", "m": 4, "k": 5, "masks": rt_masks(4, 2)}),
    "rt_create_tree_labels_fresh": ("methods/related_tables/create_tree_labels.sql.j2",
                                    {"table": f"{PREFIX}rfitems", "paths": f"{PREFIX}rfpaths",
                                     "depth": 3, "fresh": 9, "dgh": f"{PREFIX}rdgh"}),
    "rt_create_tree_labels_path_bits": ("methods/related_tables/create_tree_labels.sql.j2",
                                        {"table": f"{PREFIX}rlpaths", "paths": f"{PREFIX}rp0",
                                         "depth": 3, "fresh": None, "path_bits": True}),
    "rt_create_holder_labels": ("methods/related_tables/create_holder_labels.sql.j2",
                                {"table": f"{PREFIX}rfitems", "leaf_paths": f"{PREFIX}rlpaths",
                                 "items": f"{PREFIX}ritems", "map": f"{PREFIX}rmap", "dgh": f"{PREFIX}rdgh",
                                 "node": 9}),
    "rt_find_fresh_violation_values": ("methods/related_tables/find_fresh_violation.sql.j2",
                                       {"items": f"{PREFIX}rfitems", "k": 20, "masks": {3: [0]}, "size": 3,
                                        "path_bits": True}),
    "rt_find_fresh_violation_both": ("methods/related_tables/find_fresh_violation.sql.j2",
                                     {"items": f"{PREFIX}rfitems", "k": 20, "masks": {2: [0, 1]}, "size": 2,
                                      "path_bits": True}),
    "rt_project_paths_only": ("methods/related_tables/project_paths.sql.j2",
                              {"table": f"{PREFIX}rfpaths", "paths": f"{PREFIX}rp0", "map": f"{PREFIX}rmap",
                               "depth": 3, "only": f"{PREFIX}rfrec"}),
    "rt_project_paths_even": ("methods/related_tables/project_paths.sql.j2",
                              {"table": f"{PREFIX}rpc", "paths": f"{PREFIX}rp0", "map": f"{PREFIX}rmap",
                               "depth": 3, "uneven": False}),
    "rt_measure_ml2_lift": ("methods/related_tables/measure_ml2.sql.j2",
                            {"what": "lift", "lifted": f"{PREFIX}rlifted", "source": f"{PREFIX}rp0",
                             "released": f"{PREFIX}rbest", "ancestors": f"{PREFIX}ranc", "dgh": f"{PREFIX}rdgh",
                             "map": f"{PREFIX}rbestmap", "heights": {0: 3, 1: 4, 2: 2}, "levels": 4,
                             "support": 15, "depth": 3}),
    "rt_measure_ml2_mine": ("methods/related_tables/measure_ml2.sql.j2",
                            {"what": "mine", "lifted": f"{PREFIX}rlifted", "frequent": f"{PREFIX}rfreq",
                             "side": 1, "level": 2, "length": 3, "create": False, "support": 15}),
    "rt_project_paths_merge": ("methods/related_tables/project_paths.sql.j2",
                               {"table": f"{PREFIX}rmerged", "paths": f"{PREFIX}rsd", "map": None,
                                "depth": 3}),
    "rt_create_relations_insert": ("methods/related_tables/create_relations.sql.j2",
                                   {"table": f"{PREFIX}radded", "paths": f"{PREFIX}rmerged", "insert": True,
                                    "depth": 3}),
    "rt_replace_trees_insert": ("methods/related_tables/replace_trees.sql.j2",
                                {"table": f"{PREFIX}rrel", "only": f"{PREFIX}rholders", "delete": False,
                                 "rows": f"{PREFIX}radded"}),
    **{f"audit_trees_{what}": ("audit_trees.sql.j2", {"what": what, "table": ("analytics", WEIRD), "max_depth": 64,
                                                        **AUDIT_NAMES})
       for what in ("nodes", "up", "counts", "items")},
    "audit_trees_supports": ("audit_trees.sql.j2", {"what": "supports", "table": ("analytics", WEIRD), "m": 3, "n": 2,
                                                    "masks": audit_masks(3, 2), "k": 20, "max_depth": 64, "size": 3,
                                                    "part": 1, "parts": 4, **AUDIT_NAMES}),
    "audit_trees_supports_no_k": ("audit_trees.sql.j2", {"what": "supports", "table": ("customer_trees",), "m": 1,
                                                         "n": 0, "masks": audit_masks(1, 0), "k": None,
                                                         "max_depth": 64, "size": 1, "part": 0, "parts": 1,
                                                         **AUDIT_NAMES}),
    "count_overlaps": ("count_overlaps.sql.j2", {"output": ("analytics", "trips_k5"), "column": WEIRD}),
    "cl_verify_boxes_bucket": ("methods/cloaking/verify_boxes.sql.j2",
                               {"output": ("analytics", "trips_k5"), "records": f"{PREFIX}cr",
                                "cloaked": [{"column": "lat", "nullable": False}, {"column": WEIRD, "nullable": False}],
                                "exact": [], "subject": None, "k": 5, "bucket": 1}),
    "audit_source_keys": (
        "audit_source_keys.sql.j2", {"table": WEIRD_SOURCE, "key": PERCENT},
    ),
    "audit_source_comparison": (
        "audit_source_comparison.sql.j2",
        {"table": ("analytics", "census_k3"), "source": WEIRD_SOURCE, "key": "id",
         "columns": [{"name": "AGI", "numeric": True}, {"name": WEIRD, "numeric": False}],
         "hierarchies": [{"index": 1, "lookup": f"{PREFIX}audit_h0", "height": 3}], "boxes": [PERCENT]},
    ),
    "audit_boxes": (
        "audit_boxes.sql.j2", {"table": ("analytics", "trips_cloaked"), "boxes": ["lat", WEIRD]},
    ),
    "audit_per_request_k": (
        "audit_per_request_k.sql.j2",
        {"table": ("analytics", "trips_cloaked"), "source": WEIRD_SOURCE, "boxes": ["lat", WEIRD],
         "subject": PERCENT, "k": 5, "bucket": None},
    ),
    "audit_per_request_k_records": (
        "audit_per_request_k.sql.j2",
        {"table": ("analytics", "trips_cloaked"), "source": WEIRD_SOURCE, "boxes": ["ts"], "subject": None, "k": 1,
         "bucket": None},
    ),
    "audit_per_request_k_bucket": (
        "audit_per_request_k.sql.j2",
        {"table": ("analytics", "trips_cloaked"), "source": WEIRD_SOURCE, "boxes": ["lat", WEIRD],
         "subject": PERCENT, "k": 5, "bucket": 1},
    ),
    "write_output_remove": (
        "write_output.sql.j2",
        {
            "table": ("analytics", "sqlanon_tmp_0123456789ab"),
            "or_replace": False,
            **RELEASE_REMOVE,
        },
    ),
    "write_output_mask_basic": (
        "write_output.sql.j2",
        {
            "table": ("sqlanon_tmp_ba9876543210",),
            "or_replace": False,
            **RELEASE_MASK_BASIC,
        },
    ),
    "release_kinds_remove": (
        "release_kinds.sql.j2",
        {
            "table": f"{PREFIX}kinds",
            **RELEASE_REMOVE,
            "salt": 1234567890123,
        },
    ),
    "release_kinds_mask_basic": (
        "release_kinds.sql.j2",
        {
            "table": f"{PREFIX}kinds",
            **RELEASE_MASK_BASIC,
            "salt": 42,
        },
    ),
    "release_kinds_grouped": (
        "release_kinds.sql.j2",
        {
            "table": f"{PREFIX}kinds",
            **RELEASE_MASK_BASIC,
            "source": (f"{PREFIX}gr",),
            "counted": "sqlanon_rows",
            "salt": 42,
        },
    ),
    "release_kinds_grouped_level0": (  # the weird-named QI at level 0: grouped on its values, looked up after
        "release_kinds.sql.j2",
        {
            "table": f"{PREFIX}kinds",
            **RELEASE_REMOVE,
            "source": (f"{PREFIX}gr",),
            "counted": "sqlanon_rows",
            "salt": 42,
        },
    ),
    "release_kinds_grouped_level0_mask": (
        "release_kinds.sql.j2",
        {
            "table": f"{PREFIX}kinds",
            **RELEASE_REMOVE,
            "mask": True,
            "source": (f"{PREFIX}gr",),
            "counted": "sqlanon_rows",
            "salt": 42,
        },
    ),
    "write_kinds": (
        "write_kinds.sql.j2",
        {
            "table": ("analytics", "sqlanon_tmp_0123456789ab"),
            "or_replace": False,
            "kinds": f"{PREFIX}kinds",
            "columns": [
                {"name": "age", "qi_index": 0},
                {"name": "diagnosis", "qi_index": None},
                {"name": WEIRD, "qi_index": 1},
            ],
        },
    ),
    # Run history (schema name hostile on purpose) and the report's queries.
    "history_applied_versions": ("history/applied_versions.sql.j2", {"schema": WEIRD}),
    "history_create_schema": ("history/create_schema.sql.j2", {"schema": WEIRD}),
    "history_create_version_table": ("history/create_version_table.sql.j2", {"schema": WEIRD}),
    "history_insert_row": (
        "history/insert_row.sql.j2",
        {"schema": WEIRD, "table": "runs", "values": {"run_id": "0a1b2c3d4e5f6a7b", "status": "running",
                                                      "pid": 42, "config_json": '{"k": 5}'}},
    ),
    "history_lock_history": ("history/lock_history.sql.j2", {"schema": WEIRD}),
    "history_record_version": (
        "history/record_version.sql.j2",
        {"schema": WEIRD, "version": 2, "name": "process_report_nodes", "applied_at": "2026-11-22 02:00:00",
         "sqlanon_version": "0.1.0"},
    ),
    "history_select_run_nodes": ("history/select_run_nodes.sql.j2", {"schema": WEIRD, "run_id": "0a1b"}),
    "history_select_runs_all": (
        "history/select_runs.sql.j2", {"schema": WEIRD, "columns": ["run_id", "status"], "prefix": None, "limit": 20},
    ),
    "history_select_runs_prefix": (
        "history/select_runs.sql.j2", {"schema": WEIRD, "columns": ["run_id", PERCENT], "prefix": "0a1b", "limit": 2},
    ),
    "history_update_run": (
        "history/update_run.sql.j2",
        {"schema": WEIRD, "run_id": "0a1b2c3d4e5f6a7b", "values": {"status": "failed", "error": "it's; broken"}},
    ),
    "history_version": ("history/history_version.sql.j2", {"schema": WEIRD}),
    "report_model_distribution_entropy": (
        "report_model_distribution.sql.j2",
        {"table": WEIRD_SOURCE, "qis": ["age", WEIRD], "column": PERCENT, "c_num": 3, "c_den": 1, "numeric": None,
         "measure": "entropy_l"},
    ),
    "report_model_distribution_range": (
        "report_model_distribution.sql.j2",
        {"table": SOURCE, "qis": ["age", PERCENT], "column": WEIRD, "c_num": 4, "c_den": 1, "numeric": "integer",
         "measure": "e_range"},
    ),
    "report_hierarchy_examples": (
        "report_hierarchy_examples.sql.j2", {"table": f"{PREFIX}h0", "level": 2, "limit": 5},
    ),
}

#: Template files (relative to ``sql/``, as ``template_names()`` lists them) rendered by the golden tests.
RENDERED: set[str] = set()


def make_adapter(engine: str) -> EngineAdapter:
    if engine == "duckdb":
        return DuckDBAdapter(":memory:", "duckdb:///:memory:")
    if engine == "spark":
        return SparkAdapter("spark:///?master=local[1]", "spark:///?master=local[1]")
    return PostgresAdapter(
        "postgresql://golden:secret@localhost:5432/golden", "postgresql+psycopg://golden:***@localhost:5432/golden"
    )


def _resolve(engine: str, name: str) -> str:
    """The file the engine's template loader picks: ``sql/<engine>/name`` overrides ``sql/common/name``."""
    root = sql_root()
    return f"{engine}/{name}" if (root / engine / name).is_file() else f"common/{name}"


def _loaded_files(engine: str, name: str) -> set[str]:
    """The template file for ``name`` plus every file it imports or includes (transitively)."""
    parser = jinja2.Environment()
    seen: set[str] = set()
    todo = [name]
    while todo:
        current = todo.pop()
        path = _resolve(engine, current)
        if path in seen:
            continue
        seen.add(path)
        ast = parser.parse((sql_root() / path).read_text(encoding="utf-8"))
        for ref in jinja2.meta.find_referenced_templates(ast):
            assert ref is not None, f"{path}: dynamic template reference cannot be tracked"
            todo.append(ref)
    return seen


def render(engine: str, template: str, context: dict[str, Any]) -> tuple[str, list[Any]]:
    """Render through the real adapter and record which template files took part."""
    sql, params = make_adapter(engine).render(template, **context)
    RENDERED.update(_loaded_files(engine, template))
    return sql, params


def snapshot_text(sql: str, params: list[Any]) -> str:
    return sql + PARAMS_PREFIX + repr(params) + "\n"


def _placeholders(engine: str, sql: str) -> int:
    if engine in ("duckdb", "spark"):
        return sql.count("?")
    return len(re.findall("%s", sql.replace("%%", "")))


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("case", sorted(CASES))
def test_golden_sql(case: str, engine: str) -> None:
    template, context = CASES[case]
    sql, params = render(engine, template, context)

    # Sanity independent of the snapshot: markers all replaced, one placeholder per parameter.
    assert "\x00" not in sql
    assert sql.endswith("\n") and not sql.endswith("\n\n")
    assert _placeholders(engine, sql) == len(params), sql

    path = SNAPSHOTS / case / engine / "out.sql"
    actual = snapshot_text(sql, params)
    if UPDATE:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(actual, encoding="utf-8")
        return
    if not path.is_file():
        pytest.fail(f"no snapshot {path.relative_to(SNAPSHOTS.parent)}; create it with SQLANON_UPDATE_SNAPSHOTS=1")
    expected = path.read_text(encoding="utf-8")
    assert actual == expected, (
        f"rendered SQL differs from {path.relative_to(SNAPSHOTS.parent)} "
        f"(regenerate with SQLANON_UPDATE_SNAPSHOTS=1 if the change is intended)"
    )


def test_snapshot_files_parse_back() -> None:
    """Every stored snapshot belongs to a case and ends with its bind parameters."""
    stored = {p.relative_to(SNAPSHOTS).as_posix() for p in SNAPSHOTS.rglob("out.sql")}
    from sqlanon.history import migrations

    expected = {f"{case}/{engine}/out.sql" for case in CASES for engine in ENGINES}
    expected |= {f"migration_{m.version:04d}/{engine}/out.sql" for m in migrations() for engine in ENGINES}
    assert stored == expected, "stale or missing snapshot files"
    for rel in stored:
        last = (SNAPSHOTS / rel).read_text(encoding="utf-8").rstrip("\n").splitlines()[-1]
        assert last.startswith(PARAMS_PREFIX), rel


@pytest.mark.parametrize("case", sorted(CASES))
def test_duckdb_rendering_parses_as_one_statement(case: str) -> None:
    """DuckDB's parser accepts every rendering as exactly one statement (no injection splits it); the drops of
    several tables, one statement per table, and the split of staged coded tables, one per table and the drop."""
    import duckdb

    template, context = CASES[case]
    sql, _ = render("duckdb", template, context)
    con = duckdb.connect()
    try:
        statements = con.extract_statements(sql)
    finally:
        con.close()
    several = {"drop_tables.sql.j2": 0, "split_coded_tables.sql.j2": 1}
    assert len(statements) == (len(context["tables"]) + several[template] if template in several else 1)


def test_hostile_identifiers_are_quoted() -> None:
    """The hostile identifier only ever appears quoted (embedded quote doubled), never bare."""
    for engine in ENGINES:
        quoted = make_adapter(engine).quote_identifier(WEIRD)
        sql, _ = render(engine, *CASES["write_output_remove"])
        assert quoted in sql
        rest = sql.replace(quoted, "")
        assert 'we"ird' not in rest and "ird; col" not in rest


def test_postgres_uses_hashable_match_override() -> None:
    """PostgreSQL renders the extended-match join through match_key; DuckDB uses IS NOT DISTINCT FROM."""
    duck, _ = render("duckdb", *CASES["build_frequency_set_extended"])
    pg, _ = render("postgres", *CASES["build_frequency_set_extended"])
    assert "IS NOT DISTINCT FROM" in duck and "match_key" not in duck
    assert "match_key" in pg and "IS NOT DISTINCT FROM" not in pg


def test_postgres_escapes_percent() -> None:
    """psycopg treats '%' as a placeholder marker; identifiers with '%' are doubled, placeholders are %s."""
    duck, duck_params = render("duckdb", *CASES["check_table"])
    pg, pg_params = render("postgres", *CASES["check_table"])
    assert '"pct%col"' in duck and '"pct%%col"' in pg
    assert duck_params == pg_params == [5, 5]
    assert pg.replace("%%", "%").replace("%s", "?") == duck


def test_every_template_is_rendered_by_a_golden_test() -> None:
    for case in sorted(CASES):
        template, context = CASES[case]
        for engine in ENGINES:
            render(engine, template, context)
    names = set(template_names())
    assert names, "template_names() found no templates"
    missing = sorted(names - RENDERED)
    assert not missing, f"templates not rendered by any golden SQL test: {missing}"
    unknown = sorted(RENDERED - names)
    assert not unknown, f"rendered files template_names() does not list: {unknown}"


@pytest.mark.parametrize("engine", ENGINES)
def test_migrations_render_with_a_hostile_schema_name(engine: str) -> None:
    """Every migration renders with the schema name quoted and no bind parameters (the runner refuses them)."""
    from sqlanon.history import migrations

    adapter = make_adapter(engine)
    for migration in migrations():
        sql, params = adapter.render(migration.template, _kind="migrations", schema=WEIRD)
        assert params == []
        path = SNAPSHOTS / f"migration_{migration.version:04d}" / engine / "out.sql"
        if UPDATE:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(snapshot_text(sql, params), encoding="utf-8")
            continue
        assert path.is_file(), f"no snapshot {path}; create it with SQLANON_UPDATE_SNAPSHOTS=1"
        assert snapshot_text(sql, params) == path.read_text(encoding="utf-8")
        rest = sql.replace(adapter.quote_identifier(WEIRD), "")
        assert "ird; col" not in rest


def test_compiled_templates_are_cached_between_processes_when_possible(tmp_path: Path, monkeypatch) -> None:
    from sqlanon.templates import _bytecode_cache, _CompiledTemplates

    def render(cache: jinja2.BytecodeCache) -> str:
        env = jinja2.Environment(loader=jinja2.DictLoader({"t.sql.j2": "SELECT {{ 1 + 1 }}"}), bytecode_cache=cache)
        return env.get_template("t.sql.j2").render()

    assert render(_CompiledTemplates(str(tmp_path))) == "SELECT 2"
    assert len(list(tmp_path.iterdir())) == 1  # written once, read by the next environment
    assert render(_CompiledTemplates(str(tmp_path))) == "SELECT 2"
    assert render(_CompiledTemplates(str(tmp_path / "missing"))) == "SELECT 2"  # unwritable: compiled anyway
    monkeypatch.setenv("SQLANON_NO_TEMPLATE_CACHE", "1")
    assert _bytecode_cache() is None


#: Templates the Spark adapter never runs, and why: their Spark renderings need not parse.
NOT_RUN_ON_SPARK = {
    "drop_tables.sql.j2": "SparkAdapter.drop_tables drops one table per statement",
    "split_coded_tables.sql.j2": "coded tables are created one by one (EngineAdapter.create_coded_tables)",
    "create_csv_staging.sql.j2": "SparkAdapter.stage_csv makes the staging view itself",
    "load_csv_source.sql.j2": "no source.csv on Spark (SUPPORTS_CSV_SOURCE)",
    "export_csv.sql.j2": "no output.csv on Spark (SUPPORTS_CSV_SOURCE)",
    "methods/related_tables/export_trees_json.sql.j2": "no output.json on Spark (SUPPORTS_CSV_SOURCE)",
    "catalog/find_tables_read.sql.j2": "SparkAdapter.tables_read reads the view's plan",
    "catalog/estimate_rows.sql.j2": "only PostgreSQL estimates a table's rows (EngineAdapter.estimated_rows)",
}


def test_every_spark_rendering_parses(spark_session: Any) -> None:
    """Spark's parser accepts the Spark rendering of every template it may run, with the bind parameters in
    place as literals (as Spark binds them); an UPDATE or DELETE of a scratch table as the query the adapter
    runs for it (``spark_rewrite``); the templates of NOT_RUN_ON_SPARK aside."""
    from sqlanon.engines import spark_rewrite

    adapter = make_adapter("spark")
    parser = spark_session._jsparkSession.sessionState().sqlParser()
    failed = {}
    for case in sorted(CASES):
        template, context = CASES[case]
        if template in NOT_RUN_ON_SPARK:
            continue
        sql, params = adapter.render(template, **context)
        text = re.sub(r"\A(?:\s*--[^\n]*\n)*\s*", "", adapter.display_sql(sql, params))
        if spark_rewrite.target(text):
            assigned = re.findall(r"(?:\bSET|,)\s*(\w+)\s*=", text)
            text = spark_rewrite.rewrite(text, [("`rid`", "bigint")] + [(f"`{c}`", "bigint") for c in assigned])
        try:
            parser.parsePlan(text)
        except Exception as exc:  # noqa: BLE001 - Spark's ParseException through Py4J
            failed[case] = str(exc).strip().splitlines()[0]
    assert not failed, failed
