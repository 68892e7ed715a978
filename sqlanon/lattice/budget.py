"""How large a lattice the searches may take on, decided before any search starts.

Flash, best-first and the exhaustive search hold per-node state for the whole lattice (node lists, positions,
metric bounds, bitmask node sets): about 700 bytes a node, measured (a 531,441-node lattice, 12 QIs of height 3:
477 MB peak for the whole process). A lattice of 4.9e13 nodes (24 QIs) would need petabytes, and the kernel
kills the process long before. So a run refuses, with exit 2 and what to do, any lattice above
``search.max_lattice_nodes``, and any lattice whose estimated memory exceeds half of this machine's memory
whatever that setting says.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from math import prod

from ..errors import ConfigError

#: Estimated bytes of search state per lattice node (measured ~700, rounded up for the bigger node tuples of
#: wide lattices).
BYTES_PER_NODE = 1024
#: The default of ``search.max_lattice_nodes``: about 1 GB of search state.
DEFAULT_MAX_LATTICE_NODES = 1_000_000


def physical_memory() -> int | None:
    """Bytes of memory on this machine, None where the system does not say."""
    try:
        return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (ValueError, OSError, AttributeError):  # pragma: no cover - not on Linux/macOS
        return None


@dataclass(frozen=True)
class LatticeBudget:
    """The decision for one lattice: ``fits``, and a message that says why not and what to do."""

    size: int
    limit: int
    estimated_bytes: int
    fits: bool
    message: str

    def require(self) -> None:
        if not self.fits:
            raise ConfigError(self.message)


def lattice_budget(
    attributes: list[str], max_levels: tuple[int, ...], limit: int, memory: int | None = None,
) -> LatticeBudget:
    """Whether a lattice with these generalization limits fits, and if not, what would make it fit.

    >>> lattice_budget(["age", "zip"], (4, 5), limit=100).fits
    True
    >>> print(lattice_budget(["age", "zip", "sex"], (4, 5, 1), limit=50).message)  # doctest: +ELLIPSIS
    search: the lattice has 60 nodes, more than search.max_lattice_nodes (50)...
    """
    size = prod(m + 1 for m in max_levels)
    estimated = size * BYTES_PER_NODE
    memory = physical_memory() if memory is None else memory
    ceiling = None if memory is None else memory // 2
    over_memory = ceiling is not None and estimated > ceiling
    fits = size <= limit and not over_memory
    if fits:
        return LatticeBudget(size, limit, estimated, True, "")
    why = (f"more than search.max_lattice_nodes ({limit:,})" if size > limit else
           f"whose search state (~{_gb(estimated)}) exceeds half of this machine's memory ({_gb(memory or 0)})")
    message = (
        f"search: the lattice has {size:,} nodes, {why}; the optimal searches keep state for every node "
        f"(~{BYTES_PER_NODE} bytes each, ~{_gb(estimated)} here). {_advice(attributes, max_levels, limit)}"
    )
    return LatticeBudget(size, limit, estimated, False, message)


def _advice(attributes: list[str], max_levels: tuple[int, ...], limit: int) -> str:
    """Concrete ways into the limit: max_level caps on the tallest hierarchies, found greedily."""
    levels = list(max_levels)
    caps: dict[str, int] = {}
    while prod(m + 1 for m in levels) > limit:
        tallest = max(range(len(levels)), key=lambda i: (levels[i], -i))
        if levels[tallest] <= 1:
            break
        levels[tallest] -= 1
        caps[attributes[tallest]] = levels[tallest]
    steps = []
    if caps and prod(m + 1 for m in levels) <= limit:
        steps.append("cap generalization with max_level (e.g. " +
                     ", ".join(f"{a}: max_level {m}" for a, m in caps.items()) + ")")
    steps.append("declare fewer quasi-identifiers (attributes an attacker cannot know can be insensitive)")
    steps.append("or raise search.max_lattice_nodes if this machine has the memory")
    return "To search it: " + "; ".join(steps) + "."


def _gb(size: int) -> str:
    if size >= 1 << 30:
        return f"{size / (1 << 30):,.1f} GB"
    return f"{size / (1 << 20):,.0f} MB"
