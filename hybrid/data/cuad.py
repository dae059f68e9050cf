"""CUAD's master_clauses.csv -> the planner's fields per contract.

Owns: parsing master_clauses.csv (csv module) into {file key: fields} with the canonical keys of
hybrid.data.plan_format.PLAN_FIELDS: party_a, party_b, effective_date, governing_law. Values are
short printable-ASCII strings (<= MAX_FIELD_CHARS); unknown values are omitted, never guessed.
Knows nothing about the contract texts themselves.

Columns used (the CSV holds, per label, a python-list-looking "context" column and an "-Answer"
column with the annotators' normalized answer):
  Filename                 "<stem>.pdf"; matched to manifest paths "cuad/contracts/<stem>.txt"
                           through file_key(), since the CSV writes "&" and "'" where the text
                           file names have "_".
  Parties-Answer           'Acme Inc. ("Acme"); Beta Corp ("Distributor")': names before the role
  Effective Date-Answer    "5/8/14" (falls back to Agreement Date-Answer) -> "May 8, 2014"
  Governing Law-Answer     "Nevada", "Ontario, Canada"
"""

import csv
import os
import re
from pathlib import Path

from hybrid.common.errors import CorpusError
from hybrid.data.clean import to_ascii

__all__ = ["MAX_FIELD_CHARS", "file_key", "load_cuad_fields", "parse_parties", "parse_date"]

MAX_FIELD_CHARS = 80  # planner fields are bounded strings (templates use ^[ -~]{1,80}$)

_MONTHS = ("January", "February", "March", "April", "May", "June", "July", "August", "September",
           "October", "November", "December")
_DATE_RE = re.compile(r"^(\d{1,2})/(\d{1,2})/(\d{2}|\d{4})$")


def file_key(name: str) -> str:
    """Match key of a CUAD file: its stem, ASCII-folded (the CSV and the files differ in Unicode form), lower-cased,
    letters and digits only."""
    stem = os.path.splitext(os.path.basename(name.strip()))[0]
    return re.sub(r"[^a-z0-9]", "", to_ascii(stem).lower())


def _short(value: str) -> str:
    value = to_ascii(value).strip(" ,;:\"'")
    return value if 0 < len(value) <= MAX_FIELD_CHARS else ""


def parse_parties(answer: str) -> list[str]:
    """'Acme Inc. ("Acme"); Beta ("Reseller")' -> ["Acme Inc.", "Beta"] (roles and quotes dropped)."""
    names = []
    for part in answer.split(";"):
        name = re.split(r"[(\"\u201c]", part, maxsplit=1)[0]
        name = re.sub(r"\s+and its Affiliates$", "", " ".join(name.split()), flags=re.I)
        name = _short(name.rstrip(" ,"))
        if name and re.search(r"[A-Za-z]", name) and name not in names:
            names.append(name)
    return names


def _principal(answer: str, names: list[str]) -> list[str]:
    """names (parse_parties of answer) with, where there are more than two and the contract gives exactly two of
    them a short name or role, those two first ('Tate & Lyle Fermentation Products Ltd. ("T&L"); Tate & Lyle PLC;
    Igene Biotechnology, Inc. ("Igene")': the parent that only guarantees stands third, not as the other venturer);
    else as they are."""
    if len(names) <= 2:
        return names
    roles, last = set(), None
    for part in answer.split(";"):
        text = to_ascii(" ".join(part.split()))
        name = next((n for n in names if text.startswith(n)), None)
        last = name or last
        role = text[len(name):] if name else text
        if last and re.search(r"[(\"]", role) and not re.search(r"(?i)\b(?:collectively|together|each)\b", role):
            roles.add(last)  # its own short name, not the parties' together ("(collectively the "Parties")")
    named = [n for n in names if n in roles and not re.match(r"(?i)(?:each|either|both|all|individually)\b", n)]
    return named + [n for n in names if n not in named] if len(named) == 2 else names


def parse_date(answer: str) -> str:
    """'5/8/14' -> 'May 8, 2014'; '' for anything partial or malformed ('[]/[]/2018')."""
    m = _DATE_RE.match(answer.strip())
    if not m:
        return ""
    month, day, year = int(m.group(1)), int(m.group(2)), int(m.group(3))
    if len(m.group(3)) == 2:
        year += 1900 if year > 30 else 2000
    if not (1 <= month <= 12 and 1 <= day <= 31 and 1950 <= year <= 2030):
        return ""
    return f"{_MONTHS[month - 1]} {day}, {year}"


def load_cuad_fields(csv_path: str | Path) -> dict[str, dict[str, str]]:
    """{file_key(Filename): {party_a, party_b, effective_date, governing_law}} (keys present only when known)."""
    csv_path = Path(csv_path)
    if not csv_path.is_file():
        raise CorpusError(f"CUAD master clauses file not found: {csv_path}")
    out: dict[str, dict[str, str]] = {}
    with open(csv_path, encoding="utf-8", newline="") as f:
        reader = csv.DictReader(f)
        missing = {"Filename", "Parties-Answer", "Governing Law-Answer"} - set(reader.fieldnames or ())
        if missing:
            raise CorpusError(f"{csv_path}: missing columns {sorted(missing)}; got {reader.fieldnames}")
        for row in reader:
            fields: dict[str, str] = {}
            answer = row.get("Parties-Answer", "")
            parties = _principal(answer, parse_parties(answer))
            for key, name in zip(("party_a", "party_b"), parties):
                fields[key] = name
            date = parse_date(row.get("Effective Date-Answer", "")) or parse_date(row.get("Agreement Date-Answer", ""))
            if date:
                fields["effective_date"] = date
            law = _short(row.get("Governing Law-Answer", ""))
            if law:
                fields["governing_law"] = law
            out[file_key(row["Filename"])] = fields
    return out
