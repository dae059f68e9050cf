"""A cover-page form's Key Terms: the deal's terms as the form's cover page would state them, under the form's own
names, and the Variables the deal does not state as blanks to complete.

Owns `key_terms` (one "Label: value." line per field), `cover_variables` (the form's Variables its sections use and do
not define: which are the deal's terms by another name, which stay blank), `on_key_terms` (a form's text about its
cover page made true of the Key Terms section) and `term_words` (a term's content words, as two namings of one term
compare). Pure functions of text and the template; hybrid.skeleton.from_base writes the
Key Terms section with them.
"""

import re

from hybrid.data.facts import BLANK
from hybrid.data.roles import ROLE_WORDS

__all__ = ["key_terms", "cover_variables", "on_key_terms", "part_of_agreement", "variable_value", "term_words",
           "SMALL_WORDS", "PART_VALUE"]

_ACRONYMS = frozenset({"nda", "ip", "sla", "sow", "usd"})
SMALL_WORDS = frozenset("a an and as at by for in of on or the to with".split())  # a title's lower-case words


def key_terms(template, values: dict, names=None) -> str:
    """The deal's terms as a standard form's cover page would state them, one "Label: value." line per field the
    parties' names and the date aside (the preamble states those): "Subscription Term: 12 months."; `names` renames
    a label to the form's own name for the term ({"Subscription Term": "Subscription Period"})."""
    skip, names = {"party_a", "party_b", "effective_date"}, names or {}
    def label(name: str) -> str:
        text = " ".join(w.upper() if w in _ACRONYMS else w.capitalize() for w in name.split("_"))
        return names.get(text, text)

    props = getattr(template, "fields", {}).get("properties", {})

    def value(name: str, v) -> str:  # a percent field's bare number with its unit ("Target Uptime: 99.9 percent.")
        text = str(v).rstrip(".")
        bare = props.get(name, {}).get("x-kind") == "percent" and re.fullmatch(r"\d+(?:\.\d+)?", text)
        return f"{text} percent" if bare else text

    return "\n".join(f"{label(name)}: {value(name, v)}." for name, v in values.items()
                      if name not in skip and v not in (None, ""))


def cover_variables(sections, template, values: dict) -> tuple[dict, list[str]]:
    """A cover-page form's Variables its sections use and do not define ("General Cap Amount", "Provider Covered
    Claims"), as (the deal's Key Terms labels renamed to the form's own name for the same term: {"Confidentiality
    Term": "Term of Confidentiality", "Subscription Term": "Subscription Period"}, the Variables the deal does not
    state): each of the latter becomes a Key Terms line with a blank, as the form's cover page has it, where the
    consistency pass had written it in lower case, undefined ("not more than the general cap amount")."""
    from hybrid.precedents.definitions import entries, inline_definitions
    from hybrid.text.undefined_terms import term_forms, undefined_runs

    bodies = [p.body for p in sections]
    defined = inline_definitions("\n\n".join(bodies)) | set(getattr(template, "defined_terms", ()))
    defined |= {t for p in sections if p.clause_type == "definitions" for t, _ in entries(p.body)[1]}
    labels = {term_words(label): label for label in re.findall(r"^([^:\n]+):", key_terms(template, values), re.M)}
    renamed, blank = {}, {}
    for v in undefined_runs(bodies, defined):
        key = term_words(v)
        if len(v.split()) < 2 or key in blank or key <= _NO_VARIABLE:  # "Key Terms", "Company and Partner"
            continue
        if key <= _PARTS and "key" in key:  # "Key Terms and Standard Terms": the agreement's parts, no Variable
            continue
        if key in labels:
            renamed.setdefault(labels[key], v)
        else:
            blank[key] = v
    # the deal's one term and the form's one term Variable are the same term by other names ("License Term" is the
    # software licence's "Subscription Period"; hosting's "Term Length" too): "Subscription Period: [___]" had stood
    # beside "The term of the license is perpetual"
    termed = [k for k in blank if "term" in k and k - {"term"} <= _AGREEMENT_TERM]  # not "Warranty Period"
    open_labels = [k for k, label in labels.items() if "term" in k and label not in renamed]
    if len(termed) == 1 and len(open_labels) == 1:
        renamed[labels[open_labels[0]]] = blank.pop(termed[0])
    # a deal's term names the form's Variable whose head word (its last) is the term's own word: "Uptime Percent"
    # is the SLA's "Target Uptime" ("Uptime Credit" is about credits), where each side has one such
    for k, label in labels.items():
        if label in renamed or not (own := k - _UNITS):
            continue
        heads = [key for key, v in blank.items() if term_words(v.split()[-1]) <= own]
        if len(heads) == 1 and sum(1 for kk in labels if term_words(blank[heads[0]].split()[-1]) <= kk) == 1:
            renamed[label] = blank.pop(heads[0])
    # a Variable named for a party ("Provider Covered Claims"): a role word opens it, which undefined_runs leaves
    forms = term_forms(defined)
    parties = {w.capitalize() for w in ROLE_WORDS} | {t for t in getattr(template, "defined_terms", ()) if " " not in t}
    led = re.compile(rf"(?<=[a-z,] )((?:{'|'.join(sorted(map(re.escape, parties)))}) {_LED_TAIL})\b")
    for v in dict.fromkeys(m.group(1) for b in bodies for m in led.finditer(b)):
        if v.lower() not in forms and term_words(v) - _NO_VARIABLE and term_words(v) not in blank:
            blank[term_words(v)] = v
    return renamed, list(blank.values())


