"""Where each clause of a draft came from, as data: the precedent's own words and a word redline against them.

Owns: `attach_sources` (each section edited from one precedent gets "source_text": the part of that precedent's own
words it came from, as the corpus or the user's library holds them (hybrid.precedents.originals), never the text with
the deal's facts written in; each other section gets "origin": why it has no redline, composed by the engine; and
"start_text": the precedents adapted to the deal, what the filler started from),
`used_part` (the part of a source a section came from: a long source's words before and after it left out),
`word_redline` (what the engine deleted from and inserted into that text, word by word, with difflib) and
`citation_line` (one source as a short line: heading, file, source, license). Knows nothing about models; Draft
(hybrid.draft.result) exposes the results as Draft.sources and Draft.edits, and the DOCX and Markdown forms cite them.
"""

import difflib
import re
import weakref

__all__ = ["attach_sources", "start_text", "word_redline", "written_words", "citation_line", "used_part", "COMPOSED",
           "INDEX", "NO_ORIGINAL"]

_TOKENS = re.compile(r"\s+|[^\s]+")
_INDEX: "weakref.WeakKeyDictionary" = weakref.WeakKeyDictionary()  # library -> {precedent id: Precedent}
COMPOSED = "Composed by the engine"  # every note of a section with no redline opens so
INDEX = f"{COMPOSED}: an index of the terms this draft defines elsewhere (no redline)."
FROM_TEMPLATE = f"{COMPOSED} from the template and the deal's terms (no precedent behind it, no redline)."
LEFT_OUT = 20  # words of a source left out before and after a section's part that its note counts (fewer: a stop)
KEPT = 0.25  # a section and its source sharing less of the shorter one's words: the engine's, not an edit of it
NO_ORIGINAL = "No redline: the precedent's own words are not at hand"  # every such note opens so


def citation_line(p: dict) -> str:
    """One source: "Confidentiality (train/d0.txt, section 3; cuad, CC-BY-4.0)"."""
    section = p.get("id", "").rpartition("#")[2]
    where = f"{p['doc_id']}, section {section}" if section else p["doc_id"]
    return f"{p['heading']} ({where}; {p['source']}, {p.get('license') or 'license unknown'})"


def _origin(library, sec: dict) -> dict:
    """{"source_text": the words sec came from} or {"origin": why it has none}, plus "origin" for a cut source."""
    from hybrid.precedents.originals import original_text

    cites = sec.get("precedents") or []
    if sec.get("indexed"):
        return {"origin": INDEX}
    if not cites:
        return {"origin": FROM_TEMPLATE}
    if len(cites) > 1:
        return {"origin": f"{COMPOSED} from entries of {len(cites)} precedents (listed as its sources; no redline)."}
    original = original_text(library, cites[0]) if library is not None else None
    if not original:
        return {"origin": _no_original(cites[0])}
    part, before, after = used_part(original, sec["body"])
    if part is None:
        return {"origin": f"{COMPOSED}: rewritten from its source, with under {KEPT:.0%} of its wording in common "
                          "(no redline)."}
    if before + after < LEFT_OUT:
        return {"source_text": part}
    total = len(original.split())
    return {"source_text": part, "origin": f"Redlined against the part of its source it came from: {before} words "
                                          f"before it and {after} after it, of {total}, left out."}


def _no_original(cite: dict) -> str:
    """Why a precedent's own words cannot be had, and what brings them back."""
    from hybrid.precedents.user_store import library_of, readd_hint

    if (name := library_of(cite)) is not None:
        return (f"{NO_ORIGINAL}: library {name!r} was added before its clauses' own words were kept; "
                f"{readd_hint(name)} to redline against them.")
    return f"{NO_ORIGINAL}: the corpus it came from is not on this machine."


def start_text(library, citations: list[dict], deal) -> str | None:
    """The text a section was drafted from: its cited precedents' bodies (a composed one cites several), adapted to
    the deal (hybrid.precedents.library.Precedent.adapted: the deal's facts in the markers); None when none is in
    the library. What the filler started from, never a redline's source (the deal's names are in it)."""
    index = _by_id(library)
    bodies = [index[c["id"]].adapted(deal) for c in citations if c.get("id") in index]
    return "\n\n".join(bodies) if bodies else None


def _by_id(library) -> dict:
    index = _INDEX.get(library)
    if index is None or len(index) != len(library.precedents):
        index = _INDEX[library] = {p.id: p for p in library.precedents}
    return index


