"""Tests for the local NLI scorer, on tiny random models built here (no downloads).

Model tests need the optional ``nli`` extra (torch + transformers) and are skipped
without it; the label-mapping and QA-rewrite tests run everywhere.
"""

from __future__ import annotations

import string
import sys
import warnings

import pytest

from factgrain.agent.verifiers.nli_model import (
    ConfigurationError,
    InputError,
    LabelMappingError,
    MissingExtraError,
    NLIScore,
    find_entailment_index,
    hypothesis_for_qa,
)

WORDS = (
    "the a an cat dog sat on mat laura muir says said something someone ran won race "
    "in at to of and is was were city park river house red blue big small quickly today"
).split()
SPECIALS = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"]
CHARS = string.ascii_lowercase + string.digits
PUNCT = list(".,?!'$")
MAX_POS = 64

NLI3_ENT_FIRST = {0: "entailment", 1: "neutral", 2: "contradiction"}
NLI3_ENT_LAST = {0: "contradiction", 1: "neutral", 2: "entailment"}


# ---------------------------------------------------------------------------
# Tiny model factories
# ---------------------------------------------------------------------------


@pytest.fixture(scope="module")
def hf():
    """torch + transformers, or skip."""
    torch = pytest.importorskip("torch")
    transformers = pytest.importorskip("transformers")
    return torch, transformers


def _bert_vocab() -> list[str]:
    return SPECIALS + WORDS + list(CHARS) + ["##" + c for c in CHARS] + PUNCT


@pytest.fixture(scope="module")
def make_bert(hf, tmp_path_factory):
    """Build (and cache) a tiny BERT classifier with the given labels in a tmp dir.

    Models with the same ``seed`` share their weights, so only the label names differ.
    """
    torch, transformers = hf
    cache: dict = {}

    def build(id2label: dict[int, str] | None = None, num_labels: int = 3, seed: int = 0):
        key = (tuple(sorted((id2label or {}).items())), num_labels, seed)
        if key in cache:
            return cache[key]
        path = tmp_path_factory.mktemp("bert")
        vocab = _bert_vocab()
        (path / "vocab.txt").write_text("\n".join(vocab) + "\n", encoding="utf-8")
        tokenizer = transformers.BertTokenizerFast.from_pretrained(str(path), local_files_only=True)
        assert tokenizer.convert_ids_to_tokens(tokenizer("the cat")["input_ids"]) == [
            "[CLS]", "the", "cat", "[SEP]",
        ]
        kwargs = {"num_labels": num_labels}
        if id2label is not None:
            kwargs["id2label"] = dict(id2label)
            kwargs["label2id"] = {v: k for k, v in id2label.items()}
        config = transformers.BertConfig(
            vocab_size=len(vocab),
            hidden_size=32,
            num_hidden_layers=2,
            num_attention_heads=2,
            intermediate_size=64,
            max_position_embeddings=MAX_POS,
            initializer_range=0.5,  # spread-out logits so probabilities differ visibly
            **kwargs,
        )
        torch.manual_seed(seed)
        model = transformers.BertForSequenceClassification(config)
        tokenizer.save_pretrained(str(path))
        model.save_pretrained(str(path))
        cache[key] = path
        return path

    return build