_LED_TAIL = r"(?:[A-Z][a-z]+ ){0,2}(?:Claims?|Parties|Materials|Obligations)"  # "<party> Covered Claims"
# words no Variable is made of alone: a form's "Key Terms", its parties ("Company and Partner")
_NO_VARIABLE = frozenset({"key", "term", "company", "partner"}) | {w.lower() for w in ROLE_WORDS}
# the words of a name for a part of the agreement itself: "Standard Terms", "Key Terms and Standard Terms"
_PARTS = frozenset({"key", "standard", "framework", "term"})
PART_VALUE = "the terms of this Agreement other than the Key Terms"
"""What a form's "Standard Terms" are in a draft that has no cover page: the consulting draft's "Standard Terms:
[___]." and "Key Terms and Standard Terms: [___]." read as meaningless entries (seed-257 and 263 readers)."""


def variable_value(variable: str, proposed: "str | None", text: str) -> str:
    """What a Key Terms line states for a Variable the deal leaves open: the agreement's part (PART_VALUE), what the
    cover pages propose, "none identified" where the form's own text provides for none ("If no Security Measures are
    identified, Provider will use appropriate ... measures", "the Security Policy, if any": a blank had left it
    unclear whether the fallback applies, seed-263 SaaS reader), else a blank to complete."""
    if part_of_agreement(variable):
        return PART_VALUE
    if proposed:
        return proposed
    name = re.escape(variable)
    optional = re.search(rf"\bIf no {name} (?:is|are) identified\b|\b{name}(?: \([A-Z]{{2,6}}\))?,? if any\b"
                         rf"|\bany {name}(?: \([A-Z]{{2,6}}\))? identified\b", text)
    return "none identified" if optional else BLANK


def part_of_agreement(variable: str) -> bool:
    """The Variable names the form's terms as a part of the agreement ("Standard Terms", "Framework Terms")."""
    return term_words(variable) <= _PARTS and "key" not in term_words(variable)


# words a field's label adds to say what kind of value it is ("Uptime Percent", "Term Length")
_UNITS = frozenset({"percent", "length", "amount", "name", "number", "value", "description"})
# the words of a name for how long the agreement runs: "Subscription Period", "Initial Term", "License Term"
_AGREEMENT_TERM = frozenset({"subscription", "license", "licence", "initial", "agreement", "service", "contract"})
_SAME = {"period": "term", "duration": "term"}  # a cover page's "Subscription Period" is a deal's "Subscription Term"


def term_words(label: str) -> frozenset:
    """A term's content words as two namings of it compare ("Term of Confidentiality" = "Confidentiality Term")."""
    words = (w[:-1] if len(w) > 3 and w.endswith("s") else w for w in label.lower().split() if w not in SMALL_WORDS)
    return frozenset(_SAME.get(w, w) for w in words)


# a definition of the cover page, now the draft's own Key Terms section: '"Key Terms" means the cover page that
# includes ...' had read '"Key Terms" means the Key Terms that includes ...' (seed-131 reading)
_MEANS_KEY_TERMS = re.compile(r'(?:"(?P<term>[^"\n]{1,40})" )?\bmeans the Key Terms that\b')
# a document of which the form's cover page is the first ("SOW", "Order Form"): the draft's Key Terms section or a later
# one the parties sign, as its own text has it ("Client or its Affiliates may enter SOWs", "For each Order Form"); the
# seed-257 and 223 readers: "SOW" defined as the Key Terms section "yet 'Client or its Affiliates may enter SOWs'"
_ANOTHER = "or another document the parties sign that refers to this Agreement, each of which"
# Common Paper's '"SOW" means a Cover Page that includes the key business details ... that are not defined in the Key
# Terms or Standard Terms': as the Key Terms section, what it holds is not "not defined in the Key Terms" (seed 223)
_CIRCULAR_KEY_TERMS = re.compile(r"(\bmeans the Key Terms section of this Agreement,? (?:or [^,\n]*?, each of )?which "
                                 r"[^.\n]*?) that are not "
                                 r"defined in the Key Terms(?: or (?:the )?Standard Terms)?")
