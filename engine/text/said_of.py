"""What a direction word is said of: the words whose quantity or quality it moves.

"The compliance to VD supplementation is lower in subjects without fractures" says
*compliance* is lower; neither the supplementation nor the fractures are. Coverage asks
this of a source before a direction it states ("lower") may stand for the one a question
asks ("Does vitamin D supplementation reduce fractures?").

The reading is shallow on purpose and errs towards saying less is said of a word, never
more: a miss leaves the relation to the stance to read (the answer then stands at most
hedged), a false reading would let an answer about something else go green.

- Before a word (after articles, adverbs and numbers), the direction word is an attribute
  or a transitive verb: it is said of the phrase that follows ("lower fracture rates",
  "reduced the risk of hip fracture"), which runs on through "of" and stops at any other
  preposition, a clause word or a punctuation mark.
- A noun of change ("a reduction in fractures", "an increase of 20 % in deaths") is said of
  the phrase after its "in", "of" or "on".
- Otherwise (a predicate: "was significantly lower in women", "fractures decreased") it is
  said of its subject: the phrase before it, back over copulas, auxiliaries, adverbs and
  numbers to the clause's start, up to the subject's first preposition other than "of"
  ("the compliance to VD supplementation" is said of "the compliance").
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass

from engine.text.lexicon import STOP_WORDS, direction, link_strength
from engine.text.stems import mention_stem, mentions

# Words (a hyphenated compound is one) and the punctuation marks that end a clause.
_PIECE = re.compile(r"[^\W_]+(?:-[^\W_]+)*|[,;:()\[\]{}]")
_MARKS = frozenset(",;:()[]{}")

# Words that open a clause of their own: nothing before one is said of by what follows.
_CLAUSE_WORDS = frozenset(
    """
    that which who whom whose whereas while but although though because since when where if
    whether than unless until after before once however yet thus therefore hence so
    """.split()  # noqa: SIM905
)
# Prepositions that attach a place, a group, a cause or a comparison, never the thing
# itself; "of" is the one that keeps to it ("the risk of fracture").
_PREPOSITIONS = frozenset(
    """
    in on at to for with without among amongst between by from into onto during within across
    over under through throughout versus vs compared relative per via despite like unlike
    following upon against toward towards beyond around including except about as
    """.split()  # noqa: SIM905
)
# Words a predicate's direction word is read past on the way back to its subject.
_LINKING = frozenset(
    """
    is are was were be been being am has have had may might can could will would should shall
    must did does do remained remains remain became become becomes appeared appears seemed
    seems got get gets not no also still further even much far both either all
    """.split()  # noqa: SIM905
)
_ARTICLES = frozenset("a an the this these that those its their our".split())  # noqa: SIM905
# Nouns of change: said of what follows their "in", "of" or "on".
_CHANGE_NOUNS = frozenset(
    """
    increase increases decrease decreases reduction reductions rise rises decline declines drop
    drops fall falls loss losses gain gains elevation elevations improvement improvements
    deterioration worsening lowering raising enhancement suppression inhibition attenuation
    """.split()  # noqa: SIM905
)
# A direction word with one of these endings is a noun of change too ("activation of AMPK").
_CHANGE_ENDINGS = ("tion", "tions", "ment", "ments", "ance", "ence", "ade")
_CHANGE_LINKS = frozenset(("in", "of", "on"))
_COPULAS = frozenset("is are was were be been being".split())  # noqa: SIM905
# A parenthesis of at most this many words is an abbreviation or gloss, read inline.
_GLOSS = 4
# Words that say how much a thing moved, never what moved ("decreased 20 percent").
_MEASURES = frozenset("percent percentage fold times point points unit units".split())  # noqa: SIM905
# Words ending in "ly" that are no adverbs, so a phrase runs on over them.
_NOT_ADVERBS = frozenset(
    """
    family anomaly assembly supply monopoly elderly early daily weekly monthly yearly italy july
    """.split()  # noqa: SIM905
)


@dataclass(frozen=True)
class Said:
    """One direction word of a text and the lower-cased words it is said of."""

    word: str
    axis: str
    sign: int
    of: tuple[str, ...]

    @functools.cached_property
    def stem(self) -> str:
        """The direction word's mention stem."""
        return mention_stem(self.word)

    @functools.cached_property
    def of_stems(self) -> frozenset[str]:
        """The mention stems of the words it is said of: read once, as `said_of` readings
        are cached and met against every question word."""
        return frozenset(mention_stem(w) for w in self.of)


