"""What a standard form's cover page proposes for its Variables: the option it ticks ("[ x ]Provider will use
commercially reasonable efforts to secure the Cloud Service ..."), or the value a filled-in cover page gives
("**General Cap Amount:** [[ 1x the fees paid or payable by Customer to Provider in the 12 month period immediately
before the claim. ]]").

Owns `cover_defaults` (one form's text -> {Variable: proposed value}), `form_defaults` (every train-split form's,
per form and merged) and `proposals_for` (those that fit one base form). Knows nothing of drafts:
hybrid.skeleton.from_base writes a proposed value in the Key Terms where the deal states none.

Why: a Common Paper form gives a Variable its cover page leaves out the meaning "none" ("if the Cover Page omits or
does not define a highlighted word, the default meaning will be 'none' ... and the correlating clause ... does not
apply"), so a draft whose Key Terms read "General Cap Amount: [___]." had no limitation of liability; every reading
of the Common Paper drafts quoted its blank Key Terms first. The form's own proposal is what a lawyer filling the
cover page starts from.
"""

import functools
import re
from pathlib import Path

__all__ = ["cover_defaults", "form_defaults", "proposals_for", "row_requires"]

# a filled-in cover page: "**General Cap Amount:** [[ 1x the fees ... claim. ]]"
_FILLED = re.compile(r"\*\*([A-Z][^*\n]{2,60}?):\*\*\s*\[\[\s*(.+?)\s*\]\]")
_TICKED = re.compile(r"^\s*[\[(] x [\])]\s*(.+?)\s*$")  # "[ x ]Worldwide", "( x )Date of last signature ..."
_OPTION = re.compile(r"^\s*[\[(]\s*x?\s*[\])]")  # any option line, ticked or not
# a cover page's row label: a short title-case line ("General Cap Amount", "Insurance Minimums")
_WORD = r"(?:[A-Z][A-Za-z&'’-]*|of|and|or|the|for|to)"
_LABEL = re.compile(rf"^{_WORD}(?: {_WORD}){{0,5}}$")
_NAMED = re.compile(r"^([A-Z][A-Za-z -]{2,60}?):\s*\[?(.+?)\]?\.?$")  # "Provider Covered Claims: [Any action ...]"
_FILL_IN = re.compile(r"\$\{|\[ ?# ?\]|\[___\].*\[___\]")  # a value still to be filled: no proposal
# a field of the cover page's own generator in a value: a blank in the proposal ("At least [___] days before the end
# of the current Subscription Period": the Non-Renewal Notice Date had read "[___]", its notice period unstated)
_FIELD = re.compile(r"\{[a-z_][a-z0-9_]*\}")
# a date the cover page's signing sets: in a draft without one, the date the preamble says the parties sign (the
# Order Date had read "[___]" while "the Agreement will start on the Order Date", seed-1223 readers)
_SIGNED = re.compile(r"^Date of last signature on this (?:Order Form|Cover Page|Agreement)$", re.I)
# a value about the cover page's own mechanics, meaningless in a draft that has no cover page or order form
_MECHANICS = re.compile(r"\b(?:Cover Page|Order Form|signature|Default choice)\b|^(?:See|As defined)\b", re.I)
# a period the terms define where they name it: 'all amounts are due within 30 days after the invoice date (the
# "Payment Period")' (Bonterms: "Unless the Order states otherwise")
_INLINE = re.compile(r"\bwithin (\d+ (?:business )?days?\b[^()“”\"\n]{0,40}?) "
                     r"\((?:the )?[“\"]\**([A-Z][A-Za-z ]{2,40}?)\**[”\"]\)")
_CONDITION = re.compile(r"\{(?:IF [a-z_]+|END-IF)\}")  # a generated cover page's row conditions


def cover_defaults(text: str) -> dict[str, str]:
    """{Variable: the value its cover page proposes} of one form's text: a filled-in value, a period its terms
    define in place ('within 30 days after the invoice date (the "Payment Period")'), else the ticked
    option(s) under the Variable's row label (several ticked: joined with "; "); a ticked option naming its own
    Variable ("Provider Covered Claims: [...]") under that name. A generator's `{field}` in a value is a blank in the
    proposal; a value with two blanks or a blank of another kind ("[ # ]"), or about the cover page
    itself ("Date of last signature on this Order Form") proposes nothing."""
    out = {name.strip(): _clean(value) for name, value in _FILLED.findall(text)}
    for value, name in _INLINE.findall(text):  # the terms' own default: "due within 30 days ... (the "Payment Period")"
        out.setdefault(name.strip(), _clean(value))
    label, ticked = None, {}
    for line in text.splitlines():
        stripped = _CONDITION.sub("", line).strip()
        if not stripped:
            continue
        m = _TICKED.match(stripped)
        if m:
            value = m.group(1)
            named = _NAMED.match(value)
            if named and _LABEL.match(named.group(1)):
                ticked.setdefault(named.group(1), []).append(named.group(2))
            elif label:
                ticked.setdefault(label, []).append(value)
        elif not _OPTION.match(stripped) and _LABEL.match(stripped):
            label = stripped
    for name, values in ticked.items():
        values = [_clean(v) for v in values]
        if name not in out and values and not any(_FILL_IN.search(v) or _MECHANICS.search(v) for v in values):
            out[name] = "; ".join(values)
    return {k: v for k, v in out.items() if v and not _FILL_IN.search(v) and not _MECHANICS.search(v)
            and v.lower() != f"the {k.lower()}"}  # the Effective Date proposes no Effective Date


