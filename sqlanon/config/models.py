"""Pydantic models of an anonymization config (see ``configs/`` for runnable examples)."""

from __future__ import annotations

import re
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, StrictInt, create_model, field_validator, model_validator

from ..criteria.base import PrivacyCriterion
from ..criteria.delta_presence import DeltaPresenceConfig
from ..criteria.registry import ATTRIBUTE_MODELS, hierarchy_readers


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Role(StrEnum):
    """Attribute roles (ANON: k-attribute, l-attribute, dontcare, ignore; plus direct identifiers)."""

    QUASI_IDENTIFIER = "quasi_identifier"
    SENSITIVE = "sensitive"
    INSENSITIVE = "insensitive"
    IDENTIFIER = "identifier"
    IGNORE = "ignore"


class IntervalsSpec(_Strict):
    """Numeric intervals: each level groups values into ``[lo, lo + width)``; the top is ``*``."""

    widths: list[int] = Field(min_length=1)

    @field_validator("widths")
    @classmethod
    def _nested(cls, widths: list[int]) -> list[int]:
        for a, b in zip(widths, widths[1:], strict=False):
            if a <= 0 or b % a != 0:
                raise ValueError(f"each width must be positive and a multiple of the previous one (got {widths})")
        if widths[0] <= 0:
            raise ValueError(f"widths must be positive (got {widths})")
        return widths


class MaskSpec(_Strict):
    """Right-to-left masking of fixed-length codes: 13053 -> 1305* -> 130** -> ... -> *****."""

    length: int = Field(ge=1, le=64)
    char: str = Field(default="*", min_length=1, max_length=1)


DateLevel = Literal["month", "year", "decade"]


class DatesSpec(_Strict):
    """Dates: day -> month (YYYY-MM) -> year (YYYY) -> decade (1990s) -> *."""

    levels: list[DateLevel] = Field(default_factory=lambda: ["month", "year", "decade"], min_length=1)

    @field_validator("levels")
    @classmethod
    def _ordered(cls, levels: list[str]) -> list[str]:
        order = ["month", "year", "decade"]
        idx = [order.index(level) for level in levels]
        if idx != sorted(set(idx)):
            raise ValueError(f"levels must be a subsequence of month, year, decade (got {levels})")
        return levels


class HierarchyConfig(_Strict):
    """Exactly one source: ``csv``, ``inline``, ``table``, ``intervals``, ``mask`` or ``dates``."""

    csv: Path | None = None
    delimiter: str = Field(default=";", min_length=1, max_length=1)
    null_value: str | None = Field(
        default=None, description="CSV leaf text (or inline key) that stands for NULL (an explicit NULL mapping)"
    )
    inline: dict[Any, list[Any]] | None = None
    table: str | None = None
    intervals: IntervalsSpec | None = None
    mask: MaskSpec | None = None
    dates: DatesSpec | None = None
    loss: list[float] | None = Field(
        default=None, description="information loss per level for WIL (default level / (height - 1))"
    )

    @model_validator(mode="after")
    def _exactly_one(self) -> HierarchyConfig:
        given = [k for k in ("csv", "inline", "table", "intervals", "mask", "dates") if getattr(self, k) is not None]
        if len(given) != 1:
            raise ValueError(
                "give exactly one of csv, inline, table, intervals, mask, dates"
                + (f" (got {', '.join(given)})" if given else "")
            )
        if self.loss is not None:
            if any(not 0 <= x <= 1 for x in self.loss) or self.loss != sorted(self.loss):
                raise ValueError(f"loss must be non-decreasing values in [0, 1] (got {self.loss})")
        return self

    @property
    def kind(self) -> str:
        return next(k for k in ("csv", "inline", "table", "intervals", "mask", "dates") if getattr(self, k) is not None)


class _ModelChoice(_Strict):
    """One privacy model on a sensitive attribute: a mapping with exactly one key, a model's kind, whose value
    is that model's config (its ``spec``). ``ModelConfig`` below has one optional field per kind in the
    registry (``criteria/registry.py``), so pydantic checks the spec and names its keys in errors."""

    @model_validator(mode="after")
    def _exactly_one(self) -> _ModelChoice:
        given = [k for k in type(self).model_fields if getattr(self, k) is not None]
        if len(given) != 1:
            raise ValueError(
                "each model is a mapping with exactly one of: " + ", ".join(type(self).model_fields)
                + (f" (got {', '.join(given)})" if given else "")
            )
        return self

    @property
    def kind(self) -> str:
        return next(k for k in type(self).model_fields if getattr(self, k) is not None)

    @property
    def spec(self) -> BaseModel:
        return getattr(self, self.kind)

    def criterion(self, attribute: int | None = None, attribute_name: str | None = None) -> PrivacyCriterion:
        """The model this config describes, on the sensitive attribute ``attribute`` (its position among the
        sensitive attributes with models)."""
        return ATTRIBUTE_MODELS[self.kind].from_spec(self.spec, attribute, attribute_name)


