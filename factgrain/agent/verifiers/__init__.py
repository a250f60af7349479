"""Verifiers that score fine-grained units (QA pairs, triples, claims) against a reference."""
