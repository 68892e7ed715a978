"""k^(m,n)-anonymity of records spread over related tables (``method: related_tables``, seed 003): cuts of the
attributes' hierarchies and structural disassociation, searched by ACS, GCS or OCS."""

from .method import RelatedTablesMethod

METHOD = RelatedTablesMethod

__all__ = ["METHOD", "RelatedTablesMethod"]
