"""The checking pipeline: segment -> decompose -> (reflect) -> retrieve evidence -> verify ->
attribute -> aggregate, run by ``evaluator.Evaluator``."""
