"""The offline reader keeps thinc from importing torch when the pipeline does not need it, and
spaCy from importing its command-line package."""

import importlib.util
import json
import os
import subprocess
import sys

import pytest

PROBE = """
import json, sys
from factgrain.agent import reader
nlp = reader.load_pipeline()
import thinc.compat
state = {"torch_imported": "torch" in sys.modules, "thinc_has_torch": thinc.compat.has_torch,
         "parsed": [t.dep_ for t in nlp("The press publishes books.")]}
try:
    import torch  # noqa: F401  # still importable afterwards
    state["torch_after"] = True
except ImportError:
    state["torch_after"] = False
print(json.dumps(state))
"""


def probe(**env: str) -> dict:
    out = subprocess.run([sys.executable, "-c", PROBE], capture_output=True, text=True, check=True,
                         env={**os.environ, **env}, timeout=120)
    return json.loads(out.stdout.strip().splitlines()[-1])


@pytest.mark.skipif(importlib.util.find_spec("torch") is None, reason="torch is not installed in this environment")
def test_the_small_pipeline_loads_without_torch_and_torch_still_imports_after():
    state = probe(FACTGRAIN_SPACY_TORCH="0")
    assert state["torch_imported"] is False and state["thinc_has_torch"] is False
    assert "nsubj" in state["parsed"] and "dobj" in state["parsed"]
    assert state["torch_after"] is True


@pytest.mark.skipif(importlib.util.find_spec("torch") is None, reason="torch is not installed in this environment")
def test_asking_for_torch_lets_thinc_see_it():
    state = probe(FACTGRAIN_SPACY_TORCH="1")
    assert state["thinc_has_torch"] is True


@pytest.mark.skipif(importlib.util.find_spec("torch") is None, reason="torch is not installed in this environment")
def test_a_torch_pipeline_after_the_small_one_is_a_clear_error():
    code = """
from factgrain.agent import reader
from factgrain.errors import ConfigurationError
reader.load_pipeline()
try:
    reader.load_pipeline("en_core_web_trf")
except ConfigurationError as exc:
    print("ERR", exc)
"""
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                         env={**os.environ, "FACTGRAIN_SPACY_TORCH": "0"}, timeout=120).stdout
    assert "ERR" in out and "FACTGRAIN_SPACY_TORCH=1" in out, out


def test_spacy_cli_is_deferred_and_still_works_when_asked_for():
    code = """
import json, sys
from factgrain.agent import reader
nlp = reader.load_pipeline()
state = {"cli_at_load": "spacy.cli" in sys.modules, "parsed": [t.dep_ for t in nlp("Prices rose.")]}
import spacy
from spacy import cli
state["download"] = callable(getattr(cli, "download", None))
state["info_keys"] = sorted(spacy.info())[:3]
print(json.dumps(state))
"""
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=120)
    state = json.loads(out.stdout.strip().splitlines()[-1])
    assert state["cli_at_load"] is False
    assert "nsubj" in state["parsed"]
    assert state["download"] is True  # the real CLI package, not the placeholder
    assert state["info_keys"], state  # spacy.info() runs the real function


def test_components_disabled_by_default_are_not_loaded():
    from factgrain.agent import reader

    nlp = reader.load_pipeline()
    assert "senter" not in nlp.component_names and nlp.disabled == []
    assert "parser" in nlp.pipe_names and "ner" in nlp.pipe_names
    assert [s.text for s in nlp("Prices rose. Shares fell.").sents] == ["Prices rose.", "Shares fell."]
