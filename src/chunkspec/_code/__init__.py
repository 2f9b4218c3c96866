"""The ``code`` strategy's parts: languages, parsing, splitting (docs/spec/code.md)."""
