import factgrain
from factgrain import progress
from tests.scripted import QAS, REF, TEXT, qa_backend


def test_stages_report_every_sentence_and_every_verification():
    seen: list[tuple[str, int]] = []
    token = progress._reporter.set(lambda stage, total: seen.append((stage, total)))
    try:
        report = factgrain.check(TEXT, REF, model=qa_backend(QAS), verifier="llm", span_mode="free")
    finally:
        progress._reporter.reset(token)
    decompose = [s for s in seen if s[0].startswith("decompose")]
    verify = [s for s in seen if s[0] == "verify"]
    assert decompose == [("decompose (sentences)", 2)] * 2
    assert verify == [("verify", len(report.verdicts))] * len(report.verdicts) and len(verify) == 3


def test_no_reporter_no_output(capsys):
    progress.advance("verify", 3)  # nothing installed: a no-op
    assert capsys.readouterr().err == ""
