"""The benchmark files the harness reads: where each comes from and what the normalized file is.

One entry per ``<name>.jsonl.gz`` of the shared data folder (``../shared/data/README.md``): the
public repository and pinned commit it was built from, the source path(s), the license, and the
normalized file's row count, size and sha256 (of the uncompressed JSONL, so the check does not
depend on gzip's header). ``factgrain data fetch`` rebuilds a file from its sources and accepts it
only when that sha256 matches; a dataset whose normalizer is not written yet says what is missing.
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class Dataset:
    name: str
    repo: str
    commit: str
    paths: tuple[str, ...]
    license: str
    rows: int
    size: int = field(metadata={"unit": "bytes of the uncompressed normalized JSONL"})
    sha256: str
    normalizer: str | None = None  # a name in factgrain.evals.normalize.NORMALIZERS
    missing: str = ""  # why there is no normalizer yet (shown by list, raised by fetch)
    splits: str = ""
    downloads: tuple[str, ...] = ()  # the paths the normalizer reads, when not all of ``paths``

    @property
    def source(self) -> str:
        return f"{self.repo}@{self.commit}"

    @property
    def fetched_paths(self) -> tuple[str, ...]:
        return self.downloads or self.paths

    @property
    def fetchable(self) -> bool:
        return self.normalizer is not None


_QASEM = dict(repo="ariecattan/qasem_consistency", commit="6a48e9dfa09ec310f52223284ebbffe281e72c18",
              paths=("data/dev.jsonl", "data/test.jsonl"), license="Apache-2.0", splits="dev, test")
_REFCHECKER_MODELS = ("alpaca_7B", "chatgpt", "claude2", "davinci001", "falcon_40B_instruct", "gpt4", "llama2_70b_chat")
_REFCHECKER_FILES = tuple(f"benchmark/human_annotations_v1/{setting}/{source}_{model}_answers.json"
                          for setting, source in (("accurate_context", "dolly"), ("noisy_context", "msmarco"),
                                                  ("zero_context", "nq"))
                          for model in _REFCHECKER_MODELS)
_DILEMMAS = dict(repo="qishenghu/Decomp_Dilemmas", commit="8d3775e8e9b46bb92c2677d0a50b8fae62526837")

CATALOG: dict[str, Dataset] = {d.name: d for d in (
    Dataset("qasem_consistency", **_QASEM, rows=299, size=2512002, normalizer="qasem_consistency",
            sha256="d529c725b37a069454a41122501cf2d5f5b704c9f8af1448d93b9fe5706398ed"),
    Dataset("qasem_consistency_qa", **_QASEM, rows=3098, size=14840496, normalizer="qasem_consistency_qa",
            sha256="ac3182bcc558cb8a2036b7b14cfa678fc7485a5f86791b1ef74c053e578270a8"),
    Dataset("wice", repo="ryokamoi/wice", commit="ddeb6c183665e2a20c5f03c5aa07f03888b9870f",
            paths=("data/entailment_retrieval/claim/dev.jsonl", "data/entailment_retrieval/claim/test.jsonl",
                   "code_and_resources/entailment_inputs/oracle_chunks/claim/dev.jsonl",
                   "code_and_resources/entailment_inputs/oracle_chunks/claim/test.jsonl"),
            license="annotations ODC-BY, text CC-BY-SA", rows=707, size=6925912, splits="dev, test",
            sha256="0c35f8d769cec365e55dc8fc87fe17806dc73b24d7159eebca177e31179b885c", normalizer="wice",
            # the claim files carry the whole cited article (evidence), so the oracle chunks are not needed
            downloads=("data/entailment_retrieval/claim/dev.jsonl", "data/entailment_retrieval/claim/test.jsonl")),
    Dataset("claimdecomp", repo="Jaswar/nlp-project", commit="3d9a871b8e2d15244113ed48ea055090161c3e87",
            paths=("ClaimDecomp/dev.jsonl", "ClaimDecomp/test.jsonl"), license="no license file",
            rows=400, size=3046911, splits="dev, test",
            sha256="211589e5edc7e97f0f5fcd282c40df522ae0afbaabd1f292c846ce09567f6fc9",
            missing="some full_article paragraphs were dropped from the reference by a rule not recovered yet "
                    "(an editor's note saying the update does not affect the ruling is gone, other editor's notes "
                    "stay), so the reference cannot be rebuilt from the source lines"),
    Dataset("felm", repo="hkust-nlp/felm", commit="1109166b20f1baafd71fd92e0f36af0a547e4158",
            paths=("eval/all.jsonl",), license="CC BY-NC-SA 4.0", rows=4426, size=10127447, splits="test",
            sha256="99e286cd1bb616e1db6e8f977865ba63aafe6fbe8c9c4ef1d351793c0ef9246a",
            normalizer="felm"),
    Dataset("bingcheck", repo="Miaoranmmm/SelfChecker", commit="d33157db37c4475ae1b9a1df4907e7368b35e995",
            paths=("bingcheck/",), license="no license file", rows=3642, size=13988402, splits="test",
            sha256="d1cb78cbb61d11787b5408b444a4ddf68679a8396a418749643979a6a149f26a",
            missing="the folder holds one JSON file per conversation, named <n>_<uuid>.json: the list of names at "
                    "the pinned commit, and how each sub-claim's evidence sentences are picked from its search "
                    "results, are not written yet"),
    Dataset("bingchat_combination", **_DILEMMAS, paths=("input/bingchat_random_combination_3000.json",),
            license="GPL-3.0 (data)", rows=3000, size=16032260, splits="test",
            sha256="a77c4e845fb1a811e6948b6f8df0436859357c5745050d8c029e5c777c817363",
            missing="the source has only claim, label, combined_num and token_length per combination; the "
                    "reference, constituents and constituents_matched come from matching the claim's sentences "
                    "to bingcheck sub-claims, which needs the bingcheck normalizer first"),
    Dataset("factscore", **_DILEMMAS,
            paths=tuple(f"src/third_party/factscore/labeled_data/{m}.jsonl"
                        for m in ("ChatGPT", "InstructGPT", "PerplexityAI")),
            license="MIT", rows=14525, size=27573387, splits="test",
            sha256="fcd743b27b1f2be7f675abf0dcfbade19c0598c82ab942ca693370ee6f0aa4da",
            missing="the labelled files could not be read to confirm their format, and the Wikipedia reference "
                    "that 852 rows (17 topics) carry is not in the listed files"),
    Dataset("refchecker", repo="amazon-science/RefChecker", commit="1df1b25cee792ba2b171302e31ca4f768bd67703",
            paths=("benchmark/human_annotations_v1/",), license="CC BY 4.0", rows=10733, size=9386453,
            splits="test", sha256="17ab358cf972c33bee42886339049dd874142a7fc6cf64d0f069c35dcd0f0f6e",
            normalizer="refchecker", downloads=_REFCHECKER_FILES),
)}
