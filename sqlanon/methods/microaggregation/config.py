"""The config of microaggregation (``method: microaggregation``)."""

from __future__ import annotations

from typing import Literal

from pydantic import Field, model_validator

from ...config.models import AnonymizeConfig, Role, _Strict
from ..generalization.config import refuse_cloak


class MicroaggregationSettings(_Strict):
    """How records are grouped (``microaggregation:`` in a config)."""

    #: Scale of each quasi-identifier before distances are taken: z_score (population standard deviation),
    #: range (min-max to [0, 1]) or none. The information loss is measured on the same scale.
    standardize: Literal["z_score", "range", "none"] = "z_score"
    #: Exact MDAV runs on tables (and patterns of NULLs) of at most this many records. Past it, the records are
    #: split at medians of their widest attribute, part by part, into parts of at most ``part_size`` records,
    #: and MDAV runs in every part at once: the statements do not grow with the rows.
    partition_size: int = Field(default=10_000, ge=2)
    part_size: int = Field(default=1_000, ge=2)
    #: On a table larger than the partition size, rounds of exact MDAV over the whole table before the splits:
    #: they group its outliers as exact MDAV does (on skewed data a few groups of outliers hold most of the loss).
    global_rounds: int = Field(default=100, ge=0)
    #: Seed of the (k,p,q,r) heuristic's random choice of a first record (in [-1, 1], as output.seed).
    seed: float = Field(default=0.0, ge=-1, le=1)


class MicroaggregationConfig(AnonymizeConfig):
    """Numeric quasi-identifiers without hierarchies, replaced by the mean of groups of k..2k-1 similar
    records (MDAV); sensitive attributes may carry kpqr_anonymity, p_sensitivity or distinct_l_diversity."""

    method: Literal["microaggregation"]
    microaggregation: MicroaggregationSettings = MicroaggregationSettings()

    @model_validator(mode="after")
    def _numeric_quasi_identifiers(self) -> MicroaggregationConfig:
        for name, attr in self.attributes.items():
            refuse_cloak(self, name, attr)
            if attr.role is not Role.QUASI_IDENTIFIER:
                continue
            if attr.hierarchy is not None or attr.max_level is not None:
                raise ValueError(f"attributes.{name}: microaggregation replaces a quasi-identifier by its group's "
                                 f"mean and uses no hierarchy or max_level; use method: generalization for "
                                 f"hierarchies")
        if self.output.suppressed_rows == "mask":
            raise ValueError("output.suppressed_rows: mask writes '*' into quasi-identifiers, which microaggregation "
                             "keeps numeric; use remove (records that cannot be grouped are left out)")
        settings = self.microaggregation
        if settings.part_size > settings.partition_size:
            raise ValueError(f"microaggregation.part_size: {settings.part_size} exceeds partition_size "
                             f"{settings.partition_size} (tables up to partition_size are not split at all)")
        if self.privacy.delta_presence is not None:
            raise ValueError("privacy.delta_presence: not available with method microaggregation (its classes are "
                             "groups of means, which no population table shares)")
        return self


CONFIG = MicroaggregationConfig