@functools.lru_cache(maxsize=4096)
def said_of(text: str) -> tuple[Said, ...]:
    """Every direction word of `text` (stop words aside) with the words it is said of.

    A direction inside a compound ("TB-induced granulomas", "up-regulated genes") is read
    as the compound's: said of what the compound is said of. A short parenthesis (an
    abbreviation, a gloss: "adverse drug events (ADEs)") is read as part of the phrase
    around it; a longer one ends a phrase like any punctuation mark.
    """
    pieces = _inline_glosses(_PIECE.findall(text.lower()))
    found = []
    following = ""
    after: list[str] = []
    for piece in reversed(pieces):
        after.append(following)
        if piece not in _MARKS:
            following = piece
    after.reverse()
    for i, piece in enumerate(pieces):
        if piece in _MARKS:
            continue
        cue = _cue(piece, after[i].split("-")[0])
        if cue is not None:
            word, axis, sign = cue
            of = tuple(part for w in _target(pieces, i) for part in w.split("-"))
            found.append(Said(word, axis, sign, of))
    return tuple(found)


def _inline_glosses(pieces: list[str]) -> list[str]:
    """`pieces` with the brackets of each parenthesis of at most `_GLOSS` words dropped."""
    out: list[str] = []
    i = 0
    while i < len(pieces):
        if pieces[i] in "([":
            close = next((k for k in range(i + 1, len(pieces)) if pieces[k] in _MARKS), None)
            if close is not None and pieces[close] in ")]" and close - i - 1 <= _GLOSS:
                out.extend(pieces[i + 1 : close])
                i = close + 1
                continue
        out.append(pieces[i])
        i += 1
    return out


def _cue(piece: str, following: str) -> tuple[str, str, int] | None:
    """The direction word of a piece (a part of a compound) with its axis and sign."""
    parts = piece.split("-")
    for k, part in enumerate(parts):
        if part in STOP_WORDS and part not in ("up", "down"):
            continue
        found = direction(part, parts[k + 1] if k + 1 < len(parts) else following)
        if found is not None:
            return part, found[0], found[1]
    return None


def _target(pieces: list[str], at: int) -> tuple[str, ...]:
    if _adverb(pieces[at]) and _links(pieces, at + 1):
        # "X was inversely associated with Y": the direction is said of the link's two sides.
        return _subject(pieces, at) + _after(pieces, at + 2)
    if _only_noun(pieces[at]) and not _linked_on(pieces, at):
        # A noun of change with no "of" or "in" names what its modifiers do ("cognitive
        # impairment", "AMPK activation"), when it has any.
        modifiers = _modifiers(pieces, at)
        if modifiers:
            return modifiers
    after = _after(pieces, at)
    if not after or set(after) <= _MEASURES:
        return _subject(pieces, at)
    if _named(pieces, at):
        # "Amitriptyline is an effective drug": said of the drug, which is amitriptyline.
        return _subject(pieces, at) + after
    return after


def _linked_on(pieces: list[str], at: int) -> bool:
    return at + 1 < len(pieces) and pieces[at + 1] in _CHANGE_LINKS


def _modifiers(pieces: list[str], at: int) -> tuple[str, ...]:
    """The words right before a noun that modify it ("cognitive" of "cognitive impairment")."""
    i = at - 1
    while i >= 0 and _modifier(pieces[i]):
        i -= 1
    return tuple(pieces[i + 1 : at])


def _modifier(piece: str) -> bool:
    stop = _breaks(piece) or piece in _PREPOSITIONS
    return not (stop or piece in _ARTICLES or piece in _LINKING or piece in STOP_WORDS) and (
        not _adverb(piece) and _cue(piece, "") is None
    )


def _named(pieces: list[str], at: int) -> bool:
    """Whether the direction word sits in a predicate noun ("X is an effective drug", "Is X
    an effective drug?"): after "a" or "an", in a clause with a copula before it."""
    i = at - 1
    while i >= 0 and _adverb(pieces[i]):
        i -= 1
    if i < 1 or pieces[i] not in ("a", "an"):
        return False
    return any(p in _COPULAS for p in pieces[_clause_start(pieces, i) : i])


def _links(pieces: list[str], at: int) -> bool:
    """Whether a link word ("associated", "correlated") followed by "with" or "to" is at `at`."""
    return (
        at + 1 < len(pieces)
        and link_strength(pieces[at]) is not None
        and pieces[at + 1] in ("with", "to")
    )


def _after(pieces: list[str], at: int) -> tuple[str, ...]:
    """The phrase a direction word before it is said of (empty when none follows)."""
    i = at + 1
    if _change_noun(pieces[at]) and i < len(pieces) and pieces[i] in _CHANGE_LINKS:
        i += 1
    while i < len(pieces) and (_skipped(pieces[i]) or pieces[i] in _ARTICLES):
        i += 1
    phrase: list[str] = []
    while i < len(pieces) and _in_phrase(pieces[i], phrase[-1] if phrase else ""):
        phrase.append(pieces[i])
        i += 1
    return tuple(w for w in phrase if w not in _ARTICLES)


