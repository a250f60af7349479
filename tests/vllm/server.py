"""A local vLLM server for the vLLM tier and the vLLM benchmark: started through ``factgrain serve-vllm
--run`` (so the command factgrain prints is the one that runs), stopped by its process group."""

from __future__ import annotations

import os
import re
import signal
import socket
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

import httpx

REPO = Path(__file__).resolve().parents[2]
SERVED_NAME = "smollm2-135m"
DEFAULT_PYTHON = REPO / ".venv-vllm" / "bin" / "python"
DEFAULT_MODEL_DIR = REPO / ".cache" / "vllm-models" / "smollm2-135m"


def vllm_python() -> Path:
    return Path(os.environ.get("FACTGRAIN_VLLM_PYTHON") or DEFAULT_PYTHON)


def vllm_model_dir() -> Path:
    return Path(os.environ.get("FACTGRAIN_VLLM_MODEL_DIR") or DEFAULT_MODEL_DIR)


def missing_setup() -> str | None:
    """Why the local vLLM server cannot be started here, or None."""
    python, model = vllm_python(), vllm_model_dir()
    if not python.exists():
        return f"no vLLM interpreter at {python} (set FACTGRAIN_VLLM_PYTHON)"
    if not (model / "config.json").is_file():
        return f"no converted model at {model} (set FACTGRAIN_VLLM_MODEL_DIR)"
    return None


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def serve_args(port: int, vllm_args: str = "") -> list[str]:
    """``factgrain serve-vllm`` arguments for the local CPU server (without ``--run``)."""
    args = ["serve-vllm", str(vllm_model_dir()), "--device", "cpu", "--python", str(vllm_python()),
            "--host", "127.0.0.1", "--port", str(port), "--served-model-name", SERVED_NAME]
    return args + ([f"--vllm-args={vllm_args}"] if vllm_args else [])


def factgrain_env() -> dict[str, str]:
    """The environment for ``python -m factgrain`` children: this checkout first, no user endpoint settings."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("OPENAI_", "FACTGRAIN_"))}
    env["PYTHONPATH"] = os.pathsep.join([str(REPO), *filter(None, [os.environ.get("PYTHONPATH")])])
    env["FACTGRAIN_PROGRESS"] = "0"
    return env


@dataclass
class Server:
    base_url: str
    model: str  # the served name; factgrain's spec is f"vllm/{model}"
    process: subprocess.Popen | None = None
    log: Path | None = None
    printed_command: str = ""  # what `factgrain serve-vllm` prints for the same arguments
    startup_s: float = 0.0
    extra: dict = field(default_factory=dict)

    @property
    def spec(self) -> str:
        return f"vllm/{self.model}"

    def log_tail(self, n: int = 40) -> str:
        if self.log is None or not self.log.exists():
            return ""
        return "\n".join(self.log.read_text(errors="replace").splitlines()[-n:])


def start(log: Path, *, timeout: float = 300.0, vllm_args: str = "") -> Server:
    """Start the server, wait (bounded) for ``/health``; raises RuntimeError with the log's tail.
    ``vllm_args``: more server flags, as ``serve-vllm --vllm-args`` takes them."""
    port = free_port()
    args = serve_args(port, vllm_args)
    env = factgrain_env()
    printed = subprocess.run([sys.executable, "-m", "factgrain", *args], capture_output=True, text=True,
                             env=env, timeout=120)
    if printed.returncode != 0:
        raise RuntimeError(f"factgrain serve-vllm failed: {printed.stderr.strip()}")
    t0 = time.perf_counter()
    fh = open(log, "w")
    # A new session: the server and vLLM's engine process share one process group, stopped together.
    proc = subprocess.Popen([sys.executable, "-m", "factgrain", *args, "--run"], stdout=fh,
                            stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL, env=env, start_new_session=True)
    fh.close()
    server = Server(base_url=f"http://127.0.0.1:{port}/v1", model=SERVED_NAME, process=proc, log=log,
                    printed_command=printed.stdout.strip())
    deadline = t0 + timeout
    with httpx.Client(timeout=5.0) as client:
        while True:
            if proc.poll() is not None:
                raise RuntimeError(f"vLLM exited with {proc.returncode} while starting:\n{server.log_tail()}")
            try:
                if client.get(f"http://127.0.0.1:{port}/health").status_code == 200:
                    break
            except httpx.TransportError:
                pass
            if time.perf_counter() > deadline:
                stop(server)
                raise RuntimeError(f"vLLM did not answer /health within {timeout:.0f} s:\n{server.log_tail()}")
            time.sleep(0.5)
    server.startup_s = round(time.perf_counter() - t0, 1)
    return server


def stop(server: Server) -> None:
    proc = server.process
    if proc is None or proc.poll() is not None:
        return
    try:
        os.killpg(proc.pid, signal.SIGTERM)
        proc.wait(timeout=30)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait(timeout=30)
    except ProcessLookupError:
        pass


_SAMPLE = re.compile(r"^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{[^}]*\})?\s+([-+0-9.eE]+|NaN|[+-]Inf)$")


def metrics(base_url: str, *, client: httpx.Client | None = None) -> dict[str, float]:
    """vLLM's Prometheus counters from ``/metrics``: ``name`` summed over labels, and ``name{labels}`` as is."""
    root = base_url.rstrip("/").removesuffix("/v1")
    own = client is None
    client = client or httpx.Client(timeout=10.0)
    try:
        text = client.get(f"{root}/metrics").text
    finally:
        if own:
            client.close()
    out: dict[str, float] = {}
    for line in text.splitlines():
        m = _SAMPLE.match(line.strip())
        if not m or not m.group(1).startswith("vllm:"):
            continue
        name, labels, value = m.group(1), m.group(2) or "", float(m.group(3))
        out[name] = out.get(name, 0.0) + value
        if labels:
            # drop the engine/model labels every sample carries; keep the distinguishing ones (source=...)
            kept = ",".join(p for p in labels[1:-1].split(",") if p and not p.startswith(("engine=", "model_name=")))
            if kept:
                key = f"{name}{{{kept}}}"
                out[key] = out.get(key, 0.0) + value
    return out
