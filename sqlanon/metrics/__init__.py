"""Information loss metrics, one per module. Values are exact (Fraction) so that every strategy
compares nodes identically to the last digit; reports show them as floats."""

from .aecs import AecsMetric
from .base import InformationLossMetric, MetricContext
from .dm_star import DmStarMetric
from .height import HeightMetric
from .loss import LossMetric
from .precision import PrecisionMetric
from .whd import WhdMetric
from .wil import WilMetric

METRICS: dict[str, type[InformationLossMetric]] = {
    m.name: m for m in (LossMetric, DmStarMetric, WilMetric, PrecisionMetric, HeightMetric, AecsMetric, WhdMetric)
}


def metric_by_name(name: str) -> InformationLossMetric:
    return METRICS[name]()


__all__ = ["METRICS", "InformationLossMetric", "MetricContext", "metric_by_name"]
