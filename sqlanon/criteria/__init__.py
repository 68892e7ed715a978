"""Privacy models. Each declares what it needs from the node query and whether it is monotone."""

from .base import PrivacyCriterion
from .k_anonymity import KAnonymity

__all__ = ["KAnonymity", "PrivacyCriterion"]
