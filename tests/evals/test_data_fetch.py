"""`factgrain data`: list, and fetch against a local HTTP server on 127.0.0.1 that serves source
files made here in the QASemConsistency source format (from the shared data's own rows), so the
fetched file must be byte-for-byte the shared one: a good download, a corrupted one, an interrupted
one (resumed with a Range request, or restarted when the server ignores Range)."""

from __future__ import annotations

import dataclasses
import gzip
import hashlib
import json
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from factgrain.cli import main
from factgrain.evals import fetch as F
from factgrain.evals.catalog import CATALOG
from factgrain.evals.normalize import NORMALIZERS, detokenize

QA_KEYS = ("qa_id", "sent_id", "predicate_idx", "predicate_pos", "predicate", "question", "answer_idx", "answer",
           "annotations")


def shared_rows(data_dir: Path, name: str) -> list[dict]:
    with gzip.open(data_dir / f"{name}.jsonl.gz", "rt", encoding="utf-8") as fh:
        return [json.loads(line) for line in fh]


def to_source(row: dict) -> dict:
    """A shared qasem_consistency row back in the source repository's format (article tokens kept
    as the string the shared file holds; summary as its tokens)."""
    out = {"source_id": row["source_id"], "source": row["reference"], "summary": row["sentence_tokens"],
           "model": row["model"], "datasource": row["datasource"], "dataset": row["subset"],
           "qas": [{k: q[k] for k in QA_KEYS} for q in row["qas"]], "spans": row["spans"]}
    if row["cliff_labels"] is not None:
        out["cliff_labels"] = row["cliff_labels"]
    return out


def wice_source(row: dict) -> dict:
    """A shared wice row back in the WiCE claim-file format (one evidence sentence a line)."""
    return {"label": row["orig_label"], "supporting_sentences": row["supporting_sentences"], "claim": row["text"],
            "evidence": row["reference"].split("\n"),
            "meta": {"id": row["id"].removeprefix("wice-"), "claim_title": row["title"],
                     "claim_section": row["section"], "claim_context": row["context"]}}


def serialized(rows) -> bytes:
    return b"".join((json.dumps(r, ensure_ascii=False) + "\n").encode() for r in rows)


@pytest.fixture(scope="module")
def qasem(data_dir):
    return shared_rows(data_dir, "qasem_consistency")


def test_the_normalizers_rebuild_the_shared_files_exactly(qasem, data_dir, tmp_path):
    """From the source format, both normalizers give the shared files byte for byte (their sha256 is
    the catalogue's), and the detokenizer rebuilds every summary sentence from its tokens."""
    for split in ("dev", "test"):
        (tmp_path / f"{split}.jsonl").write_text(
            "".join(json.dumps(to_source(r)) + "\n" for r in qasem if r["split"] == split), encoding="utf-8")
    sources = {"data/dev.jsonl": tmp_path / "dev.jsonl", "data/test.jsonl": tmp_path / "test.jsonl"}
    for name in ("qasem_consistency", "qasem_consistency_qa"):
        data = serialized(NORMALIZERS[name](sources))
        assert hashlib.sha256(data).hexdigest() == CATALOG[name].sha256, name
        assert len(data) == CATALOG[name].size and data.count(b"\n") == CATALOG[name].rows
    pairs = [(s, t) for r in qasem for s, t in zip(r["sentences"], r["sentence_tokens"])]
    assert len(pairs) > 400 and all(detokenize(t) == s for s, t in pairs)


def test_the_wice_normalizer_rebuilds_the_shared_file_exactly(data_dir, tmp_path):
    rows = shared_rows(data_dir, "wice")
    sources = {}
    for split in ("dev", "test"):
        path = tmp_path / f"{split}.jsonl"
        path.write_text("".join(json.dumps(wice_source(r)) + "\n" for r in rows if r["split"] == split), encoding="utf-8")
        sources[f"data/entailment_retrieval/claim/{split}.jsonl"] = path
    data = serialized(NORMALIZERS["wice"](sources))
    assert hashlib.sha256(data).hexdigest() == CATALOG["wice"].sha256 and data.count(b"\n") == 707