def _in_phrase(piece: str, before: str) -> bool:
    """Whether `piece` goes on the phrase whose last piece is `before` ("" for none yet)."""
    if _breaks(piece) or piece in _PREPOSITIONS:
        return False
    if piece in _LINKING or _adverb(piece):
        return False
    if not before:
        return piece not in ("and", "or", "of")
    if before in ("of", "and", "or") or before in _ARTICLES:
        return True  # an attribute ("the risk of failed punctures")
    # An "-ed" word inside the phrase is a verb or a participle's clause ("lower income
    # predicted relapse", "fewer patients treated with X"), and another direction word is a
    # relation of its own ("loss of cells promotes invasion").
    verb = piece.endswith("ed") and len(piece) > 4 and "-" not in piece
    return not verb and _cue(piece, "") is None


def _subject(pieces: list[str], at: int) -> tuple[str, ...]:
    """The head of the subject a predicate's direction word is said of.

    A participle set off by a comma ("Cdk5, activated by DNA damage,") is said of the
    phrase before the comma.
    """
    i = at - 1
    while i >= 0 and (_skipped(pieces[i]) or pieces[i] in _ARTICLES):
        i -= 1
    if i >= 1 and pieces[i] == ",":
        i -= 1
    end = i + 1
    start = _clause_start(pieces, end)
    clause = pieces[start:end]
    if clause in (["and"], ["or"]) and start >= 2 and pieces[start - 1] == ",":
        # A second predicate of one subject ("Incidence varied …, and was higher"): the
        # subject opens the clause before the comma.
        return _subject(pieces, _clause_start(pieces, start - 1) + 1)
    if clause and clause[0] in _PREPOSITIONS:
        # A clause that opens on a phrase of place or group ("in women fracture rates"):
        # the subject is what follows its last preposition.
        cut = max(k for k, w in enumerate(clause) if w in _PREPOSITIONS)
        head = clause[cut + 1 :]
    else:
        cut = next((k for k, w in enumerate(clause) if w in _PREPOSITIONS), len(clause))
        head = clause[:cut]
    return tuple(w for w in head if w not in _ARTICLES and w not in _LINKING)


def _clause_start(pieces: list[str], end: int) -> int:
    """Where the clause that runs up to `end` (exclusive) starts: after the last mark or
    clause word before it."""
    while end > 0 and not _breaks(pieces[end - 1]):
        end -= 1
    return end


def _breaks(piece: str) -> bool:
    """Whether a piece ends a clause: a punctuation mark or a word that opens another."""
    return piece in _MARKS or piece in _CLAUSE_WORDS


def _skipped(piece: str) -> bool:
    """A word read past between a direction word and what it is said of."""
    return piece in _LINKING or piece in _MEASURES or _number(piece) or _adverb(piece)


def _number(piece: str) -> bool:
    return piece.replace("-", "").isdigit()


def _adverb(piece: str) -> bool:
    return piece.endswith("ly") and len(piece) > 4 and piece not in _NOT_ADVERBS


def _only_noun(piece: str) -> bool:
    """A noun of change that is no verb too ("impairment", "loss"; not "increase")."""
    last = piece.split("-")[-1]
    noun = last in ("loss", "losses") or last.endswith(_CHANGE_ENDINGS)
    return noun and _cue(last, "") is not None


def _change_noun(piece: str) -> bool:
    """A noun of change, whether or not it is a verb too ("increase", "impairment")."""
    return piece.split("-")[-1] in _CHANGE_NOUNS or _only_noun(piece)


def moved_alike(claim: str, sentence: str) -> bool | None:
    """Whether `sentence` moves something `claim` moves, on an axis the claim moves it on.

    True when a direction word of the sentence is said of a content word (by mention stem)
    that a direction word of the claim on the same axis is said of; None when the claim's
    direction words are said of no content word, so this reading cannot tell.
    """
    moved: dict[str, set[str]] = {}
    for said in said_of(claim):
        moved.setdefault(said.axis, set()).update(_content(said.of))
    if not any(moved.values()):
        return None
    return any(
        mentions(stem, moved.get(said.axis, set()))
        for said in said_of(sentence)
        for stem in _content(said.of)
    )


def _content(words: tuple[str, ...]) -> set[str]:
    return {mention_stem(w) for w in words if w not in STOP_WORDS and not w.isdigit()}