@pytest.fixture(scope="module")
def deberta_dir(hf, tmp_path_factory):
    """Tiny DeBERTa-v2 classifier with a sentencepiece-style (Unigram + Metaspace) tokenizer."""
    torch, transformers = hf
    from tokenizers import Tokenizer, decoders, models, normalizers, pre_tokenizers, processors

    pieces = [(s, 0.0) for s in SPECIALS]
    pieces += [("\u2581" + w, -2.0) for w in WORDS] + [("\u2581", -3.0)]
    pieces += [(c, -5.0) for c in list(CHARS) + PUNCT]
    backend = Tokenizer(models.Unigram(pieces, unk_id=1))
    backend.normalizer = normalizers.Lowercase()
    backend.pre_tokenizer = pre_tokenizers.Metaspace()
    backend.decoder = decoders.Metaspace()
    backend.post_processor = processors.TemplateProcessing(
        single="[CLS] $A [SEP]",
        pair="[CLS] $A [SEP] $B:1 [SEP]:1",
        special_tokens=[("[CLS]", 2), ("[SEP]", 3)],
    )
    tokenizer = transformers.PreTrainedTokenizerFast(
        tokenizer_object=backend,
        unk_token="[UNK]",
        pad_token="[PAD]",
        cls_token="[CLS]",
        sep_token="[SEP]",
        mask_token="[MASK]",
    )
    labels = {0: "CONTRADICTION", 1: "NEUTRAL", 2: "ENTAILMENT"}
    config = transformers.DebertaV2Config(
        vocab_size=len(pieces),
        hidden_size=32,
        num_hidden_layers=2,
        num_attention_heads=2,
        intermediate_size=64,
        max_position_embeddings=MAX_POS,
        relative_attention=True,
        position_buckets=16,
        pos_att_type=["p2c", "c2p"],
        type_vocab_size=0,
        pooler_hidden_size=32,
        initializer_range=0.5,
        num_labels=3,
        id2label=labels,
        label2id={v: k for k, v in labels.items()},
    )
    torch.manual_seed(1)
    model = transformers.DebertaV2ForSequenceClassification(config)
    path = tmp_path_factory.mktemp("deberta")
    tokenizer.save_pretrained(str(path))
    model.save_pretrained(str(path))
    return path


def _classifier(path, **kwargs):
    from factgrain.agent.verifiers.nli_model import NLIClassifier

    return NLIClassifier(path, **kwargs)


def _manual_prob(clf, premise: str, hypothesis: str) -> float:
    """Reference computation straight from the model, for one unwindowed input."""
    torch = clf._torch
    enc = clf.tokenizer(premise, hypothesis, return_tensors="pt")
    assert enc["input_ids"].shape[1] <= clf.max_length
    with torch.no_grad():
        logits = clf.model(**enc).logits.float()
    if logits.shape[-1] == 1:
        return float(torch.sigmoid(logits[0, 0]))
    return float(torch.softmax(logits, dim=-1)[0, clf.entailment_index])


def _long_premise(n_sentences: int = 30) -> str:
    subjects = ["the cat", "a dog", "laura muir", "someone"]
    verbs = ["sat on", "ran to", "won", "said something in"]
    objects = ["the mat", "a big city", "the race", "the park by the river", "a red house"]
    out = []
    for i in range(n_sentences):
        s = subjects[i % len(subjects)]
        v = verbs[(i * 3) % len(verbs)]
        o = objects[(i * 7) % len(objects)]
        out.append(f"{s.capitalize()} {v} {o} today.")
    return " ".join(out)


# ---------------------------------------------------------------------------
# Label mapping (no torch needed)
# ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("id2label", "expected"),
    [
        (NLI3_ENT_FIRST, 0),
        (NLI3_ENT_LAST, 2),
        ({0: "CONTRADICTION", 1: "NEUTRAL", 2: "ENTAILMENT"}, 2),
        ({0: "Entail", 1: "Neutral", 2: "Contradict"}, 0),
        ({0: "not_entailment", 1: "entailment"}, 1),  # must not match the substring
        ({0: "entailment", 1: "not entailment"}, 0),
        ({0: "Supported", 1: "Unsupported"}, 0),
        ({0: "refuted", 1: "SUPPORTS", 2: "not enough info"}, 1),
        ({0: "inconsistent", 1: "consistent"}, 1),
        ({0: "no", 1: "yes"}, 1),
        ({0: "LABEL_0", 1: "LABEL_1"}, 1),
        ({0: "hallucinated", 1: "ok"}, 1),  # two-way: the non-negative class
        ({0: "score"}, 0),  # single output, read through a sigmoid
    ],
)
def test_find_entailment_index(id2label, expected):
    assert find_entailment_index(id2label) == expected


def test_find_entailment_index_override():
    assert find_entailment_index(NLI3_ENT_FIRST, override=1) == 1
    assert find_entailment_index(NLI3_ENT_FIRST, override="NEUTRAL") == 1
    assert find_entailment_index({0: "LABEL_0", 1: "LABEL_1", 2: "LABEL_2"}, override="label_2") == 2
    with pytest.raises(LabelMappingError, match="not a class"):
        find_entailment_index(NLI3_ENT_FIRST, override=5)
    with pytest.raises(LabelMappingError, match="'entailment'"):
        find_entailment_index(NLI3_ENT_FIRST, override="supported")