def test_the_catalogue_is_the_shared_folder(data_dir):
    """Every file of the shared data folder is catalogued with its real size and sha256."""
    names = sorted(p.name[: -len(".jsonl.gz")] for p in data_dir.glob("*.jsonl.gz"))
    assert names == sorted(CATALOG)
    for name in ("qasem_consistency", "claimdecomp"):
        data = gzip.open(data_dir / f"{name}.jsonl.gz", "rb").read()
        assert (hashlib.sha256(data).hexdigest(), len(data)) == (CATALOG[name].sha256, CATALOG[name].size)


# --------------------------------------------------------------------------- a local source server


class SourceServer:
    """Serves ``files`` ({url path: bytes}) on 127.0.0.1; ``cut`` drops the first ``n`` responses of a
    path after half the body; ``ignore_range`` answers every request with the whole file."""

    def __init__(self, files: dict[str, bytes]):
        self.files = dict(files)
        self.cut: dict[str, int] = {}
        self.ignore_range = False
        self.requests: list[tuple[str, str | None]] = []
        self.encodings: set[str | None] = set()
        outer = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *a):
                pass

            def do_GET(self):
                rng = self.headers.get("Range")
                outer.requests.append((self.path, rng))
                outer.encodings.add(self.headers.get("Accept-Encoding"))
                body = outer.files.get(self.path)
                if body is None:
                    self.send_response(404)
                    self.send_header("Content-Length", "9")
                    self.end_headers()
                    self.wfile.write(b"not found")
                    return
                start = 0
                if rng and not outer.ignore_range:
                    start = int(rng.split("=")[1].split("-")[0])
                    self.send_response(206)
                    self.send_header("Content-Range", f"bytes {start}-{len(body) - 1}/{len(body)}")
                else:
                    self.send_response(200)
                part = body[start:]
                self.send_header("Content-Length", str(len(part)))
                self.end_headers()
                if outer.cut.get(self.path, 0) > 0:
                    outer.cut[self.path] -= 1
                    self.wfile.write(part[: len(part) // 2])
                    self.wfile.flush()
                    time.sleep(0.2)  # the client reads the first half before it sees the connection end
                    self.close_connection = True
                    return
                self.wfile.write(part)

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}"
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)

    def __enter__(self):
        self.thread.start()
        return self

    def __exit__(self, *exc):
        self.httpd.shutdown()
        self.httpd.server_close()


@pytest.fixture(scope="module")
def qasem_qa(data_dir):
    return shared_rows(data_dir, "qasem_consistency_qa")


@pytest.fixture
def small(qasem, qasem_qa):
    """Three dev and two test responses as source files, and catalogue entries whose checksums are
    those of the same rows in the shared files."""
    dev = [r for r in qasem if r["split"] == "dev"][:3]
    test = [r for r in qasem if r["split"] == "test"][:2]
    base = CATALOG["qasem_consistency"]
    files = {f"/{base.repo}/{base.commit}/data/{split}.jsonl":
             "".join(json.dumps(to_source(r)) + "\n" for r in rows).encode() for split, rows in (("dev", dev),
                                                                                               ("test", test))}
    responses = serialized(dev + test)
    qa_rows = [r for r in qasem_qa if r["instance_id"] in {x["id"] for x in dev + test}]
    catalog = {
        "qasem_consistency": dataclasses.replace(base, rows=5, size=len(responses),
                                                 sha256=hashlib.sha256(responses).hexdigest()),
        "qasem_consistency_qa": dataclasses.replace(
            CATALOG["qasem_consistency_qa"], rows=len(qa_rows), size=len(serialized(qa_rows)),
            sha256=hashlib.sha256(serialized(qa_rows)).hexdigest()),
        "claimdecomp": CATALOG["claimdecomp"],
    }
    return files, catalog, responses, serialized(qa_rows)


