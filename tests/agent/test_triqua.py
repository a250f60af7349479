import json
import re

import pytest

from factgrain.agent import aggregate as agg
from factgrain.agent.decompose import triqua_parse as rules
from factgrain.agent.decompose.triqua import TriQuaDecomposer, TriQuaDecomposition
from factgrain.agent.evaluator import Evaluator
from factgrain.agent.segment import segment
from factgrain.backends.scripted import ScriptedBackend
from factgrain.prompts import TRIQUA_MODES
from factgrain.render.markdown import render_markdown
from factgrain.render.table import table_text
from factgrain.schemas import HyperRelationalFact, Qualifier, Report, UnitResult, UnitVerdict

FRANCE = "As of 2026, France's population was 64.5 million, excluding its overseas departments."
FRANCE_FACT = {"subject": "France", "relation": "population", "object": "64.5 million", "qualifiers": [
    {"type": "temporal", "value": "As of 2026"},
    {"type": "constraint", "value": "excluding its overseas departments"},
]}
REFERENCE = "In 2025 France had 64.5 million inhabitants, not counting its overseas departments."


def text_block(req) -> str:
    m = re.search(r"<text>\n(.*?)\n</text>", req.last_user, re.DOTALL)
    return m.group(1) if m else ""


def context_block(req) -> str | None:
    m = re.search(r"<context>\n(.*?)\n</context>", req.last_user, re.DOTALL)
    return m.group(1) if m else None


def spans_are_exact(unit: HyperRelationalFact, text: str) -> None:
    for span in unit.spans():
        assert text[span.start:span.end] == span.text


# -- decomposition ------------------------------------------------------------------------------

async def test_france_is_one_base_triple_with_temporal_and_constraint_qualifiers():
    backend = ScriptedBackend(handler=lambda req: {"facts": [FRANCE_FACT]})
    units = await TriQuaDecomposer(backend, span_mode="free").decompose(segment(FRANCE))
    assert len(units) == 1
    f = units[0]
    assert (f.subject, f.relation, f.object) == ("France", "population", "64.5 million")
    assert [(q.type.value, q.category, q.value) for q in f.qualifiers] == [
        ("temporal", "context", "As of 2026"), ("constraint", "annotation", "excluding its overseas departments")]
    assert f.subject_span.start == 12 and f.object_span.text == "64.5 million"
    assert all(q.span is not None for q in f.qualifiers) and f.relation_span.text == "population"
    spans_are_exact(f, FRANCE)
    assert [c.name for c in f.components()] == ["base", "qualifier:0", "qualifier:1"]
    # the whole text is one passage: the plain mode, no question, no context
    (req,) = backend.requests
    assert req.messages[0]["content"] == TRIQUA_MODES[(False, False)].system
    assert context_block(req) is None and text_block(req) == FRANCE


async def test_the_four_prompt_modes():
    long_text = " ".join(f"Sentence number {i} says that the river Ost{i} floods in spring." for i in range(40))
    for question in (None, "What about rivers?"):
        for chunk_size in (10_000, 600):
            backend = ScriptedBackend(handler=lambda req: {"facts": []})
            doc = segment(long_text, question=question, chunk_size=chunk_size)
            await TriQuaDecomposer(backend, span_mode="free").decompose(doc)
            chunked = len(doc.chunks) > 1
            assert chunked == (chunk_size == 600)
            systems = {r.messages[0]["content"] for r in backend.requests}
            # an empty reply is re-asked, so count passages, not requests
            firsts = {text_block(r) for r in backend.requests if context_block(r) is None}
            assert len(firsts) == 1  # only the first chunk goes without context
            expected = {TRIQUA_MODES[(question is not None, False)].system}
            if chunked:
                expected.add(TRIQUA_MODES[(question is not None, True)].system)
            assert systems == expected
            assert all(("<question>" in r.last_user) == (question is not None) for r in backend.requests)


