"""A small English verb lexicon: which words are verb forms, and their base / past / participle.

Enough morphology to spot verbs without a tagger and to write QA-SRL questions ("what did
someone establish?"); not a full inflection engine. Regular forms are derived from the base list
with the usual spelling rules; irregular ones come from the table.
"""

from __future__ import annotations

from functools import lru_cache

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
retell retold retold; rewrite rewrote rewritten; withhold withheld withheld; uphold upheld upheld
"""

# Common regular verbs (base forms). Chosen for news and biography text; a word missing here is
# still found by its -ed/-ing ending or its position after an auxiliary.
_REGULAR = """
accept accuse achieve acquire act add address adjourn admit adopt affect agree aim allow announce
answer appear apply appoint approve argue arrest arrive ask assess attack attempt attend attract
avoid award back ban base believe belong benefit block boost borrow call campaign cancel capture
care carry cause celebrate change charge check claim clear close collapse collect combine comment
compete complain complete concern confirm consider contain continue contribute control convict
cook cover create criticise criticize cross damage dance date debut decide declare decline defeat
defend delay deliver demand deny depend describe design destroy detain develop die direct
discover discuss dismiss display donate drop earn educate elect employ enable encourage end
endorse enjoy enter escape establish estimate evacuate examine expand expect experience explain
explode express extend face fail feature file fill finish fire fix focus follow force form found
fund gain graduate grant guide handle happen hate head help hire hope host identify ignore
impose improve include increase inform injure inquire insist install intend introduce invest
investigate invite involve issue join judge jump kick kill kiss label land last laugh launch
learn like limit link list listen live load look love manage march mark marry matter miss move
murder name need note notice obtain occur offer open operate order organise organize own paint
pass perform pick place plan play please point post praise pray prefer prepare present press
prevent produce promise promote protect protest provide publish pull punish push question race
raise rank reach receive recognise recognize record recover reduce refer refuse reject release
rely remain remember remove rename repeat replace report represent require rescue research
resign respond rest restore result retire return reveal review rob roll rule sail save score
search seem serve settle share shop sign smoke solve spark star start state stay step stop
study succeed suffer suggest supply support suppose surprise survive suspect suspend talk
target tend test thank train transfer travel treat trust try turn urge use vote wait walk want
warn watch welcome wish witness wonder work worry believe include prohibit exist repair cope
volunteer express fold unfold bond exercise encourage lower feature star tackle bike roll airlift
nominate diagnose adjourn kidnap free adapt appear credit discuss predict recommend reside retain
travel tour compose direct produce educate marry divorce graduate raise relocate lessen define
deserve involve regard consist seek obtain measure allow pray weigh rate cast film shoot act
"""

_BE = {"be", "is", "are", "was", "were", "been", "being", "am", "'s", "'re", "'m"}
_HAVE = {"have", "has", "had", "having", "'ve", "'d"}
_DO = {"do", "does", "did"}
MODALS = {"will", "would", "can", "could", "shall", "should", "may", "might", "must", "'ll"}


def _irregular() -> dict[str, tuple[str, str]]:
    out = {}
    for entry in _IRREGULAR_TABLE.replace("\n", " ").split(";"):
        parts = entry.split()
        if len(parts) == 3:
            out[parts[0]] = (parts[1], parts[2])
    return out


IRREGULAR = _irregular()
REGULAR = frozenset(_REGULAR.split())
BASES = frozenset(REGULAR | IRREGULAR.keys())
_VOWELS = set("aeiou")


def _doubles(base: str) -> bool:
    """stop -> stopped, but visit -> visited: short consonant-vowel-consonant stems only."""
    return (len(base) <= 4 and len(base) >= 3 and base[-1] not in _VOWELS | {"w", "x", "y"}
            and base[-2] in _VOWELS and base[-3] not in _VOWELS)


def third_person(base: str) -> str:
    if base in ("have", "be", "do", "go"):
        return {"have": "has", "be": "is", "do": "does", "go": "goes"}[base]
    if base.endswith(("s", "sh", "ch", "x", "z", "o")):
        return base + "es"
    if base.endswith("y") and base[-2:-1] not in _VOWELS:
        return base[:-1] + "ies"
    return base + "s"


def regular_past(base: str) -> str:
    if base.endswith("e"):
        return base + "d"
    if base.endswith("y") and base[-2:-1] not in _VOWELS:
        return base[:-1] + "ied"
    if _doubles(base):
        return base + base[-1] + "ed"
    return base + "ed"


def gerund(base: str) -> str:
    if base.endswith("ie"):
        return base[:-2] + "ying"
    if base.endswith("e") and not base.endswith(("ee", "ye", "oe")) and base != "be":
        return base[:-1] + "ing"
    if _doubles(base):
        return base + base[-1] + "ing"
    return base + "ing"


def past(base: str) -> str:
    if base == "be":
        return "was"
    return IRREGULAR[base][0] if base in IRREGULAR else regular_past(base)


def participle(base: str) -> str:
    if base == "be":
        return "been"
    return IRREGULAR[base][1] if base in IRREGULAR else regular_past(base)


@lru_cache(maxsize=1)
def _form_table() -> dict[str, dict[str, str]]:
    """Every known form -> {kind: base}, kind one of base / s / past / pp / ing ('found' is both
    the past of 'find' and the base of 'found'; 'put' is a base, a past and a participle)."""
    table: dict[str, dict[str, str]] = {}
    for base in sorted(BASES):
        for form, kind in ((base, "base"), (third_person(base), "s"), (past(base), "past"),
                           (participle(base), "pp"), (gerund(base), "ing")):
            table.setdefault(form, {}).setdefault(kind, base)
    return table


_PRIORITY = ("past", "pp", "ing", "s", "base")


def lookup(word: str) -> tuple[str, str] | None:
    """(base, kind) of a known verb form, else None; a form of several kinds reports the first of
    past / pp / ing / s / base."""
    entry = _form_table().get(word.lower())
    if not entry:
        return None
    kind = next(k for k in _PRIORITY if k in entry)
    return entry[kind], kind


def kinds(word: str) -> set[str]:
    """All the kinds a known verb form can be (empty for unknown words)."""
    return set(_form_table().get(word.lower(), {}))


def guess_base(word: str) -> str:
    """The base form of a verb form, from the lexicon or from spelling rules for unknown words."""
    w = word.lower()
    known = lookup(w)
    if known:
        return known[0]
    for suffix in ("ied", "ies"):
        if w.endswith(suffix) and len(w) > 4:
            return w[:-3] + "y"
    for suffix in ("ing", "ed"):
        if w.endswith(suffix) and len(w) > len(suffix) + 2:
            stem = w[: -len(suffix)]
            if len(stem) > 2 and stem[-1] == stem[-2] and stem[-1] not in "lsfz":
                return stem[:-1]  # planned -> plan
            if stem.endswith(("at", "iz", "is", "os", "us", "ur", "uc", "v", "c", "g", "dg", "iv", "ot")) and not stem.endswith(("ss", "ng")):
                return stem + "e"  # diagnosed -> diagnose, located -> locate
            return stem
    if w.endswith("es") and w[:-2].endswith(("sh", "ch", "ss", "x")):
        return w[:-2]
    if w.endswith("s") and not w.endswith("ss") and len(w) > 3:
        return w[:-1]
    return w


def guess_past(base: str) -> str:
    return past(base) if base in BASES or base == "be" else regular_past(base)


def is_aux(word: str) -> bool:
    w = word.lower()
    return w in _BE or w in _HAVE or w in _DO or w in MODALS


def is_be(word: str) -> bool:
    return word.lower() in _BE