@pytest.mark.parametrize(
    "id2label",
    [
        {0: "LABEL_0", 1: "LABEL_1", 2: "LABEL_2"},
        {0: "foo", 1: "bar"},
        {0: "entailment", 1: "Entailment", 2: "neutral"},  # ambiguous
    ],
)
def test_find_entailment_index_unidentifiable(id2label):
    with pytest.raises(LabelMappingError) as info:
        find_entailment_index(id2label)
    message = str(info.value)
    for name in id2label.values():
        assert repr(name) in message
    assert "entailment_label=" in message
    assert isinstance(info.value, (ValueError, ConfigurationError))


# ---------------------------------------------------------------------------
# Loading, label use
# ---------------------------------------------------------------------------


def test_missing_extra_raises(monkeypatch, tmp_path):
    from factgrain.agent.verifiers.nli_model import NLIClassifier

    monkeypatch.setitem(sys.modules, "torch", None)
    with pytest.raises(MissingExtraError, match=r"factgrain\[nli\]"):
        NLIClassifier(tmp_path)


def test_missing_model_dir(hf, tmp_path):
    with pytest.raises(ConfigurationError, match="not found"):
        _classifier(tmp_path / "nope")


def test_load_and_score_short_pair(make_bert):
    clf = _classifier(make_bert(NLI3_ENT_FIRST))
    assert clf.max_length == MAX_POS
    assert clf.entailment_index == 0 and clf.entailment_label == "entailment"
    assert str(clf.device) == "cpu"
    premise, hyp = "The cat sat on the mat.", "A cat sat."
    (res,) = clf.score([(premise, hyp)])
    assert isinstance(res, NLIScore)
    assert res.windows == [(0, len(premise))]
    assert res.best_window == 0
    assert res.window_probs == [res.prob]
    assert 0.0 <= res.prob <= 1.0
    assert res.prob == pytest.approx(_manual_prob(clf, premise, hyp), abs=1e-5)
    assert clf.score_one(premise, hyp).prob == pytest.approx(res.prob, abs=1e-6)
    assert clf.score([]) == []


def test_entailment_index_changes_probability(make_bert):
    """Same weights, entailment named at index 0 vs 2: different classes are read."""
    first = _classifier(make_bert(NLI3_ENT_FIRST))
    last = _classifier(make_bert(NLI3_ENT_LAST))
    assert (first.entailment_index, last.entailment_index) == (0, 2)
    pairs = [("Laura Muir won the race.", "Laura Muir won."), ("A dog ran.", "The cat sat.")]
    p_first = [r.prob for r in first.score(pairs)]
    p_last = [r.prob for r in last.score(pairs)]
    for (premise, hyp), a, b in zip(pairs, p_first, p_last):
        assert a == pytest.approx(_manual_prob(first, premise, hyp), abs=1e-5)
        assert b == pytest.approx(_manual_prob(last, premise, hyp), abs=1e-5)
        assert abs(a - b) > 1e-4


def test_two_way_model_uses_positive_class(make_bert):
    default_labels = _classifier(make_bert(None, num_labels=2))
    assert default_labels.entailment_index == 1
    named = _classifier(make_bert({0: "entailment", 1: "not_entailment"}, num_labels=2))
    assert named.entailment_index == 0
    premise, hyp = "The cat sat on the mat.", "A cat sat."
    a = default_labels.score_one(premise, hyp).prob
    b = named.score_one(premise, hyp).prob
    # Same weights: the two readings are complementary softmax probabilities.
    assert a + b == pytest.approx(1.0, abs=1e-5)
    assert a == pytest.approx(_manual_prob(default_labels, premise, hyp), abs=1e-5)


def test_override_and_unidentifiable_model(make_bert):
    generic = make_bert({0: "LABEL_0", 1: "LABEL_1", 2: "LABEL_2"})
    with pytest.raises(LabelMappingError) as info:
        _classifier(generic)
    assert "'LABEL_0'" in str(info.value) and "'LABEL_2'" in str(info.value)

    by_index = _classifier(generic, entailment_label=2)
    by_name = _classifier(generic, entailment_label="label_2")
    assert by_index.entailment_index == by_name.entailment_index == 2
    neutral = _classifier(make_bert(NLI3_ENT_FIRST), entailment_label="neutral")
    assert neutral.entailment_index == 1
    premise, hyp = "A dog ran to the park.", "A dog ran."
    assert neutral.score_one(premise, hyp).prob == pytest.approx(
        _manual_prob(neutral, premise, hyp), abs=1e-5
    )


