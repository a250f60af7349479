"""NLIVerifier: hypotheses per unit kind, one batched classifier call, the cited passage/window,
and `--model nli/<dir>` end to end on a tiny random BERT built here (no downloads)."""

from __future__ import annotations


import pytest

from factgrain.agent.verifiers.base import VerifyItem
from factgrain.agent.verifiers.nli import NLIVerifier, hypothesis_for
from factgrain.agent.verifiers.nli_model import NLIScore
from factgrain.backends.scripted import ScriptedBackend
from factgrain.errors import ConfigurationError, MissingExtraError
from factgrain.schemas.units import Claim, HyperRelationalFact, QAPair, Qualifier
from factgrain.schemas.verdicts import Evidence
from tests.scripted import qa_backend

WORDS = ("the a cat dog sat on mat laura muir won race in at to of and is was city park river "
         "who what where did someone something ran house red blue big small today").split()


class FakeClassifier:
    """Support = share of hypothesis words in the premise; two windows per premise (halves)."""

    def __init__(self):
        self.calls: list[list[tuple[str, str]]] = []

    def score(self, pairs):
        self.calls.append(list(pairs))
        out = []
        for premise, hyp in pairs:
            half = len(premise) // 2
            spans = [(0, half), (half, len(premise))] if premise else [(0, 0)]
            words = set(hyp.lower().replace("?", "").split())
            probs = [len(words & set(premise[a:b].lower().split())) / max(1, len(words)) for a, b in spans]
            best = max(range(len(probs)), key=lambda k: (probs[k], -k))
            out.append(NLIScore(prob=probs[best], window_probs=probs, best_window=best, windows=spans))
        return out


def _qa(uid="q0", question="who won something?", answer="Laura Muir"):
    return QAPair(id=uid, sentence_index=0, predicate="won", question=question, answer=answer)


def _item(unit, evidence, comp=0):
    return VerifyItem(unit, unit.components()[comp], "Laura Muir won the race.", evidence)


def test_hypothesis_per_unit_kind():
    qa = _qa()
    assert hypothesis_for(_item(qa, [])) == "who won something? Laura Muir"
    assert hypothesis_for(_item(qa, []), "affirmative") == "Laura Muir won something."
    fact = HyperRelationalFact(id="f0", sentence_index=0, subject="Laura Muir", relation="won", object="the race",
                               qualifiers=[Qualifier(type="temporal", value="in 2019")])
    assert hypothesis_for(_item(fact, [], 0)) == "Laura Muir won the race"
    assert hypothesis_for(_item(fact, [], 1)) == "Laura Muir won the race (temporal: in 2019)"
    claim = Claim(id="c0", sentence_index=0, text="The cat sat on the mat.")
    assert hypothesis_for(_item(claim, [])) == "The cat sat on the mat."


async def test_one_batched_call_and_the_best_passage_is_cited():
    src = "The dog ran in the park. " * 3 + "Laura Muir won the race in the city."
    # two passages of one source, as retrieval hands them over (offsets into the source)
    p0, p1 = src[:50], src[50:]
    ev = [Evidence(source_id="news", passage_index=0, start=0, end=50, text=p0),
          Evidence(source_id="news", passage_index=1, start=50, end=len(src), text=p1)]
    fake = FakeClassifier()
    v = NLIVerifier(classifier=fake)
    items = [_item(_qa(), ev), _item(Claim(id="c", sentence_index=0, text="the dog ran"), ev)]
    verdicts = await v.verify_items(items)
    assert len(fake.calls) == 1 and len(fake.calls[0]) == 4  # 2 items x 2 passages, one call
    qa_v, claim_v = verdicts
    assert qa_v.verifier == "nli" and qa_v.evidence[0].passage_index == 1
    cited = qa_v.evidence[0]
    assert src[cited.start:cited.end] == cited.text and "won the race" in cited.text
    assert claim_v.evidence[0].passage_index == 0
    assert qa_v.features["nli_windows"] == 2 and {"nli_window_0", "nli_window_1"} <= set(qa_v.features)
    assert qa_v.probability == max(qa_v.features["nli_window_0"], qa_v.features["nli_window_1"])
    assert qa_v.label == ("supported" if qa_v.probability >= 0.5 else "unsupported")


def test_needs_a_model_dir():
    with pytest.raises(ConfigurationError, match="nli/<dir>"):
        NLIVerifier()


def test_missing_torch_names_the_extra(monkeypatch):
    import builtins

    real = builtins.__import__

    def fake_import(name, *a, **kw):
        if name == "torch":
            raise ImportError("no torch")
        return real(name, *a, **kw)

    monkeypatch.setattr(builtins, "__import__", fake_import)
    with pytest.raises(MissingExtraError, match=r"pip install 'factgrain\[nli\]'"):
        NLIVerifier("/nonexistent")


