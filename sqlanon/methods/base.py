"""The contract of an anonymization method (ENGINEERING.md 1b; after ARX's one algorithm interface behind its
framework, and SQLMesh's one materialization path per model kind).

A run (``sqlanon/run.py``) drives every method through the same steps, in this order::

    method = Method(session)          the session: the connection, the source, the scratch tables
    method.prepare()                  in the database: what the method's search needs (lookup tables, ...)
    method.solve(plan, ...)           Python drives SQL: the transformation (levels, groups, boxes, ...)
    method.release()                  what the shared writer and verifier need of it (``Release``)
    method.verify_models(table)       the privacy models re-checked on the written table
    method.outcome()                  the run's figures (``Outcome``) for the result, history and reports
    method.report_sections(...)       the method's own sections of the run report
    method.plan()                     a reusable plan for ``apply`` (methods that have one)

The writer (``output/writer.py``) and the verifier (``output/verify.py``) know nothing of any method: the
release names the write template and the released quasi-identifier columns, and the verifier checks k and the
suppression limit on the written table's own contents.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar

from ..errors import ConfigError

if TYPE_CHECKING:
    from ..config.models import AnonymizeConfig
    from ..engines.base import EngineAdapter
    from ..session import Session

#: (nodes or steps done, their total or 0 when unknown, best value so far or None, seconds since the start).
ProgressCallback = Callable[[int, int, float | None, float], None]


@dataclass(frozen=True)
class Release:
    """What the shared writer and verifier need of a method's result.

    ``template`` renders ``CREATE TABLE <table> AS SELECT ...`` of the released rows, in random order (the
    writer passes ``table``); ``context`` is the rest of its context. The verifier groups the written table by
    ``qis`` (the released quasi-identifier columns: the class of a row is their value combination) and holds
    every class to ``k`` and the suppressed rows to ``max_suppressed`` of ``considered``."""

    template: str
    context: dict[str, Any]
    qis: list[str]
    k: int
    considered: int
    max_suppressed: int
    #: Suppressed rows are kept with every quasi-identifier '*' (``suppressed_rows: mask``), not removed.
    mask: bool = False
    #: The released quasi-identifiers are text in which '*' may stand (generalization's top level, masked
    #: rows); False for a method that releases numbers.
    starred: bool = True
    #: The written table has equivalence classes over ``qis`` for the shared verifier to hold to k; False for a
    #: release whose guarantee is not one of classes (related tables' trees): ``verify_models`` checks it all.
    classes: bool = True


@dataclass(frozen=True)
class Records:
    """The source's records as a prepared method counts them."""

    rows: int
    #: Records the privacy models are about: the rows, less those basic NULL matching removes.
    considered: int
    removed_for_null: int
    #: The suppression limit in records (``PrivacyConfig.max_suppressed`` of ``considered``).
    max_suppressed: int


@dataclass(frozen=True)
class Outcome:
    """A solved run's figures, common to every method, plus the method's own ``details`` (flat in the
    result's JSON, e.g. generalization's ``transformation`` and ``nodes_evaluated``)."""

    suppressed_rows: int
    metrics: dict[str, float]
    details: dict[str, Any] = field(default_factory=dict)


class AnonymizationMethod(ABC):
    """One anonymization method; an instance serves one run (or one validate/explain) of one session."""

    #: The config's ``method:`` value.
    name: ClassVar[str]
    #: The method has a reusable plan that ``apply`` can re-apply to a new batch (``plan``).
    HAS_PLAN: ClassVar[bool] = False
    #: The config key that names the table a run reads (messages about it name this key).
    SOURCE_KEY: ClassVar[str] = "source.table"

    def __init__(self, session: Session) -> None:
        self.session = session

    @property
    def config(self) -> AnonymizeConfig:
        # Read through the session: it writes ``other_columns`` out per column once it knows the source.
        return self.session.config

    @property
    def adapter(self) -> EngineAdapter:
        return self.session.adapter

    def tables_read(self) -> list[tuple[str, str]]:
        """(config key, table name) of every table the run reads besides the source (hierarchy tables, a
        population): the output may be none of them."""
        return []

    @abstractmethod
    def prepare(self) -> None:
        """Everything the solution needs, in the database (raises ConfigError/InputError)."""

    @abstractmethod
    def records(self) -> Records:
        """The source's records, once prepared."""

    @abstractmethod
    def solve(self, plan: dict[str, Any] | None, on_violation: str, progress: ProgressCallback | None,
              started: float) -> str:
        """Find the transformation; with ``plan`` (``apply``), re-apply it, or search again when the data violates
        it and ``on_violation`` is ``search``. Returns how it was found (the strategy, or ``fixed``)."""

    @abstractmethod
    def release(self) -> Release:
        """What the writer and the verifier need (may create scratch tables the write template reads)."""

    def verify_models(self, table: tuple[str, ...]) -> dict[str, Any] | None:
        """The privacy models beyond k re-checked on the written ``table``: ``models_verified`` and details,
        or None when the config has none."""
        return None

    def export(self, table: tuple[str, ...]) -> None:
        """Files the method writes from the verified table besides ``output.csv`` (related tables' JSON)."""
        return None

    @abstractmethod
    def outcome(self) -> Outcome:
        """The run's figures, once solved."""

    @abstractmethod
    def report_sections(self, result: Any, table: tuple[str, ...] | None,
                        class_info: dict[str, Any] | None) -> dict[str, Any]:
        """The method's own sections of the run report (``report.data``), measured while the session is open."""

    def history_nodes(self) -> list[tuple[str, str, float | None]]:
        """Rows of the history's ``run_nodes`` (``history.store_nodes``): the search's steps, where it has any."""
        return []

    def plan(self) -> dict[str, Any] | None:
        """The reusable plan for ``apply`` (``HAS_PLAN``), once solved."""
        return None

    @abstractmethod
    def validation(self) -> dict[str, Any]:
        """What ``validate`` reports beyond the common fields, once prepared."""

    def explain(self, node: dict[str, int] | None) -> str:
        """The SQL of one step of the method, runnable as printed (``sqlanon explain``)."""
        raise ConfigError(f"explain: method {self.name} has no single query to show; use --report on a dry run")

    @classmethod
    def summary_lines(cls, result: Any) -> list[str]:
        """The method's lines of the CLI's summary of a run (after the common first line)."""
        return []