async def test_invented_qualifier_value_is_reasked_with_a_fixing_message():
    bad = {"facts": [{**FRANCE_FACT, "qualifiers": [{"type": "temporal", "value": "in 2025"}]}]}
    backend = ScriptedBackend(responses=[bad, {"facts": [FRANCE_FACT]}])
    units = await TriQuaDecomposer(backend, span_mode="free").decompose(segment(FRANCE))
    assert len(backend.requests) == 2 and len(units[0].qualifiers) == 2
    with pytest.raises(Exception) as err:
        TriQuaDecomposition.model_validate(bad, context={"text": FRANCE, "background": ""})
    assert "copy it word for word" in str(err.value)


@pytest.mark.parametrize("field,value,msg", [
    ("object", "65 million", "copy the object word for word"),
    ("relation", "inhabits", "uses none of the text's words"),
    ("subject", "Germany", "neither in the text nor in its context"),
])
def test_validators_name_the_component_to_fix(field, value, msg):
    with pytest.raises(Exception) as err:
        TriQuaDecomposition.model_validate({"facts": [{**FRANCE_FACT, field: value}]},
                                           context={"text": FRANCE, "background": ""})
    assert msg in str(err.value)


def test_subject_may_come_from_the_context():
    draft = {"subject": "the Ost bridge", "relation": "opened", "object": "", "qualifiers": [{"type": "temporal", "value": "in 1998"}]}
    obj = TriQuaDecomposition.model_validate({"facts": [draft]}, context={"text": "It opened in 1998.", "background": "The Ost bridge is long."})
    assert obj.facts[0].subject == "the Ost bridge"


async def test_failed_chunk_is_a_warning_not_fatal():
    backend = ScriptedBackend(handler=lambda req: "not json")
    dec = TriQuaDecomposer(backend, span_mode="free")
    assert await dec.decompose(segment(FRANCE)) == []
    assert "chunk 0: decomposition failed" in dec.warnings[0] and dec.failed_sentences == [0]


# -- the offline path: facts from the dependency parse -------------------------------------------

def _show(sentence):
    out = []
    for f in rules.facts(sentence):
        g = (lambda r: sentence[r[0]:r[1]] if r else None)
        out.append((g(f.subject), g(f.relation), g(f.object), [(q.type.value, g(q.range)) for q in f.qualifiers]))
    return out


@pytest.mark.parametrize("sentence,expected", [
    (FRANCE, [("France", "population was", "64.5 million",
               [("temporal", "As of 2026"), ("constraint", "excluding its overseas departments")])]),
    ("Paris, the capital of France, has 2.1 million residents.",
     [("Paris", "has", "2.1 million residents", []), ("Paris", None, "the capital of France", [])]),
    ("Marie Curie, who was born in Warsaw, won the Nobel Prize in 1903 because of her research on radioactivity.",
     [("Marie Curie", "was born in", "Warsaw", []),
      ("Marie Curie", "won", "the Nobel Prize", [("temporal", "in 1903"), ("causal", "because of her research on radioactivity")])]),
    ("If it rains, the match will be played on Sunday.",
     [("the match", "will be played", None, [("condition", "If it rains"), ("temporal", "on Sunday")])]),
    # 'in Physics' is a field, not a place; Stockholm is a place
    ("She won the Nobel Prize in Physics in 1903 in Stockholm.",
     [("She", "won", "the Nobel Prize in Physics", [("temporal", "in 1903"), ("spatial", "in Stockholm")])]),
    ("According to the BBC, the bridge collapsed after the storm due to heavy rain.",
     [("the bridge", "collapsed", None, [("source", "According to the BBC"), ("sequential", "after the storm"),
                                         ("causal", "due to heavy rain")])]),
    ("The vote was unanimous.", [("The vote", "was", "unanimous", [])]),
    # a participle or who-clause after the complement is a fact of its own, not part of the base's object
    ("Ines Varga is a Hungarian chemist best known for her work on batteries.",
     [("Ines Varga", "is", "a Hungarian chemist", []), ("Ines Varga", "known for", "her work", [("attribute", "on batteries")])]),
    ("Tom is a former player who now coaches the team.",
     [("Tom", "is", "a former player", []), ("Tom", "coaches", "the team", [])]),
    # an infinitive stays: 'the first person' alone would lose what makes it first
    ("He was the first person to climb the mountain.",
     [("He", "was", "the first person to climb the mountain", []), ("He", "climb", "the mountain", [])]),
    ("Hello there", []),
])
def test_parse_gives_triples_and_typed_qualifiers(sentence, expected):
    assert _show(sentence) == expected