def attach_sources(drafts, library, template, values: dict) -> None:
    """Set on every section (in place) "source_text" (the precedent's own words) or "origin" (why there is no
    redline), and "start_text" where it cites precedents of `library` (start_text: what the engine started from,
    the measure of what the model wrote: benchmarks/reading.py, evals' pasting system)."""
    from hybrid.skeleton.from_precedents import deal_from_template

    deal = deal_from_template(template, values) if library is not None else None
    for d in drafts:
        for sec in d.sections:
            for key in ("source_text", "origin", "start_text"):
                sec.pop(key, None)
            sec.update(_origin(library, sec))
            start = start_text(library, sec["precedents"], deal) if deal is not None and sec.get("precedents") else None
            if start is not None:
                sec["start_text"] = start


def used_part(source: str, text: str) -> tuple[str | None, int, int]:
    """(the part of `source` that `text` came from, words of source left out before it, words left out after it):
    source's words before its first word `text` keeps and after its last are no part of it, save those `text`
    replaces ("on the Cover Page." -> "in this Agreement.": as many as it writes there, and LEFT_OUT words more).
    (None, 0, 0) where the words text keeps of source are under KEPT of the shorter of the two (a redline of it
    would be all deletions and insertions)."""
    a, b = _TOKENS.findall(source), _TOKENS.findall(text)
    ops = _opcodes(a, b)
    kept = [op for op in ops if op[0] == "equal" and any(t.strip() for t in a[op[1]:op[2]])]
    if not kept or sum(_words(a[op[1]:op[2]]) for op in kept) < KEPT * min(_words(a), _words(b)):
        return None, 0, 0
    lo, hi = kept[0][1], kept[-1][2]
    first, last = ops[0], ops[-1]
    slack = 2 * LEFT_OUT  # tokens (a word and its space each) of a replaced end kept beyond what replaces them
    if first[0] == "replace":
        lo = max(first[1], first[2] - (first[4] - first[3]) - slack)
    if last[0] == "replace":
        hi = min(last[2], last[1] + (last[4] - last[3]) + slack)
    return "".join(a[lo:hi]).strip(), _words(a[:lo]), _words(a[hi:])


def _words(tokens: list[str]) -> int:
    return sum(1 for t in tokens if t.strip())


def word_redline(source: str, text: str) -> list[tuple[str, str]]:
    """[(op, words)] turning `source` into `text`: op is "equal", "delete" (in the source, not in the draft)
    or "insert" (written by the engine); joined, the equal and insert parts give `text` back, the equal and
    delete parts give `source`. Words are compared with their whitespace, so layout is kept."""
    a, b = _TOKENS.findall(source), _TOKENS.findall(text)
    out: list[tuple[str, str]] = []

    def add(op, parts):
        s = "".join(parts)
        if not s:
            return
        if out and out[-1][0] == op:
            out[-1] = (op, out[-1][1] + s)
        else:
            out.append((op, s))

    for tag, i1, i2, j1, j2 in _opcodes(a, b):
        if tag == "equal":
            add("equal", b[j1:j2])
        else:
            add("delete", a[i1:i2])
            add("insert", b[j1:j2])
    return out


def written_words(source: str, text: str) -> int:
    """How many words of `text` are not `source`'s, by a flat diff of their words (case and layout aside): the
    words a draft writes beyond what it started from. word_redline's units (paragraphs, then sentences) keep a
    redline's layout but count a paragraph whose list markers moved as wholly rewritten: a restaurant franchise
    whose lettered paragraphs the start joined read 32% "model words" where a word-level count finds 2.4%
    (session 38)."""
    a, b = source.lower().split(), text.lower().split()
    ops = difflib.SequenceMatcher(None, a, b, autojunk=False).get_opcodes()
    return sum(j2 - j1 for tag, _, _, j1, j2 in ops if tag in ("insert", "replace"))


_BLANK_LINE = re.compile(r"\n[ \t]*\n")
BIG = 4_000_000  # token pairs past which a word-level diff treats very common words as junk (difflib's autojunk)


def _paragraph_end(tokens, i) -> bool:
    return tokens[i].isspace() and _BLANK_LINE.search(tokens[i]) is not None


def _sentence_end(tokens, i) -> bool:
    return tokens[i].isspace() and i > 0 and tokens[i - 1][-1:] in ".;:"