def _leftovers(dest: Path) -> list[str]:
    return sorted(str(p.relative_to(dest)) for p in dest.rglob("*") if p.is_file())


def test_good_download_writes_verified_files(small, tmp_path):
    files, catalog, responses, qa = small
    with SourceServer(files) as srv:
        written = F.fetch("all", dest=tmp_path, base=srv.url, catalog={k: v for k, v in catalog.items() if k != "claimdecomp"})
    assert [p.name for p in written] == ["qasem_consistency.jsonl.gz", "qasem_consistency_qa.jsonl.gz"]
    assert gzip.open(written[0], "rb").read() == responses
    assert gzip.open(written[1], "rb").read() == qa
    assert _leftovers(tmp_path) == ["qasem_consistency.jsonl.gz", "qasem_consistency_qa.jsonl.gz"]
    # a second fetch finds the verified files and downloads nothing
    with SourceServer(files) as srv:
        F.fetch("qasem_consistency", dest=tmp_path, base=srv.url, catalog=catalog)
    assert srv.requests == []
    # the harness reads what fetch wrote
    from factgrain.evals.datasets import load_responses

    assert [r.id for r in load_responses("dev", data_dir=tmp_path)] == ["qasem-dev-0", "qasem-dev-1", "qasem-dev-2"]


def test_corrupted_download_is_refused_and_leaves_nothing(small, tmp_path):
    files, catalog, _, _ = small
    bad = dict(files)
    path = next(p for p in bad if p.endswith("dev.jsonl"))
    bad[path] = bad[path].replace(b'"annotations": [1, 1, 1]', b'"annotations": [0, 0, 0]', 1)
    assert bad[path] != files[path]
    (tmp_path / "qasem_consistency.jsonl.gz").write_bytes(b"an older file stays as it was")
    with SourceServer(bad) as srv, pytest.raises(F.DataChecksumError, match="nothing was written") as info:
        F.fetch("qasem_consistency", dest=tmp_path, base=srv.url, catalog=catalog)
    assert catalog["qasem_consistency"].sha256 in str(info.value)
    assert _leftovers(tmp_path) == ["qasem_consistency.jsonl.gz"]  # no temp file, no suspect sources
    assert (tmp_path / "qasem_consistency.jsonl.gz").read_bytes() == b"an older file stays as it was"
    # the next run downloads afresh from a good server and succeeds
    with SourceServer(files) as srv:
        (written,) = F.fetch("qasem_consistency", dest=tmp_path, base=srv.url, catalog=catalog)
    assert gzip.open(written, "rb").read()[:40] == small[2][:40]


def test_interrupted_download_resumes_with_a_range_request(small, tmp_path):
    files, catalog, responses, _ = small
    path = next(p for p in files if p.endswith("dev.jsonl"))
    with SourceServer(files) as srv:
        srv.cut[path] = 1  # the first response breaks off half-way
        (written,) = F.fetch("qasem_consistency", dest=tmp_path, base=srv.url, catalog=catalog)
    ranges = [r for p, r in srv.requests if p == path]
    assert ranges[0] is None and ranges[1] == f"bytes={len(files[path][: len(files[path]) // 2])}-"
    assert srv.encodings == {"identity"}  # byte ranges of the file itself, never of a compressed stream
    assert gzip.open(written, "rb").read() == responses
    assert _leftovers(tmp_path) == ["qasem_consistency.jsonl.gz"]


def test_interrupted_run_keeps_the_partial_file_and_the_next_run_resumes(small, tmp_path):
    files, catalog, responses, _ = small
    path = next(p for p in files if p.endswith("dev.jsonl"))
    with SourceServer(files) as srv:
        srv.cut[path] = 5
        with pytest.raises(F.DataFetchError, match="run the same command again to resume"):
            F.fetch("qasem_consistency", dest=tmp_path, base=srv.url, catalog=catalog, retries=1)
    left = _leftovers(tmp_path)
    assert len(left) == 1 and left[0].endswith("data/dev.jsonl.part")  # no output file, only the resumable part
    with SourceServer(files) as srv:
        (written,) = F.fetch("qasem_consistency", dest=tmp_path, base=srv.url, catalog=catalog)
    assert [r for p, r in srv.requests if p == path][0] is not None  # resumed, not restarted
    assert gzip.open(written, "rb").read() == responses


