import factgrain
from factgrain.render.table import table_text
from tests.scripted import QAS, REF, TEXT, qa_backend


def test_table_marks_each_failing_answer_once_per_sentence():
    report = factgrain.check(TEXT, REF, model=qa_backend(QAS, support={"Annalong": 0.1, "A man": 0.2}),
                             verifier="llm", span_mode="free")
    out = table_text(report, width=200)
    assert "«A man» fell «in the Annalong Valley» while walking." in out
    assert out.count("fell in the Annalong") == 0  # the sentence is shown once, with both marks
    assert "sentence 0 (s0.u0, s0.u1)" in out
    assert "He was airlifted" not in out.split("Where the text is not supported:")[1]
    assert "consistency 0.33 (1/3 supported)" in out


def test_every_view_says_which_tier_and_paths_the_check_took():
    from factgrain.render.html import render_html
    from factgrain.render.markdown import render_markdown

    report = factgrain.check("The vote was unanimous.", "The council approved the plan by 7 votes to 2.")
    assert report.tier["tier"] == "offline"
    line = "tier offline · spans parse · reflect light · fall-back none (no model configured)"
    assert line in table_text(report, width=200)
    assert f"- {line}" in render_markdown(report)
    assert "<th scope=\"row\">tier</th><td>tier offline · spans parse" in render_html(report)


def test_a_question_about_an_event_noun_names_the_noun():
    """'the death of a man' and 'a man who died' both give 'who died? -> a man'; the table and the
    HTML say which one is about the noun, so the two rows do not look like a duplicate."""
    from factgrain.render.html import render_html

    text = "An inquest into the death of a man who died of measles has been opened."
    report = factgrain.check(text, "A man died last week. An inquest will be opened.")
    labels = [u.question + " → " + u.answer for u in report.units if u.predicate == "death"]
    assert labels, "the offline reader gave the event noun 'death' no pair"
    out = table_text(report, width=200)
    assert "who died? → a man  (of 'death')" in out
    assert out.count("who died? → a man") == 2  # the verb's own pair is shown without the note
    assert "(of &lsquo;death&rsquo;)" in render_html(report)
