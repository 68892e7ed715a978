"""sqlanon: optimal k-anonymity computed inside the database that holds the data."""

from .api import AnonymizationResult, CheckResult, anonymize, apply, check, explain, validate
from .config import AnonymizeConfig, load_config
from .errors import ConfigError, EngineError, InputError, NoSolutionError, SqlanonError

__version__ = "0.1.0"

__all__ = [
    "AnonymizationResult",
    "AnonymizeConfig",
    "CheckResult",
    "ConfigError",
    "EngineError",
    "InputError",
    "NoSolutionError",
    "SqlanonError",
    "__version__",
    "anonymize",
    "apply",
    "check",
    "explain",
    "load_config",
    "validate",
]
