"""A lawyer's review of a finished draft, kept with its job: a section's text edited in place, and each change
against the precedent's own words accepted or rejected, as in a word processor's review pane.

Owns: Review (one job's edits and decisions, by (variant rank, section index)), `changes` (a section's redline cut
into changes, each an id that stays while other changes are decided: where it starts in the base and what it
deletes and inserts), `edit_ops` (the lawyer's edit of the engine's text, found where it was made), what the page
shows of a section under review (`section_state`) and the tracked changes its DOCX carries (`tracked`: a change
accepted is plain text, one rejected is gone, one pending is tracked, written by the engine or by the reviewer).
The base a section is reviewed against is its precedent's own words where it has them (hybrid.draft.provenance:
"source_text"), else the engine's text: a composed section's only changes are the
lawyer's. Knows nothing of routes (hybrid.serve.app) or of how a draft is drafted.
"""

import difflib
import hashlib
import re
import threading
from dataclasses import dataclass, field

from hybrid.common.textsafe import shown
from hybrid.serve.forms import RequestError

__all__ = ["Review", "ReviewConflict", "changes", "edit_ops", "section_state", "tracked", "check_text",
           "MAX_SECTION_CHARS", "REVIEWER", "DECISIONS"]

MAX_SECTION_CHARS = 100_000  # one section's edited text: a long Definitions section fits, and its diff stays quick
REVIEWER = "workbench reviewer"  # the author of the lawyer's own changes in a redline DOCX (the engine's: "hybrid")
DECISIONS = ("accept", "reject")
_ALLOWED_CONTROLS = "\n\t"
_TOKENS = re.compile(r"\s+|[^\s]+")  # words and the whitespace between them, as the redline compares them
BIG = 4_000_000  # token pairs past which an edit's diff treats very common words as junk (difflib's autojunk)


class ReviewConflict(RequestError):
    """A decision about a change the section no longer holds, or an edit of a draft with no variants (409)."""


@dataclass
class _Section:
    text: str | None = None  # the lawyer's text; None: the engine's
    accepted: set = field(default_factory=set)  # ids of the changes accepted


def check_text(text) -> str | None:
    """An edit's text, its line ends made "\\n"; None restores the engine's text. RequestError (field "text") for
    anything else: not text, empty, longer than MAX_SECTION_CHARS, or holding a control character."""
    if text is None:
        return None
    if not isinstance(text, str):
        raise RequestError(f"text must be the section's words as a string, or null to restore the engine's text; "
                           f"got {shown(text)}.", "text")
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    if not text.strip():
        raise RequestError("a section's text cannot be empty: write its words, or send null to restore the "
                           "engine's text.", "text")
    if len(text) > MAX_SECTION_CHARS:
        raise RequestError(f"a section's text is at most {MAX_SECTION_CHARS} characters, got {len(text)}.", "text")
    bad = next((i for i, c in enumerate(text) if c < " " and c not in _ALLOWED_CONTROLS), None)
    if bad is not None:
        raise RequestError(f"text holds a control character (U+{ord(text[bad]):04X}) at character {bad + 1}: paste "
                           "the words as plain text.", "text")
    return text.strip("\n")


def edit_ops(old: str, new: str) -> list[tuple[str, str]]:
    """[(op, words)] turning `old` into `new` ("equal", "delete", "insert"), word by word around what the two share at
    their start and end: an edit is local, so it is found where it was made (the redline's paragraph-then-sentence
    diff, hybrid.draft.provenance.word_redline, pairs a section with a paragraph added from its end)."""
    a, b = _TOKENS.findall(old), _TOKENS.findall(new)
    lo = 0
    while lo < min(len(a), len(b)) and a[lo] == b[lo]:
        lo += 1
    hi = 0
    while hi < min(len(a), len(b)) - lo and a[-1 - hi] == b[-1 - hi]:
        hi += 1
    mid_a, mid_b = a[lo:len(a) - hi], b[lo:len(b) - hi]
    ops = [("equal", "".join(a[:lo]))]
    sm = difflib.SequenceMatcher(None, mid_a, mid_b, autojunk=len(mid_a) * len(mid_b) > BIG)
    for tag, i1, i2, j1, j2 in sm.get_opcodes():
        if tag == "equal":
            ops.append(("equal", "".join(mid_a[i1:i2])))
        else:
            ops += [("delete", "".join(mid_a[i1:i2])), ("insert", "".join(mid_b[j1:j2]))]
    ops.append(("equal", "".join(a[len(a) - hi:])))
    return [(op, words) for op, words in ops if words]


def _change_id(at: int, delete: str, insert: str) -> str:
    digest = hashlib.sha1(f"{delete}\x00{insert}".encode()).hexdigest()[:8]
    return f"{at}-{digest}"


