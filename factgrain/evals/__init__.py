"""Evaluation helpers: benchmark dataset loaders (``factgrain.evals.datasets``)
and numpy-only metrics (``factgrain.evals.metrics``)."""