# ---------------------------------------------------------------------------
# Windowing
# ---------------------------------------------------------------------------


def _check_windows(clf, premise: str, hyp: str, res: NLIScore) -> None:
    windows = res.windows
    assert len(windows) == len(res.window_probs) >= 2
    assert windows[0][0] == 0
    assert windows[-1][1] == len(premise)
    for (s0, e0), (s1, e1) in zip(windows, windows[1:]):
        assert s0 < s1 < e0 < e1  # moving forward, and overlapping
    for (s, e), p in zip(windows, res.window_probs):
        assert 0 <= s < e <= len(premise)
        assert p == pytest.approx(_manual_prob(clf, premise[s:e], hyp), abs=1e-5)
    assert res.prob == max(res.window_probs)
    assert res.prob == res.window_probs[res.best_window]


def test_long_premise_is_windowed(make_bert):
    clf = _classifier(make_bert(NLI3_ENT_FIRST), stride=8)
    premise = _long_premise(30)
    hyp = "Laura Muir won the race."
    assert len(clf.tokenizer(premise)["input_ids"]) > 3 * MAX_POS
    res = clf.score_one(premise, hyp)
    assert len(res.windows) >= 4
    _check_windows(clf, premise, hyp, res)


def test_stride_controls_overlap(make_bert):
    path = make_bert(NLI3_ENT_FIRST)
    premise = _long_premise(30)
    hyp = "A cat sat."
    few = _classifier(path, stride=0).score_one(premise, hyp)
    many = _classifier(path, stride=24).score_one(premise, hyp)
    assert len(many.windows) > len(few.windows)
    # Without overlap the windows tile the premise edge to edge.
    for (_, e0), (s1, _) in zip(few.windows, few.windows[1:]):
        assert s1 == e0
    _check_windows(_classifier(path, stride=24), premise, hyp, many)


def test_max_length_override_shrinks_windows(make_bert):
    path = make_bert(NLI3_ENT_FIRST)
    premise = _long_premise(12)
    full = _classifier(path, stride=4).score_one(premise, "A dog ran.")
    small_clf = _classifier(path, stride=4, max_length=32)
    assert small_clf.max_length == 32
    small = small_clf.score_one(premise, "A dog ran.")
    assert len(small.windows) > len(full.windows)
    _check_windows(small_clf, premise, "A dog ran.", small)


def test_long_hypothesis_is_truncated_with_warning(make_bert):
    clf = _classifier(make_bert(NLI3_ENT_FIRST))
    hyp = _long_premise(10)
    with pytest.warns(UserWarning, match="truncated"):
        res = clf.score_one("The cat sat on the mat.", hyp)
    assert 0.0 <= res.prob <= 1.0


def test_deberta_sentencepiece_model(deberta_dir):
    clf = _classifier(deberta_dir, stride=8)
    assert clf.entailment_index == 2 and clf.entailment_label == "ENTAILMENT"
    short = clf.score_one("The cat sat.", "A cat sat.")
    assert short.windows == [(0, len("The cat sat."))]
    premise = _long_premise(20)
    res = clf.score_one(premise, "Someone won the race.")
    windows = res.windows
    assert len(windows) >= 3
    assert windows[0][0] == 0 and windows[-1][1] == len(premise)
    for (s0, e0), (s1, e1) in zip(windows, windows[1:]):
        assert s0 < s1 < e0 < e1
    assert res.prob == max(res.window_probs) == res.window_probs[res.best_window]


# ---------------------------------------------------------------------------
# Batching and determinism
# ---------------------------------------------------------------------------


def test_batching_matches_one_by_one(make_bert):
    path = make_bert(NLI3_ENT_FIRST)
    pairs = [
        ("The cat sat on the mat.", "A cat sat."),
        (_long_premise(25), "Laura Muir won the race."),
        ("A dog ran to the park.", "The dog was in the city."),
        (_long_premise(9), "Someone said something."),
        ("", "A cat sat."),
        ("Laura Muir won.", "Laura Muir won the race in the city today."),
    ]
    single = _classifier(path, batch_size=1, stride=8)
    one_by_one = [single.score_one(p, h) for p, h in pairs]
    for bs in (3, 8, 32):
        batched = _classifier(path, batch_size=bs, stride=8).score(pairs)
        assert len(batched) == len(pairs)
        for a, b in zip(one_by_one, batched):
            assert a.windows == b.windows
            assert a.best_window == b.best_window
            assert a.window_probs == pytest.approx(b.window_probs, abs=1e-5)
            assert a.prob == pytest.approx(b.prob, abs=1e-5)
    assert single.score(pairs) == single.score(pairs)  # deterministic


