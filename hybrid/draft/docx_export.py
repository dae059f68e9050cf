"""Word (.docx) output of a draft, through python-docx.

Owns: the document layout in Word: a Title paragraph, the preamble, one "Heading 1" paragraph per
section numbered by Word's own list numbering (a decimal "1." list bound to the headings, so Word
renumbers when a section is moved or deleted), the body as paragraphs (blank lines split them,
single newlines become line breaks), the signature block, each section's sources as a Word comment on
it, the optional redline (the body as tracked insertions and deletions against its source, each dated: w:date),
and the
atomic write. Knows nothing
about models or ranking: it takes plain strings.
"""

import os
import re
from datetime import datetime, timezone
from pathlib import Path

from docx import Document
from docx.oxml import OxmlElement
from docx.oxml.ns import qn

from hybrid.common.errors import ConfigError

__all__ = ["build_document", "write_docx", "xml_safe", "TRACK_AUTHOR"]

TRACK_AUTHOR = "hybrid"  # the author of the sources' comments and of the redline's tracked changes

# characters XML 1.0 cannot hold (a sampled draft may contain control bytes)
_NOT_XML = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")


def xml_safe(text: str) -> str:
    return _NOT_XML.sub("", text)


def _heading_numbering(doc) -> int:
    """Add a one-level decimal list ("1.", "2.", ...) to the numbering part; return its numId."""
    numbering = doc.part.numbering_part.element
    abstract_ids = [int(a.get(qn("w:abstractNumId"))) for a in numbering.findall(qn("w:abstractNum"))]
    num_ids = [int(n.get(qn("w:numId"))) for n in numbering.findall(qn("w:num"))]
    abstract_id, num_id = max(abstract_ids, default=-1) + 1, max(num_ids, default=0) + 1

    abstract = OxmlElement("w:abstractNum")
    abstract.set(qn("w:abstractNumId"), str(abstract_id))
    lvl = OxmlElement("w:lvl")
    lvl.set(qn("w:ilvl"), "0")
    for tag, val in (("w:start", "1"), ("w:numFmt", "decimal"), ("w:lvlText", "%1."), ("w:lvlJc", "left")):
        el = OxmlElement(tag)
        el.set(qn("w:val"), val)
        lvl.append(el)
    ppr = OxmlElement("w:pPr")
    ind = OxmlElement("w:ind")
    ind.set(qn("w:left"), "432")
    ind.set(qn("w:hanging"), "432")
    ppr.append(ind)
    lvl.append(ppr)
    abstract.append(lvl)
    # schema order: every w:abstractNum precedes every w:num
    first_num = numbering.find(qn("w:num"))
    if first_num is not None:
        first_num.addprevious(abstract)
    else:
        numbering.append(abstract)

    num = OxmlElement("w:num")
    num.set(qn("w:numId"), str(num_id))
    ref = OxmlElement("w:abstractNumId")
    ref.set(qn("w:val"), str(abstract_id))
    num.append(ref)
    numbering.append(num)
    return num_id


def _number(paragraph, num_id: int) -> None:
    ppr = paragraph._p.get_or_add_pPr()
    numpr = OxmlElement("w:numPr")
    ilvl = OxmlElement("w:ilvl")
    ilvl.set(qn("w:val"), "0")
    nid = OxmlElement("w:numId")
    nid.set(qn("w:val"), str(num_id))
    numpr.append(ilvl)
    numpr.append(nid)
    ppr.insert_element_before(
        numpr, "w:suppressLineNumbers", "w:pBdr", "w:shd", "w:tabs", "w:spacing", "w:ind", "w:jc", "w:rPr"
    )


def _paragraphs(doc, text: str) -> list:
    """Blank lines separate paragraphs; a single newline inside one is a line break. Returns the runs."""
    runs = []
    for para in xml_safe(text).strip().split("\n\n"):
        lines = [line.strip() for line in para.strip("\n").split("\n")]
        if not any(lines):
            continue
        p = doc.add_paragraph()
        for i, line in enumerate(lines):
            run = p.add_run(line)
            runs.append(run)
            if i < len(lines) - 1:
                run.add_break()
    return runs