def changes(base: str, text: str) -> list[dict]:
    """`text` against `base` as segments in order: {"text"} where they agree, and one {"change": id, "delete",
    "insert", "at" (its start in base), "to" (its start in text)} per run of deleted and inserted words. Joined,
    texts and inserts give `text`; texts and deletes give `base`."""
    from hybrid.draft.provenance import word_redline

    out, at, to = [], 0, 0
    for op, words in word_redline(base, text):
        if op == "equal":
            out.append({"text": words})
            at, to = at + len(words), to + len(words)
            continue
        if not out or "text" in out[-1]:
            out.append({"delete": "", "insert": "", "at": at, "to": to})
        out[-1][op] += words
        at += len(words) if op == "delete" else 0
        to += len(words) if op == "insert" else 0
    for seg in out:
        if "at" in seg:
            seg["change"] = _change_id(seg["at"], seg["delete"], seg["insert"])
    return out


def _base(section: dict) -> tuple[str, str]:
    """(the words a section is reviewed against, whose: "precedent" or "engine")."""
    return (section["source_text"], "precedent") if section.get("source_text") else (section["body"], "engine")


def _items(base: str, body: str, text: str | None) -> list[list]:
    """[kind, words, by] in order: the engine's changes of base into body with the lawyer's of body into text laid
    over them, so an edit is never read as a new diff of the whole (which may align otherwise). kind "text" (base's
    words kept), "delete" (base's words gone), "insert" (new words) or "touch" (the lawyer removed words the engine
    inserted); by "engine" or "you"."""
    own, anchors = [], {}  # per character of body: True where it is base's own; engine deletions by body position
    for seg in changes(base, body):
        if "text" in seg:
            own.extend([True] * len(seg["text"]))
        else:
            anchors[len(own)] = seg["delete"]
            own.extend([False] * len(seg["insert"]))
    items: list[list] = []

    def add(kind, words, by):
        if items and items[-1][0] == kind and items[-1][2] == by:
            items[-1][1] += words
        else:
            items.append([kind, words, by])

    def anchor(at):
        if anchors.get(at):
            add("delete", anchors.pop(at), "engine")

    at = 0
    for op, words in [("equal", body)] if text is None else edit_ops(body, text):
        if op == "insert":
            anchor(at)
            add("insert", words, "you")
            continue
        for ch in words:
            anchor(at)
            if op == "equal":
                add(*(("text", ch, None) if own[at] else ("insert", ch, "engine")))
            else:
                add(*(("delete", ch, "you") if own[at] else ("touch", "", "you")))
            at += 1
    anchor(at)
    return items


def _segments(section: dict, text: str | None) -> list[dict]:
    """The section's text now against its base, as changes() cuts it, each change with "by": "you" where the lawyer
    made or touched any of it, else "engine" (the lawyer's words beside an engine's change are a change of their
    own). A change of the lawyer's is diffed within itself, so words it gives back are the base's again: a rejected
    change's words, typed or restored, are no change."""
    base, _ = _base(section)
    grouped: list[dict] = []
    for kind, words, by in _items(base, section["body"], text):
        if kind == "text":
            grouped.append({"text": words})
            continue
        last = grouped[-1] if grouped and "text" not in grouped[-1] else None
        if last is None or (kind != "touch" and by != last["last"] and not last["touched"]):
            last = {"delete": "", "insert": "", "by": by, "last": by, "touched": False}  # one author's, unless touched
            grouped.append(last)
        if kind == "touch":
            last["touched"], last["by"] = True, "you"
        else:
            last[kind] += words
            last["last"], last["by"] = by, "you" if by == "you" else last["by"]
    out: list[dict] = []
    for seg in grouped:
        ops = edit_ops(seg["delete"], seg["insert"]) if seg.get("by") == "you" else None
        fresh = True  # the group's first change is its own, never added to a change before it
        for op, words in ops or [("text" if "text" in seg else "change", seg)]:
            if op == "change":
                out.append({k: seg[k] for k in ("delete", "insert", "by")})
            elif op in ("text", "equal"):
                words = words["text"] if op == "text" else words
                if out and "text" in out[-1]:
                    out[-1]["text"] += words
                else:
                    out.append({"text": words})
            else:
                if fresh or "text" in out[-1]:
                    out.append({"delete": "", "insert": "", "by": "you"})
                out[-1][op] += words
            fresh = op in ("text", "equal") and fresh
    at = to = 0
    for seg in out:
        if "text" in seg:
            at, to = at + len(seg["text"]), to + len(seg["text"])
            continue
        seg.update(at=at, to=to, change=_change_id(at, seg["delete"], seg["insert"]))
        at, to = at + len(seg["delete"]), to + len(seg["insert"])
    return [seg for seg in out if "text" in seg or seg["delete"] or seg["insert"]]