if TYPE_CHECKING:
    ModelConfig = _ModelChoice
else:
    ModelConfig = create_model(
        "ModelConfig", __base__=_ModelChoice, __module__=__name__,
        **{kind: (model.spec | None, None) for kind, model in ATTRIBUTE_MODELS.items()},
    )


class AttributeConfig(_Strict):
    role: Role
    hierarchy: HierarchyConfig | None = None
    priority: float = Field(default=1.0, ge=0)
    max_level: int | None = Field(default=None, ge=0)
    #: Privacy models on a sensitive attribute (seed 000 section 4: different models per attribute).
    models: list[ModelConfig] = Field(default_factory=list)

    #: Microaggregation: decimal places of the released group mean (None: unrounded).
    round: int | None = Field(default=None, ge=0, le=15)
    #: Cloaking: the quasi-identifier is a coordinate of the space (quadtree cells) or the time (nested
    #: intervals), released as an interval ``<name>_min``, ``<name>_max``.
    cloak: Literal["space", "time"] | None = None

    @model_validator(mode="after")
    def _settings_for_role(self) -> AttributeConfig:
        if self.role is Role.SENSITIVE:
            if self.max_level is not None:
                raise ValueError("max_level applies to quasi_identifier only (role is sensitive)")
            readers = [c for c in (m.criterion() for m in self.models) if c.reads_hierarchy()]
            if readers and self.hierarchy is None:
                assert readers[0].hierarchy_variant is not None
                raise ValueError(f"{readers[0].hierarchy_variant[0]} needs a hierarchy for this attribute")
            if self.hierarchy is not None and not readers:
                raise ValueError(f"a sensitive attribute's hierarchy is only used by {hierarchy_readers()}")
        elif self.role is not Role.QUASI_IDENTIFIER and (self.hierarchy is not None or self.max_level is not None):
            raise ValueError(f"hierarchy and max_level apply to quasi_identifier only (role is {self.role.value})")
        for key in ("round", "cloak"):
            if getattr(self, key) is not None and self.role is not Role.QUASI_IDENTIFIER:
                raise ValueError(f"{key} applies to quasi_identifier only (role is {self.role.value})")
        if self.models and self.role is not Role.SENSITIVE:
            raise ValueError(f"models apply to sensitive attributes only (role is {self.role.value})")
        return self


class SourceConfig(_Strict):
    url: str | None = None
    table: str | None = None
    csv: Path | None = None
    delimiter: str | None = Field(default=None, min_length=1, max_length=1)

    @field_validator("table")
    @classmethod
    def _file_path(cls, table: str | None) -> str | None:
        """``parquet:/data/x.parquet`` (a path an engine reads as a table: Spark) as the name Spark gives it,
        ``parquet."/data/x.parquet"``."""
        match = re.fullmatch(r"(csv|parquet|json|orc):(.+)", table or "", re.DOTALL)
        if match is None:
            return table
        return f'{match.group(1)}."{match.group(2).replace(chr(34), chr(34) * 2)}"'

    @model_validator(mode="after")
    def _table_or_csv(self) -> SourceConfig:
        if (self.table is None) == (self.csv is None):
            raise ValueError("give either table (with url) or csv")
        if self.delimiter is not None and self.csv is None:
            raise ValueError("delimiter applies to a csv source only")
        return self


class OutputConfig(_Strict):
    table: str
    if_exists: Literal["fail", "replace"] = "fail"
    suppressed_rows: Literal["remove", "mask"] = "remove"
    seed: float | None = Field(default=None, ge=-1, le=1, description="seed for the random row order")
    csv: Path | None = Field(default=None, description="also export the anonymized table to this CSV file")


class PrivacyConfig(_Strict):
    k: StrictInt = Field(ge=1)
    delta_presence: DeltaPresenceConfig | None = None
    suppression_limit: float | StrictInt = 0.0
    null_handling: Literal["extended", "basic"] = "extended"

    @field_validator("suppression_limit", mode="before")
    @classmethod
    def _not_bool(cls, value: object) -> object:
        # YAML's yes/true would otherwise become 1.0 (suppress everything).
        if isinstance(value, bool):
            raise ValueError("must be a number: a fraction in [0, 1] or an integer count")
        return value

    @field_validator("suppression_limit")
    @classmethod
    def _limit(cls, value: float | int) -> float | int:
        if isinstance(value, int):
            if value < 0:
                raise ValueError(f"an absolute count must be >= 0 (got {value})")
        elif not 0.0 <= value <= 1.0:
            raise ValueError(f"a fraction must lie in [0, 1] (got {value}); write an integer for a count")
        return value

    def max_suppressed(self, n: int) -> int:
        """floor(limit * n) for a fraction, the count itself for an integer (SEMANTICS.md).

        >>> PrivacyConfig(k=2, suppression_limit=0.05).max_suppressed(30162)
        1508
        >>> PrivacyConfig(k=2, suppression_limit=10).max_suppressed(30162)
        10
        """
        if isinstance(self.suppression_limit, int):
            return self.suppression_limit
        from fractions import Fraction

        return int(Fraction(str(self.suppression_limit)) * n)


