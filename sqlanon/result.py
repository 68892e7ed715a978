"""The result of one run: the fields every method has, plus the method's own details."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any


@dataclass
class AnonymizationResult:
    """What one anonymization run did; ``to_dict()`` is the CLI's ``--json`` object.

    The method's own figures (``Outcome.details``: generalization's ``transformation``, ``strategy``,
    ``nodes_evaluated``, ...) are in ``details``, flat in ``to_dict()``, and readable as attributes
    (``result.transformation``)."""

    status: str
    method: str
    rows: int
    rows_considered: int
    removed_for_null: int
    suppressed_rows: int
    suppressed_rows_mode: str
    metrics: dict[str, float]
    k: int
    suppression_limit: int
    statements: int
    seconds: float
    source_table: str
    output_table: str | None
    output_rows: int | None
    verified: bool | None
    verification: dict[str, Any] | None
    database: str
    dry_run: bool
    null_handling: str
    details: dict[str, Any] = field(default_factory=dict)
    #: Id of the run in the history schema (None when history is disabled).
    run_id: str | None = None
    #: The reusable plan for ``apply`` (methods that have one; generalization: the levels), not in ``to_dict()``.
    plan: dict[str, Any] | None = field(default=None, repr=False)
    #: The report content (``--report``); not part of ``to_dict()``.
    report: dict[str, Any] | None = field(default=None, repr=False)

    def __getattr__(self, name: str) -> Any:
        # Only called for names that are not fields: the method's details.
        details = self.__dict__.get("details") or {}
        if name in details:
            return details[name]
        raise AttributeError(f"{type(self).__name__} of method {self.__dict__.get('method')!r} has no {name!r}")

    def to_dict(self) -> dict[str, Any]:
        out = asdict(self)
        for internal in ("report", "plan", "details"):
            del out[internal]
        return {**out, **self.details}

    def transformation_document(self) -> dict[str, Any]:
        """What ``sqlanon apply --transformation FILE`` needs: the config and the method's reusable plan."""
        if self.report is None:
            raise ValueError("no report content was collected for this run")
        if self.plan is None:
            raise ValueError(f"method {self.method} has no reusable plan")
        return {key: self.report[key] for key in ("format", "version", "sqlanon_version", "run_id", "config",
                                                   "base_dir")} | {
            "format": "sqlanon-transformation", "transformation": self.plan}
