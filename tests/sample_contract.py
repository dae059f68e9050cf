"""A small mutual NDA a user might add to their own library: four sections, two sentences each, between Acme
(`party`) and Borealis. Used by tests/precedents/test_user_library_*.py and benchmarks/bad_inputs_r3_lib.py;
`firm_library` adds a firm's own file as a user library (tests/precedents/test_originals.py, tests/serve)."""

BODY = ("Each party shall keep the {h} obligations of this Agreement and shall use the other party's information "
        "only to evaluate the relationship between the parties, for two years from the effective date. ")


def nda_text(party: str = "Acme Robotics, Inc.") -> str:
    sections = "\n\n".join(f"## {i}. {h}\n\n" + BODY.format(h=h.lower()) * 2
                           for i, h in enumerate(["Confidentiality", "Term", "Governing Law", "Notices"], 1))
    return (f"# MUTUAL NONDISCLOSURE AGREEMENT\n\nThis Agreement is made between {party} (\"Acme\") and Borealis "
            f"Analytics LLC (\"Borealis\").\n\n{sections}")


def firm_library(tmp_path, monkeypatch, text: str, name: str = "mine"):
    """A user library `name` added from one file holding `text` (a firm's own contract), its cache under tmp_path."""
    from hybrid.precedents.user import add_folder

    monkeypatch.setenv("HYBRID_CACHE", str(tmp_path / "cache"))
    (tmp_path / "firm").mkdir()
    (tmp_path / "firm" / "nda.txt").write_text(text)
    return add_folder(tmp_path / "firm", name)[1]
