"""Configuration: pydantic models and YAML loading with errors that name file, key and value."""

from .loading import load_config, parse_config
from .models import (
    AnonymizeConfig,
    AttributeConfig,
    HierarchyConfig,
    OutputConfig,
    PrivacyConfig,
    Role,
    SourceConfig,
)

__all__ = [
    "AnonymizeConfig",
    "AttributeConfig",
    "HierarchyConfig",
    "OutputConfig",
    "PrivacyConfig",
    "Role",
    "SourceConfig",
    "load_config",
    "parse_config",
]
