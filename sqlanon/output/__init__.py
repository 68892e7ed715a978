"""Publishing the anonymized table as atomically as the engine allows, and re-verifying it independently."""

from .verify import Verification, verify_output
from .writer import settle_interrupted_publication, shuffle_salt, write_output

__all__ = ["Verification", "settle_interrupted_publication", "shuffle_salt", "verify_output", "write_output"]
