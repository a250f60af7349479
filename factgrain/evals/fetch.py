"""``factgrain data fetch``: download a benchmark's source files at the pinned commit, normalize them
to the shared JSONL shape, verify the sha256, and only then put ``<name>.jsonl.gz`` in place.

- Sources come from ``<base>/<repo>/<commit>/<path>``; the base is GitHub's raw host unless
  ``FACTGRAIN_DATA_BASE_URL`` (or ``base_url=``) says otherwise (a mirror, a test server).
- A download is written to ``<dest>/.sources/<repo>@<commit>/<path>.part`` and renamed when its
  body is complete; a dropped connection is resumed with an HTTP Range request (a server that
  ignores Range restarts the file from zero), and an interrupted run resumes from the ``.part``.
- The normalized file is written to a temporary file beside the target and renamed over it only
  when its sha256 matches the catalog; on a mismatch the temporary file and the downloaded sources
  are removed, so nothing half-made is left behind and the next run starts clean.
"""

from __future__ import annotations

import gzip
import hashlib
import json
import os
import shutil
import tempfile
from collections.abc import Callable
from pathlib import Path

import httpx

from factgrain.errors import FactgrainError, InputError
from factgrain.evals.catalog import CATALOG, Dataset

BASE_URL_ENV = "FACTGRAIN_DATA_BASE_URL"
DEFAULT_BASE_URL = "https://raw.githubusercontent.com"
DATA_DIR_ENV = "FACTGRAIN_DATA_DIR"


class DataFetchError(FactgrainError):
    """A download failed or was interrupted (run the command again to resume)."""

    exit_code = 4


class DataChecksumError(FactgrainError):
    """The normalized file is not the catalogued one (nothing was written)."""

    exit_code = 4


class NormalizerMissingError(FactgrainError):
    """The dataset is catalogued but its normalizer is not written yet (nothing is downloaded)."""

    exit_code = 3


def default_dest() -> Path:
    """Where fetch writes: ``$FACTGRAIN_DATA_DIR``, else the user cache folder
    (``$XDG_CACHE_HOME/factgrain/data`` or ``~/.cache/factgrain/data``)."""
    env = os.environ.get(DATA_DIR_ENV)
    if env:
        return Path(env).expanduser()
    return Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache").expanduser() / "factgrain" / "data"


def base_url(explicit: str | None = None) -> str:
    return (explicit or os.environ.get(BASE_URL_ENV) or DEFAULT_BASE_URL).rstrip("/")


def source_url(ds: Dataset, path: str, base: str) -> str:
    return f"{base}/{ds.repo}/{ds.commit}/{path}"


# --------------------------------------------------------------------------- downloading


def _progress(total: int | None, label: str):
    from factgrain import progress

    return progress.bar(total, label)


def download(url: str, target: Path, *, client: httpx.Client, retries: int = 3) -> Path:
    """``url`` -> ``target`` through ``target.part``, resuming a partial file with Range requests."""
    if target.is_file():
        return target
    part = target.with_name(target.name + ".part")
    part.parent.mkdir(parents=True, exist_ok=True)
    last_error: Exception | None = None
    for _ in range(retries + 1):
        have = part.stat().st_size if part.exists() else 0
        # identity: byte ranges and Content-Length then count the file's own bytes, not a gzip stream's
        headers = {"Accept-Encoding": "identity", **({"Range": f"bytes={have}-"} if have else {})}
        try:
            with client.stream("GET", url, headers=headers) as resp:
                if resp.status_code == 416 and have:  # the .part is already whole
                    break
                if resp.status_code >= 400:
                    raise DataFetchError(f"GET {url}: HTTP {resp.status_code} "
                                         f"{resp.read().decode('utf-8', 'replace')[:200]!r}")
                resumed = resp.status_code == 206
                if not resumed:
                    have = 0  # the server sent the whole file: start over
                length = resp.headers.get("content-length")
                total = have + int(length) if length is not None else None
                with part.open("ab" if resumed else "wb") as fh, _progress(total, target.name) as advance:
                    if have:
                        advance(have)
                    for chunk in resp.iter_bytes():  # as received: a dropped connection keeps what came
                        fh.write(chunk)
                        advance(len(chunk))
                if total is not None and part.stat().st_size != total:
                    raise httpx.ReadError(f"got {part.stat().st_size} of {total} bytes")
            break
        except (httpx.TransportError, httpx.RemoteProtocolError) as exc:  # dropped: resume from the .part
            last_error = exc
    else:
        raise DataFetchError(f"download of {url} was interrupted ({type(last_error).__name__}: {last_error}); "
                             f"{part.stat().st_size if part.exists() else 0} bytes kept in {part}: "
                             "run the same command again to resume")
    os.replace(part, target)
    return target


# --------------------------------------------------------------------------- normalizing and writing


