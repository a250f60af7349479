"""Configuration precedence: arguments > FACTGRAIN_* environment > factgrain.toml / [tool.factgrain]."""

import pytest

from factgrain.agent.evaluator import Evaluator
from factgrain.backends.scripted import ScriptedBackend
from factgrain.config import find_config_file, load_config
from factgrain.errors import ConfigurationError

PYPROJECT = """
[project]
name = "demo"

[tool.factgrain]
model = "vllm/file-model"
base_url = "http://file-host:8000/v1"
verifier_model = "openai/file-verifier"
api_key_env = "MY_SECRET"

[tool.factgrain.check]
method = "triqua"
threshold = 0.7
"""


@pytest.fixture
def project(tmp_path):
    (tmp_path / "pyproject.toml").write_text(PYPROJECT)
    sub = tmp_path / "src" / "deep"
    sub.mkdir(parents=True)
    return tmp_path, sub


def test_file_is_found_from_a_subfolder_and_read(project):
    root, sub = project
    cfg = load_config(cwd=sub, env={"MY_SECRET": "k-1"})
    assert cfg.file == str(root / "pyproject.toml")
    assert cfg.role("main") == ("vllm/file-model", "http://file-host:8000/v1", f"file {root / 'pyproject.toml'}")
    assert cfg.role("verifier")[0] == "openai/file-verifier"
    assert cfg.role("decomposer")[:2] == ("vllm/file-model", "http://file-host:8000/v1")
    assert cfg.api_key.get_secret_value() == "k-1" and "k-1" not in repr(cfg)
    assert cfg.check == {"method": "triqua", "threshold": 0.7}


def test_environment_beats_file_and_arguments_beat_environment(project):
    _, sub = project
    env = {"FACTGRAIN_MODEL": "openai/env-model", "FACTGRAIN_BASE_URL": "http://env:1/v1",
           "FACTGRAIN_THRESHOLD": "0.6", "FACTGRAIN_API_KEY": "env-key", "MY_SECRET": "file-key"}
    cfg = load_config(cwd=sub, env=env)
    assert cfg.model == "openai/env-model" and cfg.sources["model"] == "env FACTGRAIN_MODEL"
    assert cfg.base_url == "http://env:1/v1" and cfg.check["threshold"] == "0.6"
    assert cfg.api_key.get_secret_value() == "env-key"
    cfg = load_config(cwd=sub, env=env, model="llamacpp/arg-model", api_key="arg-key", check={"threshold": 0.9})
    assert cfg.model == "llamacpp/arg-model" and cfg.sources["model"] == "argument"
    assert cfg.api_key.get_secret_value() == "arg-key" and cfg.check["threshold"] == 0.9
    assert cfg.base_url == "http://env:1/v1"  # not given as an argument: the environment still decides
    assert cfg.check["method"] == "triqua"  # only in the file


def test_factgrain_toml_is_preferred_and_has_top_level_keys(tmp_path):
    (tmp_path / "pyproject.toml").write_text(PYPROJECT)
    (tmp_path / "factgrain.toml").write_text('model = "openai/toml-model"\nreflector_model = "vllm/r"\n')
    cfg = load_config(cwd=tmp_path, env={})
    assert cfg.model == "openai/toml-model" and cfg.role("reflector")[0] == "vllm/r"


def test_nothing_configured_means_the_offline_default(tmp_path):
    cfg = load_config(cwd=tmp_path, env={})
    assert cfg.file is None and cfg.role("main")[0] == "offline"
    assert find_config_file(tmp_path, env={}) is None


@pytest.mark.parametrize("content,msg", [
    ('api_key = "sk-123"\n', "do not store API keys"),
    ('modle = "openai/x"\n', "unknown keys"),
    ('model = \n', "cannot read"),
])
def test_bad_files_fail_clearly(tmp_path, content, msg):
    (tmp_path / "factgrain.toml").write_text(content)
    with pytest.raises(ConfigurationError, match=msg):
        load_config(cwd=tmp_path, env={})


def test_explicit_config_path(tmp_path):
    path = tmp_path / "elsewhere.toml"
    path.write_text('model = "vllm/explicit"\n')
    assert load_config(cwd=tmp_path, env={"FACTGRAIN_CONFIG": str(path)}).model == "vllm/explicit"
    with pytest.raises(ConfigurationError, match="not a file"):
        load_config(env={"FACTGRAIN_CONFIG": str(tmp_path / "missing.toml")})


def test_evaluator_takes_check_defaults_and_role_backends_from_config(tmp_path, monkeypatch):
    (tmp_path / "factgrain.toml").write_text('verifier = "llm"\n[check]\nthreshold = 0.8\naggregate = "min"\n')
    monkeypatch.chdir(tmp_path)
    main, verifier = ScriptedBackend(responses=["x"]), ScriptedBackend(responses=["y"])
    ev = Evaluator(main, verifier_model=verifier, aggregate="mean")
    assert ev.options.threshold == 0.8 and ev.options.aggregate == "mean" and ev.verifier_name == "llm"
    assert ev.decomposer_backend is main and ev.reflector_backend is main and ev.verifier.backend is verifier
    monkeypatch.setenv("FACTGRAIN_THRESHOLD", "0.3")
    assert Evaluator(main).options.threshold == 0.3