# --------------------------------------------------------------------------- real tiny model


@pytest.fixture(scope="module")
def tiny_bert(tmp_path_factory):
    torch = pytest.importorskip("torch")
    transformers = pytest.importorskip("transformers")
    import string

    path = tmp_path_factory.mktemp("tiny-nli")
    chars = string.ascii_lowercase + string.digits
    vocab = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"] + WORDS + list(chars) + ["##" + c for c in chars] + list(".,?!'")
    (path / "vocab.txt").write_text("\n".join(vocab) + "\n", encoding="utf-8")
    tok = transformers.BertTokenizerFast.from_pretrained(str(path), local_files_only=True)
    labels = {0: "contradiction", 1: "neutral", 2: "entailment"}
    config = transformers.BertConfig(vocab_size=len(vocab), hidden_size=32, num_hidden_layers=2, num_attention_heads=2,
                                     intermediate_size=64, max_position_embeddings=64, num_labels=3, id2label=labels,
                                     label2id={v: k for k, v in labels.items()}, initializer_range=0.5)
    torch.manual_seed(0)
    transformers.BertForSequenceClassification(config).save_pretrained(str(path))
    tok.save_pretrained(str(path))
    return path


async def test_tiny_model_windows_and_batching(tiny_bert):
    from factgrain.agent.verifiers.nli_model import NLIClassifier

    v = NLIVerifier(tiny_bert, batch_size=4, stride=8)
    assert v.classifier.entailment_label == "entailment"
    long_ref = " ".join(["the dog ran in the park and the cat sat on the mat"] * 12)  # > 64 tokens
    items = [_item(_qa(f"q{i}", answer=a), [Evidence(source_id="0", text=long_ref)])
             for i, a in enumerate(["Laura Muir", "the cat", "a red house"])]
    verdicts = await v.verify_items(items)
    direct = NLIClassifier(tiny_bert, stride=8).score([(long_ref, hypothesis_for(i)) for i in items])
    for verdict, score in zip(verdicts, direct):
        assert verdict.probability == pytest.approx(score.prob, abs=1e-5)
        assert verdict.features["nli_windows"] == len(score.windows) > 1
        ws, we = score.windows[score.best_window]
        assert (verdict.evidence[0].start, verdict.evidence[0].end) == (ws, we)
        assert verdict.evidence[0].text == long_ref[ws:we]


TEXT = "Laura Muir won the race in the park."
REF = "The dog ran in the park. Laura Muir won the race."
QAS = {TEXT: [{"predicate": "won", "predicate_type": "verbal", "question": "who won something?", "answer": "Laura Muir"},
              {"predicate": "won", "predicate_type": "verbal", "question": "where did someone win?", "answer": "in the park"}]}


def test_model_nli_dir_verifies_while_the_llm_decomposes(tiny_bert):
    import factgrain

    backend = qa_backend(QAS)
    report = factgrain.check(TEXT, REF, model=f"nli/{tiny_bert}", decomposer_model=backend, span_mode="free")
    assert report.verifier == f"nli:{tiny_bert.name}"
    assert len(report.verdicts) == 2 and all(v.verifier == "nli" and v.probability is not None for v in report.verdicts)
    assert all(v.evidence and REF[v.evidence[0].start:v.evidence[0].end] == v.evidence[0].text for v in report.verdicts)
    assert all(r.kind == "structured" for r in backend.requests)  # the LLM only decomposed


class SilentBackend(ScriptedBackend):
    """A provider for the CLI test: the 'none' method never calls it."""

    def __init__(self, model: str = "silent", **kw):
        super().__init__(model, handler=lambda req: pytest.fail("no LLM call expected"), **kw)


def test_cli_model_nli(tiny_bert, tmp_path, capsys, monkeypatch):
    from factgrain.backends import registry
    from factgrain.cli import main

    monkeypatch.setitem(registry._PROVIDERS, "silent", f"{__name__}:SilentBackend")
    t, r = tmp_path / "t.txt", tmp_path / "r.txt"
    t.write_text(TEXT)
    r.write_text(REF)
    rc = main(["check", str(t), str(r), "--model", f"nli/{tiny_bert}", "--decomposer-model", "silent/x",
               "--method", "none", "--format", "json"])
    import json

    out = json.loads(capsys.readouterr().out)
    assert rc == 0 and out["verifier"].startswith("nli:")
    assert out["results"][0]["verdicts"][0]["verifier"] == "nli"