def _write_verified(ds: Dataset, rows, dest: Path) -> Path:
    """Serialize ``rows`` to a temporary gzip beside ``dest/<name>.jsonl.gz``, check the sha256 of the
    JSONL, and rename it into place only when it matches."""
    final = dest / f"{ds.name}.jsonl.gz"
    digest, size, n = hashlib.sha256(), 0, 0
    fd, tmp_name = tempfile.mkstemp(prefix=f".{ds.name}.", suffix=".tmp", dir=dest)
    tmp = Path(tmp_name)
    try:
        with os.fdopen(fd, "wb") as raw, gzip.GzipFile(fileobj=raw, mode="wb", mtime=0, filename="") as gz:
            for row in rows:
                line = (json.dumps(row, ensure_ascii=False) + "\n").encode("utf-8")
                digest.update(line)
                size += len(line)
                n += 1
                gz.write(line)
        got = digest.hexdigest()
        if got != ds.sha256:
            raise DataChecksumError(
                f"{ds.name}: the normalized file does not match the catalogue (sha256 {got}, {n} rows, {size} bytes; "
                f"expected {ds.sha256}, {ds.rows} rows, {ds.size} bytes): the sources at {ds.source} were not "
                "what was expected (a corrupted download?) - nothing was written; run the command again to "
                "download them afresh")
        os.replace(tmp, final)
        return final
    finally:
        if tmp.exists():
            tmp.unlink()


def _verified(ds: Dataset, path: Path) -> bool:
    """Whether ``path`` already holds exactly the catalogued file (then nothing is downloaded)."""
    if not path.is_file():
        return False
    digest = hashlib.sha256()
    try:
        with gzip.open(path, "rb") as fh:
            for block in iter(lambda: fh.read(1 << 20), b""):
                digest.update(block)
    except (OSError, EOFError):
        return False
    return digest.hexdigest() == ds.sha256


def fetch(name: str, *, dest: str | Path | None = None, base: str | None = None,
          catalog: dict[str, Dataset] | None = None, client: httpx.Client | None = None,
          retries: int = 3, on_done: Callable[[Dataset, Path], None] | None = None) -> list[Path]:
    """Fetch ``name`` (a catalogued dataset, or ``all``) into ``dest``; returns the written files.

    With ``all``, datasets without a normalizer are reported in one error after the others."""
    from factgrain.evals.normalize import NORMALIZERS

    catalog = CATALOG if catalog is None else catalog
    if name == "all":
        chosen = list(catalog.values())
    elif name in catalog:
        chosen = [catalog[name]]
    else:
        raise InputError(f"unknown dataset {name!r}; known: {', '.join(catalog)} or all")
    missing = [d for d in chosen if not d.fetchable]
    if name != "all" and missing:
        d = missing[0]
        raise NormalizerMissingError(f"{d.name} cannot be fetched yet: {d.missing} (source {d.source}, "
                                     f"{', '.join(d.paths)}); nothing was downloaded")
    out_dir = Path(dest) if dest is not None else default_dest()
    out_dir.mkdir(parents=True, exist_ok=True)
    root = base_url(base)
    written: list[Path] = []
    own_client = client is None
    client = client or httpx.Client(timeout=httpx.Timeout(30.0, read=120.0), follow_redirects=True)
    try:
        for ds in chosen:
            if not ds.fetchable:
                continue
            if _verified(ds, out_dir / f"{ds.name}.jsonl.gz"):
                written.append(out_dir / f"{ds.name}.jsonl.gz")
                if on_done:
                    on_done(ds, written[-1])
                continue
            cache = out_dir / ".sources" / f"{ds.repo.replace('/', '__')}@{ds.commit}"
            files = {p: download(source_url(ds, p, root), cache / p, client=client, retries=retries) for p in ds.fetched_paths}
            try:
                path = _write_verified(ds, NORMALIZERS[ds.normalizer](files), out_dir)  # type: ignore[index]
            except (DataChecksumError, ValueError, KeyError, TypeError) as exc:
                shutil.rmtree(cache, ignore_errors=True)  # suspect sources: the next run downloads afresh
                if isinstance(exc, DataChecksumError):
                    raise
                raise DataChecksumError(f"{ds.name}: the sources at {ds.source} are not in the expected format "
                                        f"({type(exc).__name__}: {exc}); nothing was written") from None
            written.append(path)
            if on_done:
                on_done(ds, path)
        # a source shared by two datasets (qasem_consistency, _qa) is kept until both are built
        shutil.rmtree(out_dir / ".sources", ignore_errors=True)
    finally:
        if own_client:
            client.close()
    if name == "all" and missing:
        raise NormalizerMissingError(
            f"fetched {len(written)} dataset(s); not fetchable yet: "
            + "; ".join(f"{d.name} ({d.missing})" for d in missing))
    return written


def local_status(ds: Dataset, directory: Path | None) -> str:
    """'present' / 'absent' for ``directory/<name>.jsonl.gz`` ('-' when there is no directory)."""
    if directory is None:
        return "-"
    return "present" if (directory / f"{ds.name}.jsonl.gz").is_file() else "absent"