class HistoryConfig(_Strict):
    """Run history in the target database (``migrations/``; ``sqlanon runs list``)."""

    enabled: bool = True
    #: Schema holding the history tables (created on first use when ``create`` is true).
    schema_: str = Field(default="sqlanon", min_length=1, max_length=63, alias="schema")
    create: bool = True
    #: Also store every lattice node's search outcome (for the lattice picture of ``runs show --report``).
    store_nodes: bool = False

    model_config = ConfigDict(extra="forbid", frozen=True, populate_by_name=True)

    @property
    def schema(self) -> str:  # type: ignore[override]
        return self.schema_


class AnonymizeConfig(_Strict):
    """What the config of every anonymization method has (``method:`` selects the method's own subclass,
    ``sqlanon.methods``; ``parse_config`` dispatches on it)."""

    #: The anonymization method (``sqlanon/methods/``): generalization unless the config says otherwise.
    method: str = "generalization"
    source: SourceConfig
    output: OutputConfig
    attributes: dict[str, AttributeConfig] = Field(min_length=1)
    #: The role of every column of the source not listed in ``attributes``, among the roles that need no
    #: settings. No default: without it, a column without a role is an error, so a forgotten column is noticed.
    other_columns: Literal["insensitive", "identifier", "ignore"] | None = None
    privacy: PrivacyConfig
    history: HistoryConfig = HistoryConfig()
    #: Folder of the config file: relative paths in the config are resolved against it.
    base_dir: Path = Field(default=Path("."), exclude=True)
    #: Where the config came from (file path), to name it in error messages.
    source_file: str = Field(default="<config>", exclude=True)

    @model_validator(mode="after")
    def _has_qi(self) -> AnonymizeConfig:
        if not any(a.role is Role.QUASI_IDENTIFIER for a in self.attributes.values()):
            raise ValueError("at least one attribute must have role quasi_identifier")
        return self

    def with_other_columns(self, columns: list[str]) -> AnonymizeConfig:
        """The config with ``other_columns``' role written out for each of ``columns`` not in ``attributes``
        (so every later step finds each column's role in ``attributes``); itself when there are none.

        >>> cfg = AnonymizeConfig.model_validate({
        ...     "source": {"table": "t"}, "output": {"table": "o"}, "privacy": {"k": 2},
        ...     "attributes": {"age": {"role": "quasi_identifier", "hierarchy": {"mask": {"length": 2}}}},
        ...     "other_columns": "ignore"})
        >>> {n: a.role.value for n, a in cfg.with_other_columns(["age", "name"]).attributes.items()}
        {'age': 'quasi_identifier', 'name': 'ignore'}
        """
        unlisted = [c for c in columns if c not in self.attributes]
        if self.other_columns is None or not unlisted:
            return self
        role = AttributeConfig(role=Role(self.other_columns))
        return self.model_copy(update={"attributes": {**self.attributes, **dict.fromkeys(unlisted, role)}})

    def released_columns(self, columns: list[str]) -> list[dict[str, Any]]:
        """The columns of the released table, in the source's order: identifiers and ignored columns are left
        out; ``qi_index`` is a quasi-identifier's position among the quasi-identifiers (None for the others)."""
        qis = self.quasi_identifiers
        return [{"name": c, "qi_index": qis.index(c) if self.attributes[c].role is Role.QUASI_IDENTIFIER else None}
                for c in columns if self.attributes[c].role not in (Role.IDENTIFIER, Role.IGNORE)]

    def hierarchy_tables(self) -> list[tuple[str, str]]:
        """(config key, table name) of every hierarchy read from a database table."""
        return [(f"attributes.{name}.hierarchy.table", attr.hierarchy.table) for name, attr in self.attributes.items()
                if attr.hierarchy is not None and attr.hierarchy.table is not None]

    def resolve(self, path: Path) -> Path:
        return path if path.is_absolute() else (self.base_dir / path)

    @property
    def sensitive_with_models(self) -> list[str]:
        return [n for n, a in self.attributes.items() if a.role is Role.SENSITIVE and a.models]

    @property
    def quasi_identifiers(self) -> list[str]:
        return [n for n, a in self.attributes.items() if a.role is Role.QUASI_IDENTIFIER]