def test_a_server_that_ignores_range_restarts_the_file_cleanly(small, tmp_path):
    files, catalog, responses, _ = small
    path = next(p for p in files if p.endswith("dev.jsonl"))
    with SourceServer(files) as srv:
        srv.cut[path] = 1
        srv.ignore_range = True  # answers the resume with the whole file (HTTP 200)
        (written,) = F.fetch("qasem_consistency", dest=tmp_path, base=srv.url, catalog=catalog)
    assert gzip.open(written, "rb").read() == responses  # not the first half twice


def test_fetch_says_what_is_missing_for_a_dataset_without_normalizer(small, tmp_path):
    files, catalog, _, _ = small
    with SourceServer(files) as srv:
        with pytest.raises(F.NormalizerMissingError, match="claimdecomp cannot be fetched yet: some full_article") as info:
            F.fetch("claimdecomp", dest=tmp_path, base=srv.url, catalog=catalog)
        assert srv.requests == []
    assert "nothing was downloaded" in str(info.value) and _leftovers(tmp_path) == []


def test_cli_fetch_list_and_path(small, tmp_path, monkeypatch, capsys):
    files, catalog, responses, _ = small
    monkeypatch.setattr("factgrain.evals.fetch.CATALOG", catalog)
    monkeypatch.setenv("FACTGRAIN_DATA_DIR", str(tmp_path / "data"))
    with SourceServer(files) as srv:
        monkeypatch.setenv("FACTGRAIN_DATA_BASE_URL", srv.url)
        assert main(["data", "fetch", "qasem_consistency"]) == 0
    out = capsys.readouterr()
    assert out.out.strip() == str(tmp_path / "data" / "qasem_consistency.jsonl.gz") and "sha256 verified" in out.err
    assert main(["data", "fetch", "claimdecomp"]) == 3
    assert "claimdecomp cannot be fetched yet" in capsys.readouterr().err
    assert main(["data", "path"]) == 0
    assert capsys.readouterr().out.strip() == str(tmp_path / "data")


def test_list_shows_every_dataset_of_the_shared_readme(data_dir, capsys):
    readme = (data_dir / "README.md").read_text(encoding="utf-8")
    assert main(["data", "list"]) == 0
    out = capsys.readouterr().out
    for ds in CATALOG.values():
        assert f"| {ds.name} |" in readme
        assert ds.commit in readme and ds.commit in out
        assert f"\n{ds.name}: {ds.rows:,} rows" in out and ds.sha256 in out and ds.license in out
    assert main(["data", "list", "--format", "json"]) == 0
    rows = json.loads(capsys.readouterr().out)["datasets"]
    assert {r["name"]: r["fetch"] == "yes" for r in rows}["qasem_consistency_qa"] is True
    assert {r["name"] for r in rows if r["fetch"] != "yes"} == {"claimdecomp", "bingcheck", "bingchat_combination",
                                                                 "factscore"}


def test_missing_data_error_names_the_command(tmp_path, monkeypatch):
    from factgrain.evals import datasets as ds

    with pytest.raises(ValueError, match="factgrain data fetch wice"):
        ds.dataset_path("wice", data_dir=tmp_path)
    with pytest.raises(ValueError, match="unknown dataset 'nope'"):
        ds.dataset_path("nope", data_dir=tmp_path)
    monkeypatch.delenv("FACTGRAIN_DATA_DIR", raising=False)
    monkeypatch.setattr(ds, "_default_candidates", lambda: [tmp_path / "nowhere"])
    with pytest.raises(ds.DataDirNotFoundError, match="factgrain data fetch"):
        ds.data_dir()


