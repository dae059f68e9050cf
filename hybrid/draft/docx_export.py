"""Word (.docx) output of a draft, through python-docx.

Owns: the document layout in Word: a Title paragraph, the preamble, one "Heading 1" paragraph per
section numbered by Word's own list numbering (a decimal "1." list bound to the headings, so Word
renumbers when a section is moved or deleted), the body as paragraphs (blank lines split them,
single newlines become line breaks), the signature block, and the atomic write. Knows nothing
about models or ranking: it takes plain strings.
"""

import os
import re
from pathlib import Path

from docx import Document
from docx.oxml import OxmlElement
from docx.oxml.ns import qn

from hybrid.common.errors import ConfigError

__all__ = ["build_document", "write_docx", "xml_safe"]

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


def _paragraphs(doc, text: str) -> None:
    """Blank lines separate paragraphs; a single newline inside one is a line break."""
    for para in xml_safe(text).strip().split("\n\n"):
        lines = [line.strip() for line in para.strip("\n").split("\n")]
        if not any(lines):
            continue
        p = doc.add_paragraph()
        for i, line in enumerate(lines):
            run = p.add_run(line)
            if i < len(lines) - 1:
                run.add_break()


def build_document(title: str, preamble: str, sections: list[dict], tail: str = ""):
    """A python-docx Document: sections are dicts with "heading", "body" and optionally "note" (set in
    italics after the body); numbers come from Word."""
    doc = Document()
    title = xml_safe(title)
    doc.core_properties.title = title
    doc.core_properties.author = "hybrid"
    doc.add_heading(title, level=0)
    _paragraphs(doc, preamble)
    num_id = _heading_numbering(doc)
    for s in sections:
        _number(doc.add_heading(xml_safe(s["heading"]).strip().rstrip(".:"), level=1), num_id)
        _paragraphs(doc, s["body"])
        if s.get("note"):  # e.g. the source note of a section drafted from precedent (hybrid.draft.result.source_note)
            doc.add_paragraph().add_run(xml_safe(s["note"])).italic = True
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