async def test_parse_mode_france_needs_no_model_call():
    backend = ScriptedBackend(handler=lambda req: pytest.fail("the model should not be asked"))
    text = "Paris is big. " + FRANCE + " It was the largest country of the union."
    dec = TriQuaDecomposer(backend, span_mode="parse")
    units = await dec.decompose(segment(text))
    f = units[1]
    assert f.id == "s1.u0" and (f.subject, f.relation, f.object) == ("France", "population was", "64.5 million")
    assert [q.type.value for q in f.qualifiers] == ["temporal", "constraint"]
    spans_are_exact(f, text)
    it = units[2]  # the pronoun takes the previous sentence's subject, span and all
    assert (it.subject, it.subject_span, it.object) == ("France", f.subject_span, "the largest country of the union")
    assert backend.requests == [] and dec.prompt_versions() == {}


async def test_parse_mode_types_every_qualifier_itself():
    sentence = "The council gave the medal to the nurse for her courage."
    backend = ScriptedBackend(handler=lambda req: pytest.fail("the model should not be asked"))
    units = await TriQuaDecomposer(backend, span_mode="parse").decompose(segment(sentence))
    assert [(q.type.value, q.value) for q in units[0].qualifiers] == [("attribute", "to the nurse"),
                                                                     ("attribute", "for her courage")]
    spans_are_exact(units[0], sentence)


async def test_parse_mode_warns_on_a_script_it_cannot_read():
    text = "Paris is the capital of France.\n\n巴黎是法国的首都。"
    dec = TriQuaDecomposer(ScriptedBackend(handler=lambda req: pytest.fail("no call")), span_mode="parse")
    units = await dec.decompose(segment(text))
    assert {u.sentence_index for u in units} == {0}
    assert len(dec.warnings) == 1 and "sentence 1" in dec.warnings[0] and "CJK" in dec.warnings[0]


# -- a long document, in chunks -------------------------------------------------------------------

PAIR = re.compile(r"In (\d{4}), the town of (Brook\d+) had (\d+ residents), excluding its rural districts\. "
                  r"It was founded by (Mara Vell\d+)\.")


def long_document() -> str:
    paras = []
    for p in range(30):
        pairs = []
        for j in range(6):
            i = p * 6 + j
            pairs.append(f"In {1800 + i}, the town of Brook{i} had {1000 + 37 * i} residents, excluding its rural "
                         f"districts. It was founded by Mara Vell{i}.")
        paras.append(" ".join(pairs))
    return "\n\n".join(paras)


def town_handler(req):
    if req.kind == "structured":
        facts = []
        for year, town, residents, founder in PAIR.findall(text_block(req)):
            facts.append({"subject": f"the town of {town}", "relation": "had", "object": residents, "qualifiers": [
                {"type": "temporal", "value": f"In {year}"}, {"type": "constraint", "value": "excluding its rural districts"}]})
            facts.append({"subject": f"the town of {town}", "relation": "was founded by", "object": founder, "qualifiers": []})
        return {"facts": facts}
    statement = re.search(r"<statement>\n(.*?)\n</statement>", req.last_user, re.DOTALL).group(1)
    return 0.2 if "In 1805" in statement or re.search(r"Mara Vell7\b", statement) else 0.9


