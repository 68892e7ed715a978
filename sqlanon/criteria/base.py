"""Interface of a privacy model (after ARX ``criteria/PrivacyCriterion.java``)."""

from __future__ import annotations

from typing import ClassVar


class PrivacyCriterion:
    """A privacy model checked per equivalence class inside the node query."""

    #: Name in reports and configs.
    name: ClassVar[str]
    #: Aggregates the node query must compute for this model.
    requirements: ClassVar[frozenset[str]] = frozenset()

    def is_monotonic_with_generalization(self) -> bool:
        """True when a generalization of a feasible node (suppression limit included) is feasible.

        Only monotone models may be used for predictive tagging; the search stays exact otherwise.
        """
        raise NotImplementedError  # pragma: no cover
