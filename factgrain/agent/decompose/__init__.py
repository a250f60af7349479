"""Decomposers, one module per method; see ``base.get_decomposer``."""