def test_bad_pairs_rejected(make_bert):
    clf = _classifier(make_bert(NLI3_ENT_FIRST))
    with pytest.raises(InputError):
        clf.score([("only one",)])
    with pytest.raises(InputError):
        clf.score([("premise", None)])


# ---------------------------------------------------------------------------
# QA -> hypothesis
# ---------------------------------------------------------------------------


def test_qa_style_concatenates():
    assert hypothesis_for_qa("Who says something?", "Laura Muir") == "Who says something? Laura Muir"
    assert hypothesis_for_qa(" Who won? ", " Ann ", style="qa") == "Who won? Ann"


@pytest.mark.parametrize(
    ("question", "answer", "expected"),
    [
        ("who says something?", "Laura Muir", "Laura Muir says something."),
        ("What happened?", "a crash", "A crash happened."),
        ("Who has said something?", "Bob", "Bob has said something."),
        ("Who did something?", "Ann", "Ann did something."),
        ("Who didn't come?", "Ann", "Ann didn't come."),
        ("Who did someone see?", "Laura", "Someone saw Laura."),
        ("What did someone put on the table?", "a cup", "Someone put a cup on the table."),
        ("What did someone give something to?", "a charity", "Someone gave something to a charity."),
        ("What did someone give someone?", "a gift", "Someone gave someone a gift."),
        ("What does someone watch?", "TV", "Someone watches TV."),
        ("What did someone try?", "sushi", "Someone tried sushi."),
        ("What did someone stop?", "the car", "Someone stopped the car."),
        ("What is someone doing?", "homework", "Someone is doing homework."),
        ("What didn't someone say?", "hello", "Someone didn't say hello."),
        ("What company did someone buy?", "Acme", "Someone bought Acme."),
        ("Which team won?", "Celtic", "Celtic won."),
        ("Whose car did someone steal?", "John's", "Someone stole John's car."),
        ("When did someone leave?", "yesterday", "Someone left yesterday."),
        ("When was something built?", "1990", "Something was built in 1990."),
        ("When did Laura Muir win?", "on Monday", "Laura Muir won on Monday."),
        ("Where did someone go?", "Paris", "Someone went to Paris."),
        ("Where does someone live?", "Paris", "Someone lives in Paris."),
        ("Where is the book?", "on the shelf", "The book is on the shelf."),
        ("Why did someone leave?", "the rain", "Someone left because of the rain."),
        ("Why did someone leave?", "it was raining", "Someone left because it was raining."),
        ("Why did someone leave?", "to catch a train", "Someone left to catch a train."),
        ("How did someone win?", "easily", "Someone won easily."),
        ("How much did something cost?", "$5", "Something cost $5."),
        ("How many people did someone invite?", "five", "Someone invited five people."),
        ("How many people came?", "five", "Five people came."),
    ],
)
def test_affirmative_rewrites(question, answer, expected):
    assert hypothesis_for_qa(question, answer, style="affirmative") == expected


def test_affirmative_fallback_and_errors():
    # Not a WH question: falls back to the QA concatenation.
    assert hypothesis_for_qa("Is it red?", "yes", style="affirmative") == "Is it red? yes"
    with pytest.raises(InputError):
        hypothesis_for_qa("Who?", "Ann", style="passive")  # type: ignore[arg-type]


def test_module_imports_without_extra(monkeypatch):
    """Importing the module and rewriting QA pairs must not need torch."""
    import importlib

    monkeypatch.setitem(sys.modules, "torch", None)
    monkeypatch.setitem(sys.modules, "transformers", None)
    monkeypatch.delitem(sys.modules, "factgrain.agent.verifiers.nli_model", raising=False)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        module = importlib.import_module("factgrain.agent.verifiers.nli_model")
    assert module.hypothesis_for_qa("Who won?", "Ann", style="affirmative") == "Ann won."