def section_state(section: dict, text: str | None = None, accepted=frozenset()) -> dict:
    """What the page shows of `section` (a Draft's section) under review: {"body" (its text now), "edited",
    "base" ("precedent" or "engine"), "review": segments (changes() with the lawyer's laid over the engine's, each
    change with "by": "engine" or "you" and "state": "accepted" or "pending"; None where there is nothing to
    review), "redline": [(op, words)] of the text now against the precedent's own words, or None}."""
    _, whose = _base(section)
    segs = _segments(section, text)
    for s in segs:
        if "change" in s:
            s["state"] = "accepted" if s["change"] in accepted else "pending"
    has_changes = any("change" in s for s in segs)
    redline = None
    if whose == "precedent":
        redline = [p for s in segs for p in ([("equal", s["text"])] if "text" in s else
                                             [("delete", s["delete"]), ("insert", s["insert"])]) if p[1]]
    return {"body": section["body"] if text is None else text, "edited": text is not None, "base": whose,
            "review": segs if (whose == "precedent" or has_changes) else None, "redline": redline}


def tracked(section: dict, text: str | None = None, accepted=frozenset()) -> list[tuple] | None:
    """The section's body as a redline DOCX writes it (hybrid.draft.docx_export: (op, words, author)): what agrees
    with the base and what was accepted plain, each pending change tracked under its author ("hybrid" or
    REVIEWER). None where there is nothing tracked to write (a composed section no one edited)."""
    from hybrid.draft.docx_export import TRACK_AUTHOR

    state = section_state(section, text, accepted)
    if state["review"] is None:
        return None
    out = []
    for s in state["review"]:
        if "text" in s:
            out.append(("equal", s["text"]))
        elif s["state"] == "accepted":
            out.append(("equal", s["insert"]))
        else:
            author = TRACK_AUTHOR if s["by"] == "engine" else REVIEWER
            out.extend((op, s[op], author) for op in ("delete", "insert") if s[op])
    return out


class Review:
    """One job's review: by (variant rank, section index), the lawyer's text and the changes accepted. Its methods
    take the Draft's section as drafted (the engine's) and answer section_state() of the section after."""

    def __init__(self):
        self._sections: dict[tuple[int, int], _Section] = {}
        self._lock = threading.Lock()

    def get(self, rank: int, index: int) -> tuple[str | None, frozenset]:
        """(the lawyer's text or None, the ids of the changes accepted) of one section."""
        with self._lock:
            s = self._sections.get((rank, index))
            return (None, frozenset()) if s is None else (s.text, frozenset(s.accepted))

    def state(self, section: dict, rank: int, index: int) -> dict:
        return section_state(section, *self.get(rank, index))

    def edit(self, section: dict, rank: int, index: int, text) -> dict:
        """Keep `text` (check_text) as the section's (the engine's very words: none of the lawyer's); None restores
        the engine's text and forgets the section's decisions."""
        text = check_text(text)
        with self._lock:
            kept = self._sections.setdefault((rank, index), _Section())
            kept.text = None if text == section["body"] else text
            if text is None or (kept.text is None and not kept.accepted):
                del self._sections[(rank, index)]
        return self.state(section, rank, index)

    def decide(self, section: dict, rank: int, index: int, change: str, decision) -> dict:
        """Accept a change (it stays, no longer shown as one to review) or reject it (the base's words for it
        put back in the section's text); ReviewConflict when the section holds no such change now."""
        if decision not in DECISIONS:
            raise RequestError(f"decision must be one of {', '.join(DECISIONS)}, got {shown(decision)}.", "decision")
        with self._lock:
            kept = self._sections.get((rank, index)) or _Section()
            now = section["body"] if kept.text is None else kept.text
            seg = next((s for s in _segments(section, kept.text) if s.get("change") == change), None)
            if seg is None:
                raise ReviewConflict(f"this section holds no change {shown(change, 40)} now (it was edited or decided "
                                     "since the page showed it); the section as it stands is shown.", "change")
            if decision == "accept":
                kept.accepted.add(change)
            else:
                kept.text = now[: seg["to"]] + seg["delete"] + now[seg["to"] + len(seg["insert"]):]
                kept.accepted.discard(change)
            if kept.text == section["body"]:
                kept.text = None
            if kept.text is None and not kept.accepted:
                self._sections.pop((rank, index), None)
            else:
                self._sections[(rank, index)] = kept
        return self.state(section, rank, index)

    def edited(self) -> int:
        """How many sections hold the lawyer's text."""
        with self._lock:
            return sum(1 for s in self._sections.values() if s.text is not None)
