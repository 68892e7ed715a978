"""Writing the anonymized table atomically and re-verifying it independently."""

from .verify import Verification, verify_output
from .writer import write_output

__all__ = ["Verification", "verify_output", "write_output"]
