"""measure_free's samples: the tuning sample never holds a response of the standard (reported) one."""

import pytest

from factgrain.evals.measure_free import sample


def test_tuning_sample_is_disjoint_from_the_standard_sample():
    standard = {ex.id for ex in sample("dev", 20)}
    tuning = [ex.id for ex in sample("dev", 20, seed=1, tuning=True)]
    assert len(standard) == 20 and len(tuning) == 20
    assert not standard & set(tuning)
    assert tuning != [ex.id for ex in sample("dev", 20, seed=2, tuning=True)]  # the seed picks the sample


def test_tuning_sample_refuses_the_standard_seed():
    with pytest.raises(ValueError, match="seed"):
        sample("dev", 20, seed=0, tuning=True)