# --------------------------------------------------------------------------- RefChecker

def refchecker_sources(rows: list[dict]) -> dict[str, bytes]:
    """The shared refchecker rows back in the release's format: one JSON array per (setting, model)
    file, each response with its triplets and their human labels (responses without triplets have no
    row in the shared file, so they are not rebuilt)."""
    files: dict[str, list[dict]] = {}
    for r in rows:
        path = f"benchmark/human_annotations_v1/{r['setting']}/{r['source']}_{r['model']}_answers.json"
        responses = files.setdefault(path, [])
        if not responses or responses[-1]["id"] != r["example_id"]:
            responses.append({"id": r["example_id"], "response": r["text"], "claude2_response_kg": []})
        responses[-1]["claude2_response_kg"].append({"triplet": r["triplet"], "human_label": r["orig_label"]})
    return {path: json.dumps(responses, indent=4).encode() for path, responses in files.items()}


def test_refchecker_fetch_rebuilds_the_shared_file_byte_for_byte(data_dir, tmp_path):
    """All 21 annotation files served from 127.0.0.1: the fetched file's JSONL is the shared file's,
    byte for byte (the gzip headers differ: fetch writes no name and no time stamp)."""
    ds = CATALOG["refchecker"]
    sources = refchecker_sources(shared_rows(data_dir, "refchecker"))
    assert sorted(sources) == list(ds.fetched_paths) and len(sources) == 21
    with SourceServer({f"/{ds.repo}/{ds.commit}/{p}": body for p, body in sources.items()}) as srv:
        (written,) = F.fetch("refchecker", dest=tmp_path, base=srv.url)
    assert gzip.open(written, "rb").read() == gzip.open(data_dir / "refchecker.jsonl.gz", "rb").read()
    assert _leftovers(tmp_path) == ["refchecker.jsonl.gz"]


# The first three responses of zero_context/nq_gpt4_answers.json as the release has them (quotes
# inside triplets included), with a response whose triplets are all labelled and one without any.
NQ_GPT4_EXCERPT = [
    {"id": "4073418639113603971", "response": "Peter, Paul and Mary sang \"I Dig Rock and Roll Music\".",
     "claude2_response_kg": [{"triplet": ["Peter, Paul and Mary", "sang", "\"I Dig Rock and Roll Music\""],
                              "human_label": "Entailment"}]},
    {"id": "-1582234629547061501", "response": "Tami Lynn sang \"I'm Gonna Run Away From You.\"",
     "claude2_response_kg": [{"triplet": ["\"Tami Lynn\"", "\"sang\"", "'\"I'm Gonna Run Away From You\"'"],
                              "human_label": "Entailment"}]},
    {"id": "-3476455683698256952", "response": "George Plimpton played the judge in Good Will Hunting.",
     "claude2_response_kg": [{"triplet": ["George Plimpton", "played", "the judge"], "human_label": "Contradiction"},
                             {"triplet": ["George Plimpton", "played in", "Good Will Hunting"],
                              "human_label": "Neutral"}]},
    {"id": "1097", "response": "1946-1954.", "claude2_response_kg": []},
]


