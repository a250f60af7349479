"""Verb inflection for writing QA-SRL questions: the past and participle of a lemma.

spaCy tells which words are verbs and gives their lemma; it does not inflect. A question about a
gerund or an infinitive needs the past form ("after finishing third" -> "who finished
something?"), and a QANom question about a noun needs its verb's participle ("the examination of
a man" -> "who was examined?"). Irregular forms come from the table, regular ones from the usual
spelling rules.
"""

from __future__ import annotations

# base past participle
_IRREGULAR_TABLE = """
arise arose arisen; awake awoke awoken; bear bore born; beat beat beaten; become became become;
begin began begun; bend bent bent; bet bet bet; bind bound bound; bite bit bitten; bleed bled bled;
blow blew blown; break broke broken; breed bred bred; bring brought brought; broadcast broadcast broadcast;
build built built; burn burnt burnt; burst burst burst; buy bought bought; catch caught caught;
choose chose chosen; cling clung clung; come came come; cost cost cost; creep crept crept; cut cut cut;
deal dealt dealt; dig dug dug; do did done; draw drew drawn; dream dreamt dreamt; drink drank drunk;
drive drove driven; eat ate eaten; fall fell fallen; feed fed fed; feel felt felt; fight fought fought;
find found found; flee fled fled; fly flew flown; forbid forbade forbidden; forget forgot forgotten;
forgive forgave forgiven; freeze froze frozen; get got got; give gave given; go went gone;
grow grew grown; hang hung hung; have had had; hear heard heard; hide hid hidden; hit hit hit;
hold held held; hurt hurt hurt; keep kept kept; know knew known; lay laid laid; lead led led;
leave left left; lend lent lent; let let let; lie lay lain; light lit lit; lose lost lost; make made made;
mean meant meant; meet met met; overcome overcame overcome; pay paid paid; prove proved proven;
put put put; quit quit quit; read read read; ride rode ridden; ring rang rung; rise rose risen;
run ran run; say said said; see saw seen; seek sought sought; sell sold sold; send sent sent;
set set set; shake shook shaken; shed shed shed; shine shone shone; shoot shot shot; show showed shown;
shrink shrank shrunk; shut shut shut; sing sang sung; sink sank sunk; sit sat sat; sleep slept slept;
slide slid slid; speak spoke spoken; spend spent spent; spin spun spun; split split split;
spread spread spread; spring sprang sprung; stand stood stood; steal stole stolen; stick stuck stuck;
sting stung stung; strike struck struck; strive strove striven; swear swore sworn; sweep swept swept;
swim swam swum; swing swung swung; take took taken; teach taught taught; tear tore torn; tell told told;
think thought thought; throw threw thrown; undergo underwent undergone; understand understood understood;
undertake undertook undertaken; upset upset upset; wake woke woken; wear wore worn; weep wept wept;
win won won; wind wound wound; withdraw withdrew withdrawn; write wrote written; forecast forecast forecast;
outgrow outgrew outgrown; overtake overtook overtaken; oversee oversaw overseen; rebuild rebuilt rebuilt;
retell retold retold; rewrite rewrote rewritten; withhold withheld withheld; uphold upheld upheld;
be was been
"""


def _irregular() -> dict[str, tuple[str, str]]:
    out = {}
    for entry in _IRREGULAR_TABLE.replace("\n", " ").split(";"):
        parts = entry.split()
        if len(parts) == 3:
            out[parts[0]] = (parts[1], parts[2])
    return out


IRREGULAR = _irregular()
_VOWELS = set("aeiou")
# Stems whose final consonant doubles although they are longer than the short-word rule allows.
_DOUBLING = {"kidnap", "admit", "commit", "submit", "permit", "omit", "transfer", "refer", "prefer", "occur",
             "control", "patrol", "compel", "expel", "propel", "equip", "regret", "upset", "forget", "begin"}


def _doubles(base: str) -> bool:
    """stop -> stopped, but visit -> visited: short consonant-vowel-consonant stems (and a few
    longer ones stressed on the last syllable)."""
    if base in _DOUBLING:
        return True
    return (3 <= len(base) <= 4 and base[-1] not in _VOWELS | {"w", "x", "y"}
            and base[-2] in _VOWELS and base[-3] not in _VOWELS)


def regular_past(base: str) -> str:
    if base.endswith("e"):
        return base + "d"
    if base.endswith("y") and base[-2:-1] not in _VOWELS:
        return base[:-1] + "ied"
    if _doubles(base):
        return base + base[-1] + "ed"
    return base + "ed"


def past(base: str) -> str:
    """The simple past of a lemma ('find' -> 'found', 'establish' -> 'established')."""
    base = base.lower()
    return IRREGULAR[base][0] if base in IRREGULAR else regular_past(base)


def participle(base: str) -> str:
    """The past participle of a lemma ('give' -> 'given', 'examine' -> 'examined')."""
    base = base.lower()
    return IRREGULAR[base][1] if base in IRREGULAR else regular_past(base)


def third_person(base: str) -> str:
    base = base.lower()
    if base in ("have", "be", "do", "go"):
        return {"have": "has", "be": "is", "do": "does", "go": "goes"}[base]
    if base.endswith(("s", "sh", "ch", "x", "z", "o")):
        return base + "es"
    if base.endswith("y") and base[-2:-1] not in _VOWELS:
        return base[:-1] + "ies"
    return base + "s"
