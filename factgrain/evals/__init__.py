"""Evaluation: benchmark dataset loaders (``factgrain.evals.datasets``), numpy-only metrics
(``factgrain.evals.metrics``), the benchmark tasks (``factgrain.evals.tasks``) and the resumable
runner behind ``factgrain eval`` (``factgrain.evals.runner``)."""