def test_refchecker_normalizer_reads_the_release_format(data_dir, tmp_path):
    """An excerpt of a real annotation file gives exactly the shared file's rows for those responses;
    an unknown label is refused, never mapped."""
    path = "benchmark/human_annotations_v1/zero_context/nq_gpt4_answers.json"
    (tmp_path / "nq.json").write_text(json.dumps(NQ_GPT4_EXCERPT, indent=4), encoding="utf-8")
    got = list(NORMALIZERS["refchecker"]({path: tmp_path / "nq.json"}))
    by_id = {r["id"]: r for r in shared_rows(data_dir, "refchecker")}
    assert [r["id"] for r in got] == ["refchecker-nq-gpt4-4073418639113603971-0",
                                      "refchecker-nq-gpt4--1582234629547061501-0",
                                      "refchecker-nq-gpt4--3476455683698256952-0",
                                      "refchecker-nq-gpt4--3476455683698256952-1"]
    assert serialized(got) == serialized(by_id[r["id"]] for r in got)
    assert [r["label"] for r in got] == [1, 1, 0, 0]
    bad = [dict(NQ_GPT4_EXCERPT[0], claude2_response_kg=[{"triplet": ["a", "b", "c"], "human_label": "Abstain"}])]
    (tmp_path / "nq.json").write_text(json.dumps(bad), encoding="utf-8")
    with pytest.raises(ValueError, match="unknown human_label 'Abstain'"):
        list(NORMALIZERS["refchecker"]({path: tmp_path / "nq.json"}))


# --------------------------------------------------------------------------- FELM

def felm_source(rows: list[dict]) -> bytes:
    """The shared felm rows back in the format of eval/all.jsonl: one line per response with its
    segments, labels, comments and error types, and the reference as the list of retrieved texts
    (split at line breaks: the normalizer joins them with one)."""
    responses: dict[str, list[dict]] = {}
    for r in rows:
        responses.setdefault(r["id"].rsplit("-", 1)[0], []).append(r)
    lines = []
    for key, segs in responses.items():
        first = segs[0]
        lines.append(json.dumps({
            "index": key.rsplit("-", 1)[1], "domain": first["domain"], "source": first["source"],
            "prompt": first["prompt"], "response": first["response"], "segmented_response": [s["text"] for s in segs],
            "labels": [bool(s["label"]) for s in segs], "comment": [s["comment"] for s in segs],
            "type": [] if first["domain"] == "math" else [s["error_type"] for s in segs], "ref": first["ref_urls"],
            "ref_contents": first["reference"].split("\n") if first["reference"] else ""}, ensure_ascii=False))
    return ("\n".join(lines) + "\n").encode()


def test_felm_fetch_rebuilds_the_shared_file_byte_for_byte(data_dir, tmp_path):
    ds = CATALOG["felm"]
    body = felm_source(shared_rows(data_dir, "felm"))
    with SourceServer({f"/{ds.repo}/{ds.commit}/eval/all.jsonl": body}) as srv:
        (written,) = F.fetch("felm", dest=tmp_path, base=srv.url)
    assert gzip.open(written, "rb").read() == gzip.open(data_dir / "felm.jsonl.gz", "rb").read()
    assert _leftovers(tmp_path) == ["felm.jsonl.gz"]


