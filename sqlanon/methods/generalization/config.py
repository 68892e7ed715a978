"""The config of full-domain generalization (``method: generalization``, the default)."""

from __future__ import annotations

from typing import Literal

from pydantic import Field, model_validator

from ...config.models import AnonymizeConfig, AttributeConfig, Role, _Strict


class WhdConfig(_Strict):
    """Edge weights of the weighted hierarchical distance (``metrics/whd.py``): every edge 1 (``uniform``), or
    edge a of a hierarchy of height H weighs 1 / (H - a)^beta (``height``: steps near the top weigh most)."""

    weights: Literal["uniform", "height"] = "uniform"
    beta: float = Field(default=1.0, gt=0, allow_inf_nan=False)


class BudgetConfig(_Strict):
    """What a search may spend (``search.budget``): distinct nodes checked in SQL, and wall seconds. A search
    that spends it keeps its best transformation, marked not proven optimal, with a lower bound."""

    nodes: int | None = Field(default=None, ge=1)
    seconds: float | None = Field(default=None, gt=0, allow_inf_nan=False)


#: The budget of ``strategy: auto`` when it falls back on the heuristic and none is set (ARX's default time
#: limit for its heuristic search is 30 seconds as well).
AUTO_HEURISTIC_SECONDS = 30.0


class SearchConfig(_Strict):
    #: ``auto``: flash when the lattice fits (``max_lattice_nodes``) and no budget is set, else top_down.
    strategy: Literal["auto", "flash", "best_first", "exhaustive", "top_down", "lightning"] = "auto"
    budget: BudgetConfig = BudgetConfig()
    metric: Literal["loss", "dm_star", "wil", "precision", "height", "aecs", "whd"] = "loss"
    #: The WHD's weights, for ``metric: whd`` and for the ``whd`` value every run reports.
    whd: WhdConfig = WhdConfig()
    max_exhaustive_nodes: int = Field(default=100_000, ge=1)
    force: bool = False
    #: Larger lattices are refused before any search (``lattice/budget.py``: the searches keep per-node state).
    max_lattice_nodes: int = Field(default=1_000_000, ge=1)


class GeneralizationConfig(AnonymizeConfig):
    """Every quasi-identifier has a generalization hierarchy; the search over their lattice is configured
    under ``search``."""

    method: Literal["generalization"] = "generalization"
    search: SearchConfig = SearchConfig()

    @model_validator(mode="after")
    def _hierarchy_for_every_qi(self) -> GeneralizationConfig:
        require_hierarchies(self, "for numeric columns without one, see method: microaggregation")
        return self


def require_hierarchies(cfg: AnonymizeConfig, why: str) -> None:
    """Every quasi-identifier has a hierarchy, and none asks for microaggregation's rounding: the methods that
    generalize up hierarchies (generalization, local recoding) share this check."""
    for name, attr in cfg.attributes.items():
        refuse_cloak(cfg, name, attr)
        if attr.role is Role.QUASI_IDENTIFIER and attr.hierarchy is None:
            raise ValueError(f"attributes.{name}: a quasi_identifier needs a hierarchy (method {cfg.method}; {why})")
        if attr.round is not None:
            raise ValueError(f"attributes.{name}.round: applies to method microaggregation only")


def refuse_cloak(cfg: AnonymizeConfig, name: str, attr: AttributeConfig) -> None:
    """``cloak`` is method cloaking's; every other method refuses it by name."""
    if attr.cloak is not None:
        raise ValueError(f"attributes.{name}.cloak: applies to method cloaking only (method is {cfg.method})")


CONFIG = GeneralizationConfig
