"""The record's JSON Schema, shipped as a data file that ports read too (RECORD-7)."""

from __future__ import annotations

import json
from functools import cache
from importlib import resources
from typing import Any

__all__ = ["SCHEMA_FILE", "record_json_schema"]

#: The schema's file name inside the package's ``schemas`` folder.
SCHEMA_FILE = "chunk-record.schema.json"


@cache
def _text() -> str:
    """Return the schema file's text."""
    return resources.files("chunkspec").joinpath("schemas", SCHEMA_FILE).read_text("utf-8")


def record_json_schema() -> dict[str, Any]:
    """Return a fresh copy of the record's JSON Schema (draft 2020-12)."""
    data: dict[str, Any] = json.loads(_text())
    return data