# Four lines of hkust-nlp/felm eval/all.jsonl as the release has them: a math line (no error types,
# ref_contents ""), a science line with two URLs but one retrieved text and an error type, one with two
# retrieved texts (joined with a line break), and one whose retrieval came back empty ([]).
FELM_EXCERPT = [
    {"index": "1", "domain": "math",
     "source": "https://docs.google.com/spreadsheets/d/1kDSERnROv5FgHbVN8z_bXH9gak2IXRtoqz0nwhrviCw/edit#gid=1302320625",
     "prompt": "Give me the largest even prime.", "response": "The largest even prime number is 2.",
     "segmented_response": ["The largest even prime number is 2."], "labels": [True], "comment": [""], "type": [],
     "ref": [], "ref_contents": ""},
    {"index": "403", "domain": "science", "source": "hc3", "prompt": "Have humans flown close to the sun?",
     "response": "No, humans have never flown close to the sun. The sun's surface temperature is about 9,900 degrees Fahrenheit (5,500 degrees Celsius), which is hot enough to melt lead. Additionally, the sun's extreme gravitational pull would make it nearly impossible for a human spacecraft to approach it without being pulled in and destroyed. The closest humans have been to the sun is through unmanned space probes such as NASA's Parker Solar Probe, which was launched in 2018 and has flown as close as 3.8 million miles (6.1 million kilometers) to the sun's surface, but even that distance is still far enough to ensure the spacecraft and its instruments are not destroyed by the sun's intense heat and radiation.",
     "segmented_response": ["No, humans have never flown close to the sun.",
                            "The sun's surface temperature is about 9,900 degrees Fahrenheit (5,500 degrees Celsius), which is hot enough to melt lead.",
                            "Additionally, the sun's extreme gravitational pull would make it nearly impossible for a human spacecraft to approach it without being pulled in and destroyed.",
                            "The closest humans have been to the sun is through unmanned space probes such as NASA's Parker Solar Probe, which was launched in 2018 and has flown as close as 3.8 million miles (6.1 million kilometers) to the sun's surface, but even that distance is still far enough to ensure the spacecraft and its instruments are not destroyed by the sun's intense heat and radiation."],
     "labels": [True, True, True, False], "comment": ["", "", "", "has not flown as close as 3.8 million miles "],
     "type": [None, None, None, "knowledge_error"],
     "ref": ["https://en.wikipedia.org/wiki/Parker_Solar_Probe,",
             "https://www.nasa.gov/content/goddard/parker-solar-probe-humanity-s-first-visit-to-a-star"],
     "ref_contents": ["Other reasons this message may be displayed:\n"]},
    {"index": "410", "domain": "science",
     "source": "Twitter: https://twitter.com/DieterCastel/status/1598727145416790028?lang=en",
     "prompt": "What should I first read if I want to understand metaethics?",
     "response": "If you want to understand metaethics, the first thing you should probably read is an introduction to the subject, as it can be quite complex and challenging to grasp without some background knowledge. One of the most widely recommended introductory texts on metaethics is \\Metaethics: An Introduction\\\" by Andrew Fisher, which provides a clear and concise overview of the key theories and concepts in the field. \\n\\nAnother useful resource for getting a solid foundation in metaethics is \\\"Ethics: The Fundamentals\\\" by Julia Driver, which covers a broad range of ethical theories, including metaethics. This book also includes exercises and discussion questions to help readers engage with the material and develop their understanding.\\n\\nReading articles by influential philosophers in the field, such as G. E. Moore, J. L. Mackie, and W. D. Ross, can also deepen your understanding of metaethics. Additionally, podcasts and online lectures on metaethics are available and can provide a helpful supplement to your readings.\\n\\nOverall, building a solid foundation in metaethics requires a combination of reading introductory texts, engaging with primary sources, and seeking out supplementary resources to deepen your understanding.\"",
     "segmented_response": ["If you want to understand metaethics, the first thing you should probably read is an introduction to the subject, as it can be quite complex and challenging to grasp without some background knowledge.",
                            "One of the most widely recommended introductory texts on metaethics is \\Metaethics: An Introduction\\\" by Andrew Fisher, which provides a clear and concise overview of the key theories and concepts in the field.",
                            "\\n\\nAnother useful resource for getting a solid foundation in metaethics is \\\"Ethics: The Fundamentals\\\" by Julia Driver, which covers a broad range of ethical theories, including metaethics.",
                            "This book also includes exercises and discussion questions to help readers engage with the material and develop their understanding.\\n\\nReading articles by influential philosophers in the field, such as G. E. Moore, J. L. Mackie, and W. D. Ross, can also deepen your understanding of metaethics.",
                            "Additionally, podcasts and online lectures on metaethics are available and can provide a helpful supplement to your readings.\\n\\nOverall, building a solid foundation in metaethics requires a combination of reading introductory texts, engaging with primary sources, and seeking out supplementary resources to deepen your understanding.\""],
     "labels": [True, True, True, True, True], "comment": ["", "", "", "", ""], "type": [None, None, None, None, None],
     "ref": ["https://www.routledge.com/Metaethics-An-Introduction/Fisher/p/book/9781844652587",
             "https://www.wiley.com/en-gb/Ethics:+The+Fundamentals-p-9781405111546"],
     "ref_contents": ["to improve your website experience. To learn how to manage your cookie settings, please see our Cookie Policy. By continuing to use the website, you consent to our use of cookies.",
                      "\u00a319.95\n\n                                            Julia Driver\nISBN: 978-1-405-11154-6\n\n\t\tAugust 2006\n\n\t\t\tWiley-Blackwell\n192\u00a0Pages\nEthics: The Fundamentals explores core ideas and arguments in moral theory by introducing students to different philosophical approaches to ethics, including virtue ethics, Kantian ethics, divine command theory, and feminist ethics.\nRequest permission to reuse content from this siteIntroduction.1. The Challenge to Moral Universalism.2. God and Human Nature.3. Classical Utilitarianism.4. Contemporary Consequentialism.5. Kantian Ethics.6. Social Contract Theory.7. Intuitionism.8. Virtue Ethics.9. Feminist Ethics.10. Moral Nihilism.IndexFundamentals of PhilosophyCopyright \u00a9 2000-2023 by John Wiley & Sons, Inc., or related companies. All rights reserved."]},
    {"index": "418", "domain": "science", "source": "quora: science",
     "prompt": "Can a fire burn and keep burning in very cold temperatures like -60 -70 Celsius?",
     "response": "It is possible for a fire to burn in very cold temperatures like -60 -70 Celsius, but it would be much more difficult to start and maintain the fire. The extreme cold would make it harder to ignite the fuel and would also cause the fire to burn more slowly and less intensely. Additionally, the cold temperatures could cause the fuel to freeze, making it even more difficult to burn. In such extreme conditions, it would be important to take extra precautions and use appropriate equipment and fuel sources to ensure the fire can be started and maintained safely.",
     "segmented_response": ["It is possible for a fire to burn in very cold temperatures like -60 -70 Celsius, but it would be much more difficult to start and maintain the fire.",
                            "The extreme cold would make it harder to ignite the fuel and would also cause the fire to burn more slowly and less intensely.",
                            "Additionally, the cold temperatures could cause the fuel to freeze, making it even more difficult to burn.",
                            "In such extreme conditions, it would be important to take extra precautions and use appropriate equipment and fuel sources to ensure the fire can be started and maintained safely."],
     "labels": [True, True, True, True], "comment": ["", "", "", ""], "type": [None, None, None, None],
     "ref": ["https://sciencenotes.org/can-it-be-too-cold-to-start-a-fire/"], "ref_contents": []},
]