async def test_three_thousand_words_checked_in_chunks_every_unit_traceable():
    text = long_document()
    assert len(text.split()) >= 3000
    backend = ScriptedBackend(handler=town_handler)
    report = await Evaluator(backend, method="triqua", verifier="llm").acheck(text, "Brook towns reference.")
    doc = report.document
    assert len(doc.chunks) >= 8
    structured = [r for r in backend.requests if r.kind == "structured"]
    assert len(structured) == len(doc.chunks)  # one call per chunk
    for req in structured:  # each chunk after the first carries the one before as context
        passage = text_block(req)
        k = next(c.index for c in doc.chunks if passage in c.text)
        assert context_block(req) == (doc.chunks[k - 1].text if k else None)
    assert len(report.results) == 2 * 180 and not report.warnings
    for r in report.results:
        u = r.unit
        sent = doc.sentences[u.sentence_index]
        chunk = doc.chunks[u.chunk_index]
        assert u.chunk_index == sent.chunk_index and u.sentence_index in chunk.sentence_indices
        assert sent.start <= u.object_span.start and u.object_span.end <= sent.end
        assert all(sent.start <= q.span.start and q.span.end <= sent.end for q in u.qualifiers)
        spans_are_exact(u, text)
    # the pronoun subject was resolved from the sentence before, and its span points there
    founded = next(r.unit for r in report.results if r.unit.object == "Mara Vell3")
    assert founded.subject == "the town of Brook3" and founded.subject_span.start < doc.sentences[founded.sentence_index].start
    statuses = {r.unit.object: (r.status, r.failing_components) for r in report.results}
    assert statuses["1185 residents"] == ("partial", ["qualifier:0"])  # Brook5, year 1805
    assert statuses["Mara Vell7"] == ("unsupported", ["base"])
    # 360 facts: 178 + 179 full, one 0.75, one 0
    assert report.scores.triqua == pytest.approx((358 + 0.75) / 360)


# -- TriQuaScore ----------------------------------------------------------------------------------

def verdict(comp, p):
    if p is None:
        return UnitVerdict.unscored_because("f", comp, "timeout")
    return UnitVerdict(unit_id="f", component=comp, probability=p, label="supported" if p >= 0.5 else "unsupported")


def fact(n_quals):
    return HyperRelationalFact(id="f", sentence_index=0, subject="France", relation="population", object="64.5 million",
                               qualifiers=[Qualifier(type="temporal", value=f"q{i}") for i in range(n_quals)])


def result(n_quals, *probs):
    u = fact(n_quals)
    names = ["base"] + [f"qualifier:{i}" for i in range(n_quals)]
    vs = [verdict(n, p) for n, p in zip(names, probs)]
    status, failing = agg.unit_status(u, vs)
    return UnitResult(unit=u, verdicts=vs, status=status, failing_components=failing)


@pytest.mark.parametrize("n,probs,credit,status,failing", [
    (0, (0.9,), 1.0, "supported", []),                           # simple fact, supported
    (0, (0.1,), 0.0, "unsupported", ["base"]),                   # simple fact, not
    (2, (0.9, 0.9, 0.9), 1.0, "supported", []),
    (2, (0.9, 0.9, 0.1), 0.75, "partial", ["qualifier:1"]),      # 0.5 + 0.5 * 1/2
    (3, (0.9, 0.1, 0.1, 0.9), 0.5 + 0.5 / 3, "partial", ["qualifier:0", "qualifier:1"]),
    (2, (0.1, 0.9, 0.9), 0.0, "unsupported", ["base"]),          # qualifiers cannot rescue a false base
    (2, (0.1, 0.1, 0.9), 0.0, "unsupported", ["base"]),          # ... and are not blamed for it
    (3, (0.9, None, 0.1, 0.9), 0.75, "partial", ["qualifier:1"]),  # unscored qualifier left out: 0.5 + 0.5 * 1/2
    (2, (0.9, None, None), 1.0, "supported", []),                # every qualifier unscored: the base decides
    (2, (None, 0.1, 0.9), None, "unscored", []),                 # no base verdict: the fact is unscored
])
def test_fact_credit_hand_computed(n, probs, credit, status, failing):
    r = result(n, *probs)
    got = agg.fact_credit(r.unit, r.verdicts)
    assert got == (None if credit is None else pytest.approx(credit))
    assert (r.status, r.failing_components) == (status, failing)


def test_triqua_score_is_the_mean_credit_over_scored_facts():
    results = [result(0, 0.9), result(0, 0.1), result(2, 0.9, 0.9, 0.1), result(2, 0.1, 0.9, 0.9),
               result(3, 0.9, None, 0.1, 0.9), result(2, None, 0.9, 0.9)]
    # credits 1, 0, 0.75, 0, 0.75; the last fact is left out
    assert agg.triqua_score(results) == pytest.approx(2.5 / 5)
    assert agg.triqua_score([result(2, None, 0.9, 0.9)]) is None and agg.triqua_score([]) is None
    s = agg.score(results)
    assert s.triqua == pytest.approx(0.5) and s.unscored_units == 1 and s.supported_units == 1


# -- the report -----------------------------------------------------------------------------------

