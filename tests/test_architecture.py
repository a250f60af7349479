"""The dependency rules of docs/architecture.md, read from the source with ``ast``.

What counts as an import: every ``import`` / ``from ... import`` statement anywhere in a module -
at the top, inside a function, inside ``try`` - because a function-level import is still a
dependency that runs the moment the function does. Only imports under ``if TYPE_CHECKING:`` are
left out (they never run). ``from factgrain import progress`` counts as importing the submodule
``factgrain.progress``; the parent package's ``__init__`` that Python runs first is not counted as
an edge (every import would have it). Names in strings (the lazy registries of backends, engines
and tasks, ``importlib.import_module("...")``) are not imports: that is how a module stays unloaded
until chosen.
"""

from __future__ import annotations

import ast
import subprocess
import sys
from functools import lru_cache
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "factgrain"

# Layers by module prefix: what each may import of factgrain (itself always allowed).
FOUNDATION = {"factgrain.errors", "factgrain._version"}
ALLOWED: dict[str, set[str]] = {
    "factgrain.errors": set(),
    "factgrain._version": set(),
    "factgrain.schemas": set(),  # the data imports nothing else of factgrain, not even errors
    "factgrain.prompts": {"factgrain.schemas"} | FOUNDATION,
    "factgrain.backends": {"factgrain.schemas"} | FOUNDATION,
    "factgrain.render": {"factgrain.schemas"} | FOUNDATION,
    "factgrain.calibration": FOUNDATION,
    "factgrain.progress": FOUNDATION,
    "factgrain.examples": FOUNDATION,
    "factgrain.config": {"factgrain.backends"} | FOUNDATION,
}
# The pipeline: what it must never reach (the CLI, the harness, integrations, batch files, views).
PIPELINE_FORBIDDEN = ("factgrain.cli", "factgrain.commands", "factgrain.evals", "factgrain.integrations",
                      "factgrain.batch", "factgrain.render", "factgrain.testing")
# Third-party packages the pipeline must not import. langchain_text_splitters is a text-splitting
# library (no LangChain runtime, no Runnable), so it is not on this list.
PIPELINE_FORBIDDEN_EXTERNAL = ("langchain", "langchain_core", "langchain_openai", "langchain_community",
                               "langsmith", "ray")
# The harness reaches engines through factgrain.evals.engines only (Ray is named there as a string).
HARNESS_FORBIDDEN = ("factgrain.integrations", "factgrain.cli", "factgrain.commands", "ray")
LIBRARY_FORBIDDEN = ("factgrain.cli", "factgrain.commands")  # nothing but the CLI knows the CLI


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


@lru_cache(maxsize=1)
def modules() -> dict[str, Path]:
    return {_module_name(p): p for p in sorted(PACKAGE.rglob("*.py"))}


def _is_type_checking(node: ast.If) -> bool:
    t = node.test
    return (isinstance(t, ast.Name) and t.id == "TYPE_CHECKING") or (
        isinstance(t, ast.Attribute) and t.attr == "TYPE_CHECKING")


def _walk(node: ast.AST):
    for child in ast.iter_child_nodes(node):
        if isinstance(child, ast.If) and _is_type_checking(child):
            for sub in child.orelse:  # the else branch does run
                yield sub
                yield from _walk(sub)
            continue
        yield child
        yield from _walk(child)