def test_felm_normalizer_reads_the_release_format(data_dir, tmp_path):
    """Lines copied from the release give exactly the shared rows of those segments: math has no error
    types, two retrieved texts are joined with a line break, an empty retrieval is a null reference."""
    (tmp_path / "all.jsonl").write_text("".join(json.dumps(x, ensure_ascii=False) + "\n" for x in FELM_EXCERPT),
                                        encoding="utf-8")
    got = list(NORMALIZERS["felm"]({"eval/all.jsonl": tmp_path / "all.jsonl"}))
    by_id = {r["id"]: r for r in shared_rows(data_dir, "felm")}
    assert len(got) == 14 and serialized(got) == serialized(by_id[r["id"]] for r in got)
    refs = {r["id"].rsplit("-", 1)[0]: r["reference"] for r in got}
    assert refs["felm-math-1"] is None and refs["felm-science-418"] is None
    assert "use of cookies.\n\u00a319.95" in refs["felm-science-410"]
    assert [r["error_type"] for r in got if r["id"].startswith("felm-science-403-")] == [None, None, None,
                                                                                         "knowledge_error"]
    broken = dict(FELM_EXCERPT[1], labels=[True])
    (tmp_path / "all.jsonl").write_text(json.dumps(broken) + "\n", encoding="utf-8")
    with pytest.raises(ValueError, match="felm response 403: 4 segments but 1 labels"):
        list(NORMALIZERS["felm"]({"eval/all.jsonl": tmp_path / "all.jsonl"}))
