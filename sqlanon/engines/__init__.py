"""Engine adapters: the only package that knows engine names."""

from .base import EngineAdapter
from .registry import adapter_for, adapter_for_url, mask_url

__all__ = ["EngineAdapter", "adapter_for", "adapter_for_url", "mask_url"]