def france_backend(p_base=0.9, p_time=0.9, p_scope=0.9):
    def handler(req):
        if req.kind == "structured":
            return {"facts": [FRANCE_FACT]}
        if "temporal: As of 2026" in req.last_user:
            return p_time
        if "constraint: excluding" in req.last_user:
            return p_scope
        return p_base

    return ScriptedBackend(handler=handler)


async def check_france(**probs) -> Report:
    return await Evaluator(france_backend(**probs), method="triqua", verifier="llm").acheck(FRANCE, REFERENCE)


async def test_json_report_names_the_wrong_qualifier_and_gives_partial_credit():
    report = await check_france(p_time=0.1)
    data = json.loads(report.to_json())
    (res,) = data["results"]
    assert res["status"] == "partial" and res["failing_components"] == ["qualifier:0"]
    (failure,) = res["failures"]
    assert failure["part"] == "qualifier" and failure["qualifier_type"] == "temporal"
    assert failure["qualifier_class"] == "context" and failure["text"] == "As of 2026"
    assert (failure["span"]["start"], failure["span"]["end"]) == (0, 10)
    best = (await check_france()).scores.triqua
    worst = (await check_france(p_base=0.1, p_time=0.1, p_scope=0.1)).scores.triqua
    assert (best, worst) == (1.0, 0.0)
    assert worst < data["scores"]["triqua"] < best and data["scores"]["triqua"] == pytest.approx(0.75)
    # the JSON reads back into a Report
    assert Report.model_validate_json(report.to_json()).results[0].failures[0].text == "As of 2026"


async def test_table_and_markdown_group_components_and_mark_the_failing_one():
    report = await check_france(p_scope=0.1)
    table = table_text(report, width=160)
    base_line = next(line for line in table.splitlines() if "base (France; population; 64.5 million)" in line)
    scope_line = next(line for line in table.splitlines() if "constraint (annotation):" in line)
    assert "├" in base_line and "✓" in base_line
    assert "└" in scope_line and "✗ failing" in scope_line
    md = render_markdown(report)
    assert "| partial | constraint (annotation) qualifier 'excluding its overseas departments' @50-84" in md
    assert "| | ↳ **constraint (annotation): excluding its overseas departments** | 0.10 | ✗ failing | |" in md
    # only the failing component is highlighted in the sentence
    assert "64.5 million, **excluding its overseas departments**." in md and "**France" not in md


async def test_a_false_base_marks_its_qualifiers_as_moot():
    report = await check_france(p_base=0.1, p_time=0.1)
    md = render_markdown(report)
    assert "**base (France; population; 64.5 million)**" in md and "· base fails" in md
    assert report.results[0].failing_components == ["base"]


# -- CLI ------------------------------------------------------------------------------------------

def test_cli_check_method_triqua(tmp_path, monkeypatch, capsys):
    from factgrain.backends import registry
    from factgrain.cli import main

    monkeypatch.setattr(registry, "get_backend", lambda spec=None, **kw: france_backend(p_time=0.1))
    (tmp_path / "t.txt").write_text(FRANCE)
    (tmp_path / "r.txt").write_text(REFERENCE)
    code = main(["check", str(tmp_path / "t.txt"), str(tmp_path / "r.txt"), "--method", "triqua",
                 "--model", "scripted/x", "--verifier", "llm", "--format", "json"])
    assert code == 0
    data = json.loads(capsys.readouterr().out)
    assert data["method"] == "triqua" and data["results"][0]["unit"]["kind"] == "fact"
    assert data["results"][0]["failures"][0]["qualifier_type"] == "temporal"
    assert data["scores"]["triqua"] == pytest.approx(0.75)


# -- with the bundled model ----------------------------------------------------------------------

@pytest.mark.embedded
async def test_embedded_model_decomposes_france(embedded_backend):
    dec = TriQuaDecomposer(embedded_backend)  # auto -> the offline parse for the embedded model
    assert dec.span_mode == "parse"
    units = await dec.decompose(segment(FRANCE + " The ministry gave the figure for the census."))
    f = units[0]
    assert (f.subject, f.object) == ("France", "64.5 million")
    assert [q.type.value for q in f.qualifiers] == ["temporal", "constraint"]
    for u in units:
        spans_are_exact(u, FRANCE + " The ministry gave the figure for the census.")