# a drafting note tying one row to another: "If no Increased Claims are included, delete the entire row and the row
# for Increased Cap Amount" (or "... and the Increased Cap Amount row")
_TIED_ROW = re.compile(r"If no ([A-Z][A-Za-z ]{2,40}?) (?:are|is) included, delete (?:the|this) entire row and the "
                       r"(?:row for ([A-Z][A-Za-z ]{2,40}?)|([A-Z][A-Za-z ]{2,40}?) row)\.")


def row_requires(text: str) -> dict[str, str]:
    """{Variable: the Variable without which its row goes} of one form's drafting notes ({"Increased Cap Amount":
    "Increased Claims"}): a cap for claims none of which are named is no term to propose."""
    return {(m.group(2) or m.group(3)).strip(): m.group(1).strip() for m in _TIED_ROW.finditer(text)}


def _clean(value: str) -> str:
    """A proposed value as a Key Terms line writes it: its optional-text brackets and final full stop gone."""
    value = re.sub(r"\s+", " ", value.replace("[", "").replace("]", "")).strip().rstrip(".").strip()
    return _SIGNED.sub("the Effective Date", _FIELD.sub("[___]", value))


@functools.lru_cache(maxsize=4)
def form_defaults(root: str) -> tuple[dict[str, dict[str, str]], dict[str, str], dict[str, str]]:
    """({form path: cover_defaults}, merged: each Variable's value as the most forms propose it, the first such
    form's on a tie, row_requires of them all) over the corpus's train-split standard forms (held-out forms are never
    read)."""
    from collections import Counter

    from hybrid.data.corpus import STANDARD_SOURCES, load_manifest

    per_form, requires = {}, {}
    for entry in load_manifest(root):
        if entry["split"] != "train" or entry["source"] not in STANDARD_SOURCES:
            continue
        text = (Path(root) / entry["path"]).read_text(encoding="utf-8", errors="replace")
        requires.update(row_requires(text))
        if found := cover_defaults(text):
            per_form[entry["path"]] = found
    votes = Counter((name, value) for found in per_form.values() for name, value in found.items())
    merged: dict[str, str] = {}
    # stable: manifest order on a tie; a value with a blank only where no form proposes one without
    for (name, value), _ in sorted(votes.items(), key=lambda kv: ("[___]" in kv[0][1], -kv[1])):
        merged.setdefault(name, value)
    return per_form, merged, requires


def proposals_for(doc_id: str, bodies: list[str], corpus=None, headings=()) -> dict[str, tuple[str, str]]:
    """{Variable: (proposed value, the form proposing it)} for a base form (its corpus path and section bodies): its
    own cover page's proposals, and another form's only where the value is in the base's terms (every capitalized
    word after its first in the base's text; no section number): the cloud service form's "Security Policy" ("secure
    the Cloud Service") or "Customer to Provider" are no proposal for a consulting form or a partnership, nor its
    "Breach of Section 3 (Privacy & Security)" where the base numbers its sections otherwise. {} where no corpus is
    at hand. A proposal whose row the drafting notes tie to another Variable (row_requires) goes where that one has
    none. Given the base's section `headings`, a proposal listing items separated by ";" keeps those whose every
    section is named by a heading the base has ("Breach of Section 10 (Confidentiality) (however, ...)" for a base with
    a Confidentiality section and no Privacy & Security one; the draft renumbers it by that heading)."""
    from hybrid.common.errors import CorpusError
    from hybrid.data.corpus import corpus_root

    try:
        per_form, merged, requires = form_defaults(str(corpus_root(corpus)))
    except CorpusError:
        return {}
    text, own = "\n".join(bodies), per_form.get(doc_id, {})

    def fits(value: str) -> bool:
        rest = value.split(None, 1)[-1]
        own_terms = all(re.search(rf"\b{w}\b", text) for w in _CAPITALIZED.findall(rest))
        return own_terms and not _SECTION_NUMBER.search(value)

    def titled(value: str) -> str:  # the items whose every section the base heads so; "" where none
        items = [item for item in value.split("; ") if all(t in headings for t in _TITLED.findall(item))
                 and len(_TITLED.findall(item)) == len(_SECTION_NUMBER.findall(item)) and fits(_TITLED.sub("", item))]
        return "; ".join(items) if headings else ""

    def source(name: str, value: str) -> str:
        return next(path for path, found in per_form.items() if found.get(name) == value)

    chosen = {k: (v, source(k, v)) for k, v in merged.items() if fits(v)}
    chosen.update({k: (t, source(k, v)) for k, v in merged.items() if k not in chosen and (t := titled(v))})
    chosen.update({k: (v, doc_id) for k, v in own.items() if "[___]" not in v or k not in chosen})
    # a row whose drafting note ties it to another goes without it: no "Increased Cap Amount" for no Increased Claims
    return {k: v for k, v in chosen.items() if requires.get(k, k) in chosen}


_SECTION_NUMBER = re.compile(r"\bSections? \d")
_TITLED = re.compile(r"\bSection \d+(?:\.\d+)* \(([^()]+)\)")  # "Section 10 (Confidentiality)" -> its heading
_CAPITALIZED = re.compile(r"\b[A-Z][a-z]+\b")