# a term the Key Terms state, defined by an Order: '"Subscription Term" means the term ... as identified in an Order'
# (seed 149 and 211 readings: the draft "runs on Orders that do not exist") -> "in the Key Terms or an Order"
_ORDER_DEFINED = re.compile(r'"(?P<term>[A-Z][\w ]{2,40})" '
                            r'(means [^."\n]*?\b(?:identified|specified|set forth|stated) in )((?:an|the) Orders?)\b')
# a form's ordering document, on which its remedies hang ("terminate the affected Order"): the draft's Key Terms are
# one (seed-257 reading: "No Order exists, so the main refund and exit remedies have nothing to attach to")
# (and Common Paper's contractor form's '"SOW" means the ordering document that incorporates these Terms', whose fees
# and notices "set forth in the SOW" had pointed at no document, a cold reader of a user's contractor template)
_ORDER_MEANS = re.compile(r'("(Order|SOW)s?" means (?:an?|the|any) (?:order|ordering)\b[^.\n]*?)\.(?=\s|$)')
# the form's own terms defined as its published version: '"Standard Terms" means these Common Paper Software License
# Standard Terms Version 1.0, which are posted at https://...' read as incorporating a web text that differs from the
# signed one (seed-257 and 263 readers); the draft's are the terms as written, adapted from that version
_PUBLISHED = re.compile(r'("[A-Z][\w ]{2,40}" means these )((?:Common Paper|Bonterms) [^."\n]*?'
                        r'(?:\(Version \d+(?:\.\d+)*\)|Version \d+(?:\.\d+)*))(?:, which (?:are|is) posted at (\S+?))?'
                        r'\.(?=\s|$)')
_STATE_OF_LAW = re.compile(r"\bthe State of Governing Law\b")
_COURTS_IN = re.compile(r"\b(courts? (?:located )?in) (?:the )?[Jj]urisdiction\b")
# the cover page's Variables read back as if defined: "the conflict of laws provisions of such Governing Law", "the
# exclusive jurisdiction of such jurisdiction"
_SUCH_LAW = re.compile(r"(?<=\bsuch )(Governing Law|[Jj]urisdiction)\b(?= in\b|[.,;]|$)")


def _key_terms_section(m: re.Match) -> str:
    """A definition of the cover page as the Key Terms section: the "Key Terms" themselves are that section alone; a
    document the cover page was the first of ("SOW", "Order Form") is it or a later one (_ANOTHER)."""
    term = m["term"]
    lead = f'"{term}" ' if term else ""
    return f"{lead}means the Key Terms section of this Agreement" + (
        ", which" if term in (None, "Key Terms") else f" {_ANOTHER}")


def on_key_terms(body: str, values: dict, stated: set) -> str:
    """A form's text about its cover page made true of the draft's Key Terms section: a definition of the cover page
    is the Key Terms section's, an ordering document includes it, the governing law is the deal's, and so are the
    courts of a forum the form leaves open (its other cover pages write "the courts of" that State; the one-way NDA's
    "federal or state courts located in [___]" had been the seed-257 reading's first fault), and a term the Key Terms
    state (`stated`: their labels' term_words) is defined by them or an Order."""
    body = _MEANS_KEY_TERMS.sub(_key_terms_section, body)
    body = _CIRCULAR_KEY_TERMS.sub(r"\1", body)
    body = _ORDER_MEANS.sub(r"\1. The Key Terms section of this Agreement is an \2.", body)
    body = _PUBLISHED.sub(lambda m: f"{m[1]}terms as written in this Agreement, adapted from the {m[2]}"
                          + (f" posted at {m[3]}." if m[3] else "."), body)
    body = _STATE_OF_LAW.sub(str(values.get("governing_law") or BLANK), body)
    body = _COURTS_IN.sub(rf"\1 {values.get('governing_law') or BLANK}", body)
    body = _SUCH_LAW.sub(lambda m: "law" if m[1] == "Governing Law" else "courts", body)
    return _ORDER_DEFINED.sub(lambda m: m[0] if term_words(m["term"]) not in stated
                              else f'"{m["term"]}" {m[2]}the Key Terms or {m[3]}', body)