@pytest.mark.embedded
def test_cli_method_triqua_with_the_bundled_model(tmp_path):
    import subprocess
    import sys

    (tmp_path / "t.txt").write_text(FRANCE)
    (tmp_path / "r.txt").write_text(REFERENCE)
    proc = subprocess.run([sys.executable, "-m", "factgrain", "check", str(tmp_path / "t.txt"), str(tmp_path / "r.txt"),
                           "--method", "triqua", "--format", "json"], capture_output=True, text=True, timeout=300,
                          env={**__import__("os").environ, "FACTGRAIN_EMBEDDED_THREADS": "1"})
    assert proc.returncode == 0, proc.stderr[-2000:]
    data = json.loads(proc.stdout)
    (res,) = data["results"]
    unit = res["unit"]
    assert (unit["subject"], unit["object"]) == ("France", "64.5 million")
    assert [q["type"] for q in unit["qualifiers"]] == ["temporal", "constraint"]
    assert data["scores"]["triqua"] is not None and res["status"] in ("supported", "partial", "unsupported")


def test_an_expletive_it_gives_the_clause_as_subject_and_no_repeated_object():
    text = "It is recommended to avoid alcohol."
    (fact,) = [f for f in rules.facts(text) if f.relation_text == "is recommended"]
    assert text[fact.subject[0]:fact.subject[1]] == "to avoid alcohol"
    assert fact.object is None


def test_a_fact_without_object_is_shown_without_an_empty_slot():
    from factgrain.schemas.units import HyperRelationalFact

    died = HyperRelationalFact(id="s0.u0", sentence_index=0, subject="Marie Curie", relation="died", object="")
    assert died.triple() == "(Marie Curie; died)"
    assert died.parts() == ["Marie Curie", "died"]
    won = HyperRelationalFact(id="s0.u1", sentence_index=0, subject="She", relation="won", object="the prize")
    assert won.triple() == "(She; won; the prize)"


async def test_offline_a_source_qualifier_is_checked_on_who_says_it_not_on_according_to():
    # 'According to police' must not be half found in 'According to investigators'
    text = "According to police, the bridge collapsed in August 2018 because of an earthquake."
    ref = ("The bridge collapsed on 14 August 2018. According to investigators, the collapse was caused by "
           "corrosion of the steel cables.")
    backend = ScriptedBackend(handler=lambda req: pytest.fail("the offline path should make no call"))
    report = await Evaluator(backend, method="triqua", verifier="lexical", span_mode="parse").acheck(text, ref)
    fact = next(r for r in report.results if r.unit.relation == "collapsed")
    by_value = {fact.unit.qualifiers[int(v.component.split(":")[1])].value: v
                for v in fact.verdicts if v.component.startswith("qualifier:")}
    assert by_value["According to police"].label == "unsupported", by_value
    assert by_value["because of an earthquake"].label == "unsupported", by_value
    assert "base" not in fact.failing_components


def test_a_negated_copula_keeps_its_negation_in_the_relation():
    (fact,) = rules.facts("Tom Reed is not the director of the museum.")
    assert fact.relation_text == "is not"


@pytest.mark.parametrize("text, expected", [
    ("The match was held in Leeds.", "supported"),
    ("The match was not held in Leeds.", "unsupported"),      # the negation after the auxiliary
    ("The match wasn't held in Leeds.", "unsupported"),
    ("Tom Reed is not the director of the museum.", "unsupported"),  # a negated copula
    ("Three men were arrested on Saturday.", "unsupported"),  # no object: the subject is the claim
    ("Three critics praised the opera.", "unsupported"),      # the subject is claimed as much as the object
    ("Two critics praised the opera.", "supported"),
])
def test_offline_facts_are_checked_on_their_verb_and_both_arguments(text, expected):
    import factgrain

    reference = ("The match was held in Leeds. Tom Reed is the director of the museum. Two men were arrested "
                 "on Saturday. Two critics praised the opera.")
    report = factgrain.check(text, reference, method="triqua", verifier="lexical", span_mode="parse")
    assert report.scores.label == expected, [(r.unit.statement(), r.status) for r in report.results]
