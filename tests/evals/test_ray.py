"""The Ray engine gives the same predictions as the local one and resumes the same way.

Runs on a local Ray instance (two CPUs); skipped when ``ray[data]`` is not installed."""

import json

import pytest

ray = pytest.importorskip("ray")
pytest.importorskip("ray.data")

from factgrain.evals.runner import run_eval  # noqa: E402
from factgrain.evals.tasks.base import EvalSettings  # noqa: E402
from tests.evals import evalkit  # noqa: E402

KEYS = ("id", "example_id", "style", "label", "statement", "probability", "status", "prompt_versions")


@pytest.fixture(scope="module")
def local_ray():
    from ray import cloudpickle

    import tests.scripted

    # the scripted handler travels to the actors by value: workers need not import the tests
    cloudpickle.register_pickle_by_value(evalkit)
    cloudpickle.register_pickle_by_value(tests.scripted)
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False, ignore_reinit_error=True)
    yield
    ray.shutdown()


def records(out):
    return {r["id"]: r for r in map(json.loads, (out / "predictions.jsonl").read_text().splitlines())}


def same(a, b, tol=0.0):
    assert a.keys() == b.keys()
    for k in a:
        for key in KEYS:
            x, y = a[k].get(key), b[k].get(key)
            if key == "probability" and x is not None and y is not None:
                assert x == pytest.approx(y, abs=tol), (k, x, y)
            else:
                assert x == y, (k, key, x, y)


def test_ray_engine_matches_local_on_20_rows_and_resumes(tmp_path, data_dir, local_ray):
    settings = EvalSettings(model=evalkit.eval_backend(), verifier="llm")
    run_eval("qasem-table4", split="dev", limit=10, out=tmp_path / "local", settings=settings, make_plots=False)
    res = run_eval("qasem-table4", split="dev", limit=10, out=tmp_path / "ray", settings=settings, engine="ray",
                   ray_actors=2, make_plots=False)
    local, remote = records(tmp_path / "local"), records(tmp_path / "ray")
    assert len(remote) == 20
    same(local, remote)
    assert {r["run"]["engine"] for r in remote.values()} == {"ray"}
    assert res.tables[0].rows == run_eval("qasem-table4", split="dev", limit=10, out=tmp_path / "local",
                                          settings=settings, make_plots=False).tables[0].rows
    # resume: drop six rows, the ray engine predicts exactly those
    path = tmp_path / "ray" / "predictions.jsonl"
    kept = path.read_text().splitlines(keepends=True)[:14]
    path.write_text("".join(kept))
    res = run_eval("qasem-table4", split="dev", limit=10, out=tmp_path / "ray", settings=settings, engine="ray",
                   ray_actors=2, make_plots=False)
    assert res.new_records == 6 and len(path.read_text().splitlines()) == 20
    same(local, records(tmp_path / "ray"))


def test_endpoints_need_a_served_model_name(tmp_path, data_dir, local_ray):
    from factgrain.errors import ConfigurationError

    with pytest.raises(ConfigurationError, match="name the served model"):
        run_eval("qasem-table4", split="dev", limit=1, out=tmp_path, engine="ray",
                 endpoints=["http://127.0.0.1:9/v1"], make_plots=False)


def test_routing_keeps_one_reference_on_one_endpoint():
    from factgrain.evals.tasks.base import Job
    from factgrain.integrations.ray_runner import endpoint_for

    eps = ["http://a/v1", "http://b/v1", "http://c/v1"]
    jobs = [Job(id=str(i), payload={"reference": f"ref {i % 5}"}) for i in range(50)]
    chosen = {}
    for j in jobs:
        chosen.setdefault(j.payload["reference"], set()).add(endpoint_for(j, eps))
    assert all(len(v) == 1 for v in chosen.values())
    assert len({next(iter(v)) for v in chosen.values()}) > 1


@pytest.mark.embedded
def test_ray_spreads_over_embedded_server_endpoints(tmp_path, data_dir, local_ray, monkeypatch):
    """Two endpoints (the embedded llama.cpp server under two URLs): LLM verification through Ray
    gives the local engine's probabilities."""
    monkeypatch.setenv("FACTGRAIN_EMBEDDED_THREADS", "1")
    from factgrain.backends.embedded import EmbeddedBackend

    url = EmbeddedBackend().server_url
    eps = [f"{url}/v1", f"{url.replace('127.0.0.1', 'localhost')}/v1"]
    settings = EvalSettings(model="llamacpp/smollm2-135m", base_url=eps[0], verifier="llm")
    run_eval("qasem-table4", split="dev", limit=2, seed=5, out=tmp_path / "local", settings=settings,
             make_plots=False, task_options={"styles": ("qa",)})
    run_eval("qasem-table4", split="dev", limit=2, seed=5, out=tmp_path / "ray", settings=settings, engine="ray",
             endpoints=eps, make_plots=False, task_options={"styles": ("qa",)})
    remote = records(tmp_path / "ray")
    # llama.cpp logits shift slightly with batch composition and prompt-cache state (about 0.02 seen)
    same(records(tmp_path / "local"), remote, tol=0.05)
    assert all(r["run"]["endpoint"] in eps and r["status"] == "scored" for r in remote.values())
