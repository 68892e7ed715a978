"""Sliced feasibility checks: the frequency set's code table split into parts that no class splits.

A k-anonymity check needs only to know whether a node suppresses more records than the limit. Classes below k
inside any set of whole classes are suppressed records of the node, so once the parts checked so far suppress
more than the limit the node is infeasible and the rest need not be read (``evaluate_node_sliced.sql.j2``).
A part is a set of codes of coarse levels (the slicing), so it holds whole classes of every node at or below
those levels. Where the lowest nodes suppress many times the limit, the probes low in the lattice stop after
a part or two.
"""

from __future__ import annotations

from collections.abc import Sequence

#: Parts of the code table: finer parts stop closer to the limit, but each costs a subquery's fixed part
#: (16 parts did no better than 8).
PARTS = 8
#: Smallest code table worth slicing: below it a check's fixed cost dominates.
MIN_ROWS = 8_000
#: Slicing pays where the lowest nodes suppress many times the limit: a check then stops after a few parts.
#: The bottom node suppresses the most; this share of the limit (+1) separates the runs slicing sped up from
#: those it did not.
MIN_EXCESS = 10.0
#: The slicing's codes are packed into one BIGINT (``project_frequency_set.sql.j2``).
MAX_KEY = 2**62
#: QIs a slicing may combine: each narrows the nodes it serves.
MAX_QIS = 4
#: A slicing is taken once its largest slice holds at most this share of the rows (CUP's ZIP by its first
#: digit: 23%), or, failing that, the most even one if its largest holds at most ``ACCEPTED_SHARE``.
MAX_SHARE = 0.25
ACCEPTED_SHARE = 0.5

Slicing = tuple[tuple[int, int], ...]


def worth_slicing(rows: int, bottom_suppressed: int, limit: int) -> bool:
    """Whether to slice a code table of ``rows`` rows whose bottom node suppresses ``bottom_suppressed`` records."""
    return rows >= MIN_ROWS and bottom_suppressed >= MIN_EXCESS * (limit + 1)


def candidates(heights: Sequence[int], codes: Sequence[Sequence[int]], radices: Sequence[int]) -> Slicing:
    """(QI, level) pairs that may slice, in the order they are tried. ``codes[i][j]``: how many codes QI i has at
    level j in the data (an estimate will do), ``radices[i]``: one more than its largest code.

    A node is sliceable when each of its levels on a slicing QI is at most the slicing level, so each QI
    slices at the level below its top, and QIs of height 2 (whose top Flash reaches early) never slice. QIs
    with the most codes there come first; at most ``MAX_QIS``, whose codes pack into one BIGINT."""
    order = sorted(
        (i for i, h in enumerate(heights) if h >= 3 and codes[i][h - 2] > 1),
        key=lambda i: (-codes[i][heights[i] - 2], -heights[i], i),
    )
    chosen: list[tuple[int, int]] = []
    key = 1
    for i in order[:MAX_QIS]:
        if key * radices[i] > MAX_KEY:
            break
        chosen.append((i, heights[i] - 2))
        key *= radices[i]
    return tuple(chosen)


def choose_slicing(pairs: Slicing, largest: Sequence[int], rows: int) -> Slicing:
    """The shortest prefix of ``pairs`` (``candidates``) whose largest slice holds at most ``MAX_SHARE`` of the
    rows (``largest[m - 1]``: rows of the largest slice of the prefix of m pairs), else the most even prefix
    if its largest slice holds at most ``ACCEPTED_SHARE``, else () for none. Fewer QIs leave more nodes
    sliceable; a large slice is a part read whole (FARS: two QIs put 69% of the rows in one slice)."""
    if not pairs:
        return ()
    for m, top in enumerate(largest, start=1):
        if top <= MAX_SHARE * rows:
            return tuple(sorted(pairs[:m]))
    m = min(range(len(largest)), key=lambda j: (largest[j], j)) + 1
    return tuple(sorted(pairs[:m])) if largest[m - 1] <= ACCEPTED_SHARE * rows else ()


def sliceable(node: Sequence[int], slicing: Slicing) -> bool:
    """Whether every class of the node lies in one part: its level on each slicing QI is at most the slicing's."""
    return bool(slicing) and all(node[i] <= level for i, level in slicing)
