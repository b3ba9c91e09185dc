"""Nightly warehouse exports: read the CSV drops, check their columns, summarise them."""

from .reader import read_export
from .schemas import SCHEMAS, required_columns
from .summary import summarise
from .validate import ExportError, check_columns, check_rows

__all__ = ["read_export", "SCHEMAS", "required_columns", "summarise", "ExportError", "check_columns",
           "check_rows"]