_LEVELS = (_paragraph_end, _sentence_end)  # the units compared before words: paragraphs, then sentences


def _units(tokens, lo, hi, ends) -> list[tuple[int, int]]:
    """tokens[lo:hi] cut after each token where ends(tokens, i): [(start, stop)]."""
    out, start = [], lo
    for i in range(lo, hi):
        if ends(tokens, i):
            out.append((start, i + 1))
            start = i + 1
    if start < hi:
        out.append((start, hi))
    return out


def _opcodes(a, b, alo=0, ahi=None, blo=0, bhi=None, level=0) -> list[tuple]:
    """difflib's opcodes turning tokens a[alo:ahi] into b[blo:bhi], found paragraph by paragraph, then sentence by
    sentence inside a replaced block (one to one where both sides have as many), then word by word: a word-level
    diff of two whole 15,000-word sections took 138 s, this 0.04 s (tests/draft/test_redline_origin.py)."""
    ahi = len(a) if ahi is None else ahi
    bhi = len(b) if bhi is None else bhi
    if level == len(_LEVELS):
        sm = difflib.SequenceMatcher(None, a[alo:ahi], b[blo:bhi], autojunk=(ahi - alo) * (bhi - blo) > BIG)
        return [(t, i1 + alo, i2 + alo, j1 + blo, j2 + blo) for t, i1, i2, j1, j2 in sm.get_opcodes()]
    ua, ub = _units(a, alo, ahi, _LEVELS[level]), _units(b, blo, bhi, _LEVELS[level])
    if len(ua) <= 1 or len(ub) <= 1:
        return _opcodes(a, b, alo, ahi, blo, bhi, level + 1)
    sa = ["".join(a[i:j]) for i, j in ua]
    sb = ["".join(b[i:j]) for i, j in ub]
    out = []
    for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(None, sa, sb, autojunk=False).get_opcodes():
        a0 = ua[i1][0] if i1 < len(ua) else ahi
        a1 = ua[i2 - 1][1] if i2 > i1 else a0
        b0 = ub[j1][0] if j1 < len(ub) else bhi
        b1 = ub[j2 - 1][1] if j2 > j1 else b0
        if tag == "replace":
            out.extend(_replaced(a, b, ua[i1:i2], ub[j1:j2], i1 == j1 == 0, level))
        else:
            out.append((tag, a0, a1, b0, b1))
    return out


def _agree(a, b, ua, ub) -> int:
    """How many units paired in order open alike (their first 40 characters): which end a block's pairing runs from.
    Paired from the end, a 2,000-word section of a cloud form whose trailing heading the revise took out read as
    2,038 words the engine wrote (this session's coherence run: the model's share of hosting's words 0.36)."""
    return sum("".join(a[i:j]).strip()[:40] == "".join(b[p:q]).strip()[:40] for (i, j), (p, q) in zip(ua, ub))

def _replaced(a, b, ua, ub, first: bool, level: int) -> list[tuple]:
    """The opcodes of a block of units ua of a replaced by units ub of b: unit paired with unit, each diffed at the
    next level, from the block's end where it opens the text (the units a section kept sit before its first equal
    one: "Term 200" edited, "Term 0".."Term 199" unused), else from its start; the units left over deleted or
    inserted whole."""
    k = min(len(ua), len(ub))
    if first and _agree(a, b, ua[:k], ub[:k]) > _agree(a, b, ua[len(ua) - k:], ub[len(ub) - k:]):
        first = False  # what went is at the end: a hosting section's trailing heading had shifted every pair
    pairs = list(zip(ua[len(ua) - k:], ub[len(ub) - k:])) if first else list(zip(ua[:k], ub[:k]))
    rest_a, rest_b = (ua[: len(ua) - k], ub[: len(ub) - k]) if first else (ua[k:], ub[k:])
    extra = []
    if rest_a:
        at = rest_b[0][0] if rest_b else (pairs[0][1][0] if first else pairs[-1][1][1])
        extra.append(("delete", rest_a[0][0], rest_a[-1][1], at, at))
    if rest_b:
        at = rest_a[-1][1] if rest_a else (pairs[0][0][0] if first else pairs[-1][0][1])
        extra.append(("insert", at, at, rest_b[0][0], rest_b[-1][1]))
    paired = [op for (x0, x1), (y0, y1) in pairs for op in _opcodes(a, b, x0, x1, y0, y1, level + 1)]
    return extra + paired if first else paired + extra
