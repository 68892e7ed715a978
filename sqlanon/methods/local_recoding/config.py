"""The config of local recoding (``method: local_recoding``)."""

from __future__ import annotations

from typing import Literal

from pydantic import Field, model_validator

from ...config.models import AnonymizeConfig, _Strict
from ..generalization.config import SearchConfig, WhdConfig, require_hierarchies


class LocalRecodingSettings(_Strict):
    """How KACA merges classes (``local_recoding:`` in a config)."""

    #: batched: every class below k merged with its nearest in one round where the pairs share no class (fast);
    #: one_at_a_time: the paper's loop, one small class per round (slow on large tables; the reference).
    merging: Literal["batched", "one_at_a_time"] = "batched"
    #: one_at_a_time: which small class goes next: the least by size then id (deterministic), or one drawn by a
    #: generator seeded with ``seed`` (random, as the paper's line 3).
    choice: Literal["deterministic", "random"] = "deterministic"
    seed: int = 0
    #: batched: tables of more classes (distinct quasi-identifier combinations) than this first merge within
    #: blocks of classes that share ancestors (``kaca.py``): each round's search is then a hash join, not a
    #: pass over every pair of classes. Up to this many, every round searches every class.
    exact_classes: int = Field(default=5000, ge=1)
    #: The edge weights of the WHD that the class distance adds up (and that the run reports).
    whd: WhdConfig = WhdConfig()


class LocalRecodingConfig(AnonymizeConfig):
    """Every quasi-identifier has a hierarchy, as for generalization, but each equivalence class is generalized
    only as far as it must be (levels mix within a column)."""

    method: Literal["local_recoding"]
    local_recoding: LocalRecodingSettings = LocalRecodingSettings()

    @property
    def search(self) -> SearchConfig:
        """What the shared preparation of hierarchies and frequency set reads of a search (none is run)."""
        return SearchConfig(whd=self.local_recoding.whd)

    @model_validator(mode="after")
    def _supported(self) -> LocalRecodingConfig:
        require_hierarchies(self, "each class is generalized up its hierarchies")
        for name, attr in self.attributes.items():
            if attr.max_level is not None:
                raise ValueError(f"attributes.{name}.max_level: not used by method local_recoding (a class goes as "
                                 f"far up as its nearest merge takes it); remove it")
        if self.privacy.delta_presence is not None:
            raise ValueError("privacy.delta_presence: not available with method local_recoding (its classes mix "
                             "levels, which no population table is generalized to)")
        return self


CONFIG = LocalRecodingConfig
