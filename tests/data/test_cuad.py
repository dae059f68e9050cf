"""master_clauses.csv -> planner fields (fixture: real rows, relevant columns only)."""

import csv
from pathlib import Path

import pytest

from hybrid.common.errors import CorpusError
from hybrid.data.cuad import MAX_FIELD_CHARS, file_key, load_cuad_fields, parse_date, parse_parties

CSV = Path(__file__).parent / "excerpts" / "master_clauses_excerpt.csv"


@pytest.mark.parametrize("answer, expected", [
    ('I-ESCROW, INC.  ("i-Escrow" ); 2THEMART.COM, INC. ("2TheMart")', ["I-ESCROW, INC.", "2THEMART.COM, INC."]),
    ('Sekisui Diagnostics, LLC and its Affiliates ("Sekisui"); Qualigen, Inc. and its Affiliates ("Qualigen")',
     ["Sekisui Diagnostics, LLC", "Qualigen, Inc."]),
    ('WATER NOW, INC.; ("Water Now"); Hydraspin USA, Inc. ("Subsidiary")', ["WATER NOW, INC.", "Hydraspin USA, Inc."]),
    ("", []),
])
def test_parse_parties_keeps_names_drops_roles(answer, expected):
    assert parse_parties(answer) == expected


@pytest.mark.parametrize("answer, expected", [
    ('Tate & Lyle Fermentation Products Ltd. ("T&L"); Tate & Lyle PLC; Igene Biotechnology, Inc. ("Igene"); '
     '(collectively "Parties"); (each "Party")',
     ("Tate & Lyle Fermentation Products Ltd.", "Igene Biotechnology, Inc.")),
    ('MJ Syndicated, Inc.; SIMPLY HERBAL; individually and collectively "JVP"',
     ("MJ Syndicated, Inc.", "SIMPLY HERBAL")),
    ('United National Bancorp ("UNBJ"); United National Bank; BISYS Group, Inc. ("BISYS")',
     ("United National Bancorp", "BISYS Group, Inc.")),
    ('iPayment, Inc. ("ISO"); First Data Merchant Services Corporation ("FDMS"); Wells Fargo Bank, N.A. ("Bank")',
     ("iPayment, Inc.", "First Data Merchant Services Corporation")),
    ('Spok Holdings, Inc. ("Company"); White Hat Strategic Partners LP; White Hat SP GP LLC; (collectively the '
     '"White Hat Parties")', ("Spok Holdings, Inc.", "White Hat Strategic Partners LP")),
])
def test_the_two_parties_are_those_the_contract_names_by_role(tmp_path, answer, expected):
    """Of three or more names, the two a contract gives a short name stand as its parties (a parent that only
    guarantees stands third); where the contract names more or fewer than two so, the order is the answer's."""
    path = tmp_path / "master_clauses.csv"
    with open(path, "w", encoding="utf-8", newline="") as f:
        csv.writer(f).writerows([["Filename", "Parties-Answer", "Governing Law-Answer"], ["X.pdf", answer, ""]])
    fields = load_cuad_fields(path)[file_key("X.pdf")]
    assert (fields["party_a"], fields["party_b"]) == expected


@pytest.mark.parametrize("answer, expected", [
    ("6/21/99", "June 21, 1999"),
    ("5/1/16", "May 1, 2016"),
    ("12/31/2003", "December 31, 2003"),
    ("[]/[]/2018", ""),
    ("09/14/200[]", ""),
    ("13/1/20", ""),
    ("", ""),
])
def test_parse_date_table(answer, expected):
    assert parse_date(answer) == expected


def test_fields_from_real_rows_use_canonical_keys_and_fallbacks():
    fields = load_cuad_fields(CSV)
    themart = fields[file_key("cuad/contracts/2ThemartComInc_19990826_10-12G_EX-10.10_6700288_EX-10.10_"
                              "Co-Branding Agreement_ Agency Agreement.txt")]
    assert themart == {"party_a": "I-ESCROW, INC.", "party_b": "2THEMART.COM, INC.",
                       "effective_date": "June 21, 1999", "governing_law": "California"}
    sandridge = fields[file_key("SANDRIDGEENERGYINC_08_06_2009-EX-10.6-OPERATIONS AND MAINTENANCE AGREEMENT.txt")]
    assert sandridge["party_a"] == "Pinon Gathering Company, LLC"  # ASCII-folded
    ritter = fields[
        file_key("RitterPharmaceuticalsInc_20200313_S-4A_EX-10.54_12055220_EX-10.54_Development Agreement.txt")
    ]
    assert ritter["effective_date"] == "May 1, 2016"  # Agreement Date when Effective Date is blank
    columbia = fields[
        file_key("Columbia Laboratories, (Bermuda) Ltd. - AMEND NO. 2 TO MANUFACTURING AND SUPPLY AGREEMENT.txt")
    ]
    assert "effective_date" not in columbia  # "[]/[]/2018" is unknown, not guessed
    # "'" in the CSV is "_" on disk
    macys = fields[file_key("MACY_S,INC_05_11_2020-EX-99.4-JOINT FILING AGREEMENT.txt")]
    assert "governing_law" not in macys
    for row in fields.values():
        assert set(row) <= {"party_a", "party_b", "effective_date", "governing_law"}
        assert all(0 < len(v) <= MAX_FIELD_CHARS and v.isascii() and v.isprintable() for v in row.values())


def test_missing_csv_names_the_path(tmp_path):
    with pytest.raises(CorpusError, match="master_clauses.csv"):
        load_cuad_fields(tmp_path / "master_clauses.csv")


def test_csv_without_the_needed_columns_is_rejected(tmp_path):
    bad = tmp_path / "m.csv"
    bad.write_text("Filename,Parties\nx.pdf,y\n")
    with pytest.raises(CorpusError, match="missing columns"):
        load_cuad_fields(bad)
