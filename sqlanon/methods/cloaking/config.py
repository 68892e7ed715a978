"""The config of spatial and temporal cloaking (``method: cloaking``)."""

from __future__ import annotations

from datetime import datetime
from typing import Literal

from pydantic import Field, model_validator

from ...config.models import AnonymizeConfig, Role, _Strict


class CloakingSettings(_Strict):
    """How locations and times are cloaked (``cloaking:`` in a config)."""

    #: table: a k-anonymous release (boxes split top-down while every part keeps k); request: each record
    #: alone gets the smallest quadtree cell holding k subjects in its time window (Gruteser & Grunwald's
    #: location-based-service setting: it protects each request, not the table).
    mode: Literal["table", "request"] = "table"
    #: Per cloaked attribute, [low, high): the region cloaked (space: numbers; time: ISO date-times or numbers).
    #: Default: the data's bounding box, its upper edge moved out by 1/1024 of its width so that the largest
    #: value lies inside the half-open region.
    region: dict[str, tuple[float | datetime, float | datetime]] = Field(default_factory=dict)
    #: A column whose distinct values are counted instead of records (a person's several records count once).
    subject: str | None = None
    #: The finest quadtree level of space (cells 1/2**space_levels of the region's side) and the finest binary
    #: split of time (intervals 1/2**time_levels of its length): the search stops there.
    space_levels: int = Field(default=20, ge=1, le=40)
    time_levels: int = Field(default=24, ge=1, le=40)
    #: Request mode with a time attribute: the length of a request's time window, in seconds (numbers: in the
    #: column's unit). Windows are laid end to end from the region's start.
    window: float | None = Field(default=None, ge=1e-6)


class CloakingConfig(AnonymizeConfig):
    """Space (one or two numeric columns) and time (a timestamp, date or number) released as boxes and
    intervals; other quasi-identifiers are released unchanged, each combination of them cloaked apart."""

    method: Literal["cloaking"]
    cloaking: CloakingSettings = CloakingSettings()

    @property
    def space(self) -> list[str]:
        return [n for n, a in self.attributes.items() if a.cloak == "space"]

    @property
    def time(self) -> str | None:
        return next((n for n, a in self.attributes.items() if a.cloak == "time"), None)

    @property
    def cloaked(self) -> list[str]:
        """The cloaked attributes: space first, then time (the order of the boxes' dimensions)."""
        return self.space + ([self.time] if self.time else [])

    @property
    def exact(self) -> list[str]:
        """The other quasi-identifiers: released unchanged."""
        return [q for q in self.quasi_identifiers if self.attributes[q].cloak is None]

    @model_validator(mode="after")
    def _supported(self) -> CloakingConfig:
        self._check_attributes()
        settings = self.cloaking
        for name, bounds in settings.region.items():
            if name not in self.cloaked:
                raise ValueError(f"cloaking.region.{name}: not a cloaked attribute (cloaked: "
                                 f"{', '.join(self.cloaked)})")
            low, high = bounds
            if isinstance(low, datetime) != isinstance(high, datetime):
                raise ValueError(f"cloaking.region.{name}: give two numbers or two date-times (got {low!r}, {high!r})")
            if not low < high:  # type: ignore[operator]
                raise ValueError(f"cloaking.region.{name}: the low end must be below the high end (got {low}, {high})")
        if settings.mode == "request":
            if not self.space:
                raise ValueError("cloaking.mode: request cloaks each request's location; it needs a space attribute")
            if self.time is not None and settings.window is None:
                raise ValueError(f"cloaking.window: request mode needs the length of a request's time window in "
                                 f"seconds (attribute {self.time} has cloak: time), e.g. window: 3600")
        elif settings.window is not None:
            raise ValueError("cloaking.window: applies to mode: request only (table mode splits time as it can)")
        return self

    def _check_attributes(self) -> None:
        for name, attr in self.attributes.items():
            if attr.hierarchy is not None or attr.max_level is not None:
                raise ValueError(f"attributes.{name}: method cloaking uses no hierarchy or max_level (cloaked "
                                 f"attributes are split as quadtree cells and intervals; other quasi-identifiers "
                                 f"are released unchanged)")
            if attr.round is not None:
                raise ValueError(f"attributes.{name}.round: applies to method microaggregation only")
            if attr.role is Role.SENSITIVE and attr.models:
                raise ValueError(f"attributes.{name}.models: privacy models on sensitive attributes are not "
                                 f"available with method cloaking (its guarantee is k records or subjects per box)")
        if len(self.space) > 2:
            raise ValueError(f"attributes: cloak: space takes one or two columns (a line or a plane); got "
                             f"{', '.join(self.space)}")
        times = [n for n, a in self.attributes.items() if a.cloak == "time"]
        if len(times) > 1:
            raise ValueError(f"attributes: cloak: time takes one column; got {', '.join(times)}")
        if not self.cloaked:
            raise ValueError("attributes: method cloaking needs a quasi-identifier with cloak: space or cloak: time")
        if self.output.suppressed_rows == "mask":
            raise ValueError("output.suppressed_rows: mask writes '*' into quasi-identifiers, which cloaking "
                             "releases as numbers and times; use remove")
        if self.privacy.delta_presence is not None:
            raise ValueError("privacy.delta_presence: not available with method cloaking")
        subject = self.cloaking.subject
        if subject is not None and subject in self.quasi_identifiers:
            raise ValueError(f"cloaking.subject: {subject!r} is a quasi-identifier; the subject is who the records "
                             f"are about (an identifier column, say)")


CONFIG = CloakingConfig
