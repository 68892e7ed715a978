"""The modification rate (seed 002, after Li, Wong, Fu, Pei 2006): the share of quasi-identifier cells whose
released value differs from the original, over the considered records times the quasi-identifiers. A suppressed
record counts every one of its cells as modified. Each method measures its own cells in SQL (one statement) and
reports them through ``Modification``, so that the rule for suppressed records is written once."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class Modification:
    """The cells of one release: ``modified[a]`` kept records whose released value of quasi-identifier ``a``
    differs from the original, of ``records`` considered records, ``suppressed`` of them suppressed.

    >>> m = Modification.of(["gender", "birthday"], records=6, suppressed=0, modified=[2, 2])
    >>> round(m.rate, 4), m.by_attribute
    (0.3333, {'gender': 0.3333333333333333, 'birthday': 0.3333333333333333})
    >>> m = Modification.of(["a", "b"], records=4, suppressed=1, modified=[0, 3])  # (0 + 3 + 1 * 2) / (4 * 2)
    >>> m.rate, m.by_attribute
    (0.625, {'a': 0.25, 'b': 1.0})
    """

    records: int
    suppressed: int
    modified: dict[str, int]

    @classmethod
    def of(cls, attributes: Sequence[str], records: int, suppressed: int, modified: Sequence[int]) -> Modification:
        return cls(records, suppressed, dict(zip(attributes, modified, strict=True)))

    @property
    def cells(self) -> int:
        return self.records * len(self.modified)

    @property
    def rate(self) -> float:
        """``metrics.modification_rate``: modified cells over all cells (0 with no cells)."""
        cells = self.cells
        return (sum(self.modified.values()) + self.suppressed * len(self.modified)) / cells if cells else 0.0

    @property
    def by_attribute(self) -> dict[str, float]:
        """``modification_rate_by_attribute``: per quasi-identifier, its modified cells over the records."""
        n = self.records
        return {a: (m + self.suppressed) / n if n else 0.0 for a, m in self.modified.items()}
