"""One configuration model for choosing backends, read with a fixed precedence:

    arguments  >  environment (FACTGRAIN_*)  >  factgrain.toml / [tool.factgrain] in pyproject.toml  >  defaults

The file is looked for from the working directory upward: the first ``factgrain.toml``, or the first
``pyproject.toml`` that has a ``[tool.factgrain]`` table, wins (``FACTGRAIN_CONFIG`` names a file
directly). Nothing is read at import time; :func:`load_config` reads when it is called.

Each role (decomposition, reflection, verification) may use its own model and endpoint; a role
left unset uses the main ``model`` / ``base_url``.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, SecretStr, ValidationError

from factgrain.errors import ConfigurationError

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - Python 3.10
    import tomli as tomllib

ROLES = ("main", "decomposer", "reflector", "verifier")
ENV_PREFIX = "FACTGRAIN_"
# Keys settable from every source. Model keys take a "provider/model" string (objects only as arguments).
_STR_KEYS = (
    "model", "base_url", "decomposer_model", "decomposer_base_url", "reflector_model", "reflector_base_url",
    "verifier_model", "verifier_base_url", "verifier",
)
# Check options (factgrain.agent.evaluator.CheckOptions) that the environment may set as defaults.
_ENV_CHECK_KEYS = ("method", "threshold", "aggregate", "reflect", "reflect_rounds")


class FactgrainConfig(BaseModel):
    """The resolved configuration. ``sources`` says where each set value came from."""

    model_config = ConfigDict(extra="forbid", arbitrary_types_allowed=True)

    model: Any = Field(default=None, description="provider/model (or a Backend / LangChain chat model object)")
    base_url: str | None = None
    api_key: SecretStr | None = None
    decomposer_model: Any = None
    decomposer_base_url: str | None = None
    reflector_model: Any = None
    reflector_base_url: str | None = None
    verifier_model: Any = None
    verifier_base_url: str | None = None
    verifier: str | None = Field(default=None, description="verifier kind: llm | lexical | nli | fused")
    check: dict[str, Any] = Field(default_factory=dict, description="defaults for the check options")
    file: str | None = Field(default=None, description="the configuration file that was read, if any")
    sources: dict[str, str] = Field(default_factory=dict)

    def role(self, role: str) -> tuple[Any, str | None, str]:
        """(model spec, base URL, where the model came from) for ``role`` in :data:`ROLES`."""
        if role not in ROLES:
            raise ConfigurationError(f"unknown role {role!r}; roles: {', '.join(ROLES)}")
        if role == "main":
            spec, url, src = self.model, self.base_url, self.sources.get("model", "default")
        else:
            spec = getattr(self, f"{role}_model")
            url = getattr(self, f"{role}_base_url") or self.base_url
            src = self.sources.get(f"{role}_model", "")
            if spec is None:
                spec, src = self.model, "same as model"
                url = getattr(self, f"{role}_base_url") or self.base_url
        if spec is None:
            from factgrain.backends.registry import DEFAULT_MODEL

            spec = DEFAULT_MODEL
            src = src if src == "same as model" else "default"
        return spec, url, src

    def backends(self) -> dict[str, Any]:
        """Build one backend per role; roles with the same model and endpoint share one instance."""
        from factgrain.backends.registry import get_backend

        key = self.api_key.get_secret_value() if self.api_key else None
        built: dict[tuple, Any] = {}
        out: dict[str, Any] = {}
        for role in ROLES:
            spec, url, _ = self.role(role)
            ident = (spec if isinstance(spec, str) else id(spec), url)
            if ident not in built:
                built[ident] = get_backend(spec, base_url=url, api_key=key)
            out[role] = built[ident]
        return out


def find_config_file(start: str | Path | None = None, env: Mapping[str, str] | None = None) -> Path | None:
    env = os.environ if env is None else env
    explicit = env.get(ENV_PREFIX + "CONFIG")
    if explicit:
        path = Path(explicit).expanduser()
        if not path.is_file():
            raise ConfigurationError(f"{ENV_PREFIX}CONFIG points to {explicit}, which is not a file")
        return path
    here = Path(start or Path.cwd()).resolve()
    for folder in (here, *here.parents):
        candidate = folder / "factgrain.toml"
        if candidate.is_file():
            return candidate
        pyproject = folder / "pyproject.toml"
        if pyproject.is_file() and "factgrain" in _read_toml(pyproject).get("tool", {}):
            return pyproject
    return None


def _read_toml(path: Path) -> dict[str, Any]:
    try:
        with path.open("rb") as fh:
            return tomllib.load(fh)
    except (OSError, tomllib.TOMLDecodeError) as exc:
        raise ConfigurationError(f"cannot read configuration file {path}: {exc}") from None


def read_file_settings(path: Path) -> dict[str, Any]:
    data = _read_toml(path)
    if path.name == "pyproject.toml":
        data = data.get("tool", {}).get("factgrain", {})
    if "api_key" in data:
        raise ConfigurationError(
            f"{path}: do not store API keys in a configuration file; set FACTGRAIN_API_KEY, "
            "or name the variable that holds the key with api_key_env = \"MY_KEY_VARIABLE\""
        )
    known = set(_STR_KEYS) | {"api_key_env", "check"}
    unknown = sorted(set(data) - known)
    if unknown:
        raise ConfigurationError(f"{path}: unknown keys {unknown}; known: {sorted(known)}")
    if "check" in data and not isinstance(data["check"], dict):
        raise ConfigurationError(f"{path}: 'check' must be a table of check options")
    return data


def load_config(*, cwd: str | Path | None = None, env: Mapping[str, str] | None = None,
                api_key: str | None = None, check: Mapping[str, Any] | None = None,
                **arguments: Any) -> FactgrainConfig:
    """Resolve the configuration. ``arguments`` are the caller's values for the keys in
    :class:`FactgrainConfig` (None = not given); ``check`` holds explicit check options."""
    env = os.environ if env is None else env
    unknown = set(arguments) - set(_STR_KEYS)
    if unknown:
        raise ConfigurationError(f"unknown configuration arguments {sorted(unknown)}")
    path = find_config_file(cwd, env)
    file_values = read_file_settings(path) if path else {}
    values: dict[str, Any] = {}
    sources: dict[str, str] = {}
    for name in _STR_KEYS:
        env_name = ENV_PREFIX + name.upper()
        if arguments.get(name) is not None:
            values[name], sources[name] = arguments[name], "argument"
        elif env.get(env_name):
            values[name], sources[name] = env[env_name], f"env {env_name}"
        elif file_values.get(name) is not None:
            values[name], sources[name] = file_values[name], f"file {path}"
    # The key: argument > FACTGRAIN_API_KEY > the variable the file names. OPENAI_API_KEY stays the
    # OpenAI backend's own fallback.
    key_env = file_values.get("api_key_env")
    if api_key:
        values["api_key"], sources["api_key"] = api_key, "argument"
    elif env.get(ENV_PREFIX + "API_KEY"):
        values["api_key"], sources["api_key"] = env[ENV_PREFIX + "API_KEY"], f"env {ENV_PREFIX}API_KEY"
    elif key_env and env.get(key_env):
        values["api_key"], sources["api_key"] = env[key_env], f"env {key_env} (named in {path})"
    check_values: dict[str, Any] = dict(file_values.get("check", {}))
    for name in _ENV_CHECK_KEYS:
        if env.get(ENV_PREFIX + name.upper()):
            check_values[name] = env[ENV_PREFIX + name.upper()]
    check_values.update({k: v for k, v in (check or {}).items() if v is not None})
    if values.get("verifier") is not None:
        check_values["verifier"] = values["verifier"]
    try:
        return FactgrainConfig(**values, check=check_values, file=str(path) if path else None, sources=sources)
    except ValidationError as exc:  # e.g. a base URL that is not a string: one line, exit 3
        bad = "; ".join(f"{'.'.join(map(str, e['loc']))}: {e['msg']} (got {e.get('input')!r})" for e in exc.errors())
        raise ConfigurationError(f"invalid configuration: {bad}") from None


__all__ = ["FactgrainConfig", "load_config", "find_config_file", "ROLES"]
