"""The retrieval evaluation: labelled corpora (MegaMart, Chroma's set), retrievers, span
metrics, the bootstrap and the packer comparison (EVAL rules, docs/evaluation.md).

May import ``_packing``, ``_records`` and everything below them (import-linter's layers
contract, pyproject.toml).
"""
