"""The provenance-aware context packer (docs/spec/context.md, CTX rules).

Holds ``pack_records`` (scored records into a budget as cited, merged passages), what it
returns (``PackedContext`` of ``Passage``) and who may read a record (``Principal``,
CTX-13).

May import ``_records`` and everything below it (``_chunkers``, ``_text``, ``_counters``,
``_core``, ``_errors``); never the evaluation, the boundaries or the command line
(import-linter's layers contract, pyproject.toml).
"""
