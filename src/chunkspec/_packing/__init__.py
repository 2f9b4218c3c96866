"""The provenance-aware context packer (docs/spec/context.md, CTX rules)."""