@lru_cache(maxsize=None)
def imports_of(module: str) -> tuple[tuple[str, int], ...]:
    """(imported module, line) for every import statement of ``module`` (see the module docstring)."""
    path = modules()[module]
    is_pkg = path.name == "__init__.py"
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    known = modules()
    out = []
    for node in _walk(tree):
        if isinstance(node, ast.Import):
            out += [(a.name, node.lineno) for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = module.split(".") if is_pkg else module.split(".")[:-1]
                base = base[: len(base) - (node.level - 1)]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            for a in node.names:
                sub = f"{target}.{a.name}"
                out.append((sub if sub in known else target, node.lineno))
    return tuple(out)


def internal_edges() -> dict[str, set[str]]:
    known = modules()
    graph: dict[str, set[str]] = {m: set() for m in known}
    for m in known:
        for target, _ in imports_of(m):
            if target in known and target != m:
                graph[m].add(target)
    return graph


def _under(name: str, prefixes) -> bool:
    return any(name == p or name.startswith(p + ".") for p in prefixes)


def violations() -> list[str]:
    found = []
    for m in modules():
        imps = imports_of(m)
        factgrain_imps = [(t, ln) for t, ln in imps if _under(t, ("factgrain",)) and t != "factgrain"]
        layer = next((p for p in sorted(ALLOWED, key=len, reverse=True) if _under(m, (p,))), None)
        if layer is not None:
            allowed = ALLOWED[layer] | {layer}
            found += [f"{m}:{ln} imports {t} ({layer} may import only {sorted(allowed)})"
                      for t, ln in factgrain_imps if not _under(t, allowed)]
        if _under(m, ("factgrain.agent",)):
            found += [f"{m}:{ln} imports {t} (the pipeline knows no CLI, harness, integrations or views)"
                      for t, ln in factgrain_imps if _under(t, PIPELINE_FORBIDDEN)]
            found += [f"{m}:{ln} imports {t} (the pipeline knows no LangChain and no Ray)"
                      for t, ln in imps if _under(t, PIPELINE_FORBIDDEN_EXTERNAL)]
        if _under(m, ("factgrain.evals",)):
            found += [f"{m}:{ln} imports {t} (the harness reaches engines through factgrain.evals.engines)"
                      for t, ln in imps if _under(t, HARNESS_FORBIDDEN)]
        if not _under(m, ("factgrain.cli", "factgrain.commands", "factgrain.__main__")):
            found += [f"{m}:{ln} imports {t} (only the CLI knows the CLI)"
                      for t, ln in factgrain_imps if _under(t, LIBRARY_FORBIDDEN)]
        if m != "factgrain" and any(t == "factgrain" for t, _ in imps):
            names = [ln for t, ln in imps if t == "factgrain"]
            found += [f"{m}:{ln} imports names from the top-level factgrain package (import the module that "
                      "defines them)" for ln in names]
    return list(dict.fromkeys(found))  # one line per statement, even when it imports several names


def cycles() -> list[list[str]]:
    """Strongly connected components with more than one module (Tarjan), i.e. the import circles."""
    graph = internal_edges()
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    out: list[list[str]] = []
    counter = [0]

    def visit(v: str) -> None:
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on_stack.add(v)
        for w in graph[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    sys.setrecursionlimit(max(sys.getrecursionlimit(), 10_000))
    for v in sorted(graph):
        if v not in index:
            visit(v)
    return out


def test_the_reader_sees_the_package():
    # the checks below would pass vacuously on an empty or misread tree
    mods = modules()
    assert {"factgrain.schemas.report", "factgrain.agent.evaluator", "factgrain.evals.runner"} <= set(mods)
    assert ("factgrain.schemas.spans", 0) not in imports_of("factgrain.schemas.report")
    assert any(t == "factgrain.schemas.units" for t, _ in imports_of("factgrain.schemas.report"))


def test_dependency_rules_hold():
    bad = violations()
    assert not bad, f"{len(bad)} import(s) break the dependency rules:\n" + "\n".join(bad)


def test_no_import_circles():
    found = cycles()
    assert not found, f"{len(found)} import circle(s):\n" + "\n".join(" <-> ".join(c) for c in found)


def test_the_checker_catches_what_it_should(tmp_path, monkeypatch):
    """The rules fail on a planted violation and a planted circle (so they are not vacuous)."""
    pkg = tmp_path / "factgrain"
    for rel, body in {
        "__init__.py": "",
        "schemas/__init__.py": "",
        "schemas/report.py": "def f():\n    from factgrain.render.html import page\n",
        "render/__init__.py": "",
        "render/html.py": "from factgrain.schemas.report import Report\n",
        "agent/__init__.py": "",
        "agent/x.py": "import ray\nfrom typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    import langchain_core\n",
    }.items():
        (pkg / rel).parent.mkdir(parents=True, exist_ok=True)
        (pkg / rel).write_text(body)
    monkeypatch.setattr(sys.modules[__name__], "PACKAGE", pkg)
    modules.cache_clear()
    imports_of.cache_clear()
    try:
        bad = violations()
        assert any("factgrain.schemas.report" in b and "factgrain.render.html" in b for b in bad)
        assert any("factgrain.agent.x" in b and "ray" in b for b in bad)
        assert not any("langchain_core" in b for b in bad)  # TYPE_CHECKING imports never run
        assert ["factgrain.render.html", "factgrain.schemas.report"] in cycles()
    finally:
        modules.cache_clear()
        imports_of.cache_clear()


@pytest.mark.parametrize("entry", ["factgrain.agent.evaluator", "factgrain.evals.runner", "factgrain.schemas"])
def test_heavy_optional_packages_load_only_when_chosen(entry):
    """Importing the pipeline or the harness loads no Ray, no LangChain and (for the pipeline) no
    harness - checked in a fresh interpreter, so lazy imports are what is measured."""
    code = (f"import sys, {entry}\n"
            "bad = sorted(m for m in sys.modules if m.split('.')[0] in ('ray', 'langchain_core', 'langsmith') "
            f"or ({entry.startswith('factgrain.agent') or entry == 'factgrain.schemas'} "
            "and m.startswith(('factgrain.evals', 'factgrain.integrations', 'factgrain.commands', 'factgrain.render'))))\n"
            "print(','.join(bad))\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120,
                         cwd=PACKAGE.parent)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "", f"importing {entry} loaded: {out.stdout.strip()}"
