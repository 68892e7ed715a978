"""k-anonymity (Samarati and Sweeney 1998; Sweeney 2002): every equivalence class has at least k records.

Records of smaller classes are suppressed (SEMANTICS.md). With a suppression limit the model stays
monotone: merging classes never shrinks a class, so a generalization never suppresses more records.
The class-size test is part of every node query, so this model needs no macro of its own.
"""

from __future__ import annotations

from dataclasses import dataclass

from .base import PrivacyCriterion, ReportRow


@dataclass(frozen=True)
class KAnonymity(PrivacyCriterion, kind="k_anonymity"):
    report = ReportRow("k-anonymity", "k")
    k: int = 1

    def is_monotonic_with_generalization(self) -> bool:
        return True