def _tracked(paragraph, op: str, text: str, change_id: int, date: str, author: str = TRACK_AUTHOR) -> None:
    """A run of `text` in `paragraph`, inside a w:ins or w:del tracked change (op "insert" / "delete") of `date`
    (ISO 8601, as Word writes it: "2026-03-01T09:30:00Z") by `author`."""
    wrap = OxmlElement("w:ins" if op == "insert" else "w:del")
    wrap.set(qn("w:id"), str(change_id))
    wrap.set(qn("w:author"), author)
    wrap.set(qn("w:date"), date)
    run = OxmlElement("w:r")
    t = OxmlElement("w:t" if op == "insert" else "w:delText")
    t.set(qn("xml:space"), "preserve")
    t.text = text
    run.append(t)
    wrap.append(run)
    paragraph._p.append(wrap)


def _redline_paragraphs(doc, redline: list, first_id: int, date: str) -> tuple[list, int]:
    """The body as tracked changes against its source: equal words plain, deletions and insertions as
    w:del / w:ins of `date` (paragraphs split at blank lines of either side); an (op, words, author) triple names its
    change's author (else TRACK_AUTHOR). Returns (plain runs, next change id)."""
    runs, change_id, p = [], first_id, doc.add_paragraph()
    for op, text, *author in redline:
        pieces = re.split(r"\n\s*\n", xml_safe(text))
        for k, piece in enumerate(pieces):
            if k:
                p = doc.add_paragraph()
            piece = piece.replace("\n", " ")
            if not piece:
                continue
            if op == "equal":
                runs.append(p.add_run(piece))
            else:
                _tracked(p, op, piece, change_id, date, *author)
                change_id += 1
    return runs, change_id


def build_document(title: str, preamble: str, sections: list[dict], tail: str = "", *, date: datetime | None = None):
    """A python-docx Document: sections are dicts with "heading", "body" and optionally "comment" (a Word
    comment on the section's heading and body, e.g. its sources: hybrid.draft.result.source_note) and
    "redline" ([(op, words)] of hybrid.draft.provenance.word_redline: the body written as tracked changes
    against its source, dated `date`: None, now); numbers come from Word. The contract text itself carries no notes."""
    stamp = (date or datetime.now(timezone.utc)).astimezone(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
    doc = Document()
    title = xml_safe(title)
    doc.core_properties.title = title
    doc.core_properties.author = "hybrid"
    doc.add_heading(title, level=0)
    _paragraphs(doc, preamble)
    num_id = _heading_numbering(doc)
    change_id = 1
    for s in sections:
        heading = doc.add_heading(xml_safe(s["heading"]).strip().rstrip(".:"), level=1)
        _number(heading, num_id)
        if s.get("redline"):
            runs, change_id = _redline_paragraphs(doc, s["redline"], change_id, stamp)
        else:
            runs = _paragraphs(doc, s["body"])
        if s.get("comment"):
            doc.add_comment([*heading.runs, *runs], text=xml_safe(s["comment"]), author=TRACK_AUTHOR,
                            initials="hy")
    if tail.strip():
        _paragraphs(doc, tail)
    return doc


def write_docx(path, title: str, preamble: str, sections: list[dict], tail: str = "") -> Path:
    """Build and save atomically (a temp file in the same directory, then a rename); returns the path."""
    path = Path(path)
    if path.is_dir():
        raise ConfigError(f"docx path {path} is a directory; pass a file name ending in .docx.")
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.tmp-{os.getpid()}")
    try:
        build_document(title, preamble, sections, tail).save(str(tmp))
        os.replace(tmp, path)
    finally:
        tmp.unlink(missing_ok=True)
    return path
