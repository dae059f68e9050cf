"""hybrid.fidelity.ordinary_words: a capitalized word or an acronym that the train contracts of many groups write is
no deal's name, unless it is a place's, a person's or a party role's; the index reads the train split alone and is
cached on disk."""

import json

import pytest

from hybrid.fidelity import ordinary_words as ow
from hybrid.fidelity.ordinary_words import EMPTY, MIN_GROUPS, MIN_GROUPS_CAPS, build_ordinary_words, load_ordinary_words

ALLOWED = "Supply Agreement between Keystone Polymers Corp. (Supplier) and Aurora Home Goods, Inc. (Buyer)."


def _contract(i: int, caps: bool, rare: bool) -> str:
    """One group's contract: its parties, an address, a signature; "God" always, "NOT" and "Zorblax" in some."""
    return (
        f'Acme {i} Inc., a Delaware corporation ("Operator"), and Beta {i} LLC agree as follows.\n'
        "Neither party is liable for acts of God or an Act of war. The Operator shall operate the Equipment.\n"
        + ("The Operator shall NOT assign this Agreement.\n" if caps else "")
        + ("The Operator shall use the Zorblax Platform.\n" if rare else "")
        + f"Notices: {i} Main Street, Springfield, Illinois 62701.\n"
        "By: /s/ Bartholomew Quimby\nName: Bartholomew Quimby\n"
    )


@pytest.fixture
def corpus(tmp_path, monkeypatch):
    """MIN_GROUPS + 2 train contracts of as many groups ("NOT" in MIN_GROUPS_CAPS, "Zorblax" in 3), and val
    contracts of MIN_GROUPS + 2 more groups that write "Quux"; the cache in tmp_path."""
    monkeypatch.setenv("HYBRID_CACHE", str(tmp_path / "cache"))
    root = tmp_path / "corpus"
    (root / "c").mkdir(parents=True)
    entries = []
    for i in range(MIN_GROUPS + 2):
        (root / f"c/{i}.txt").write_text(_contract(i, i < MIN_GROUPS_CAPS, i < 3), encoding="utf-8")
        (root / f"c/v{i}.txt").write_text("The Operator shall follow the Quux Rules.\n", encoding="utf-8")
        entries += [
            {"path": f"c/{i}.txt", "source": "cuad", "doc_type": "X", "group": f"g{i}", "split": "train"},
            {"path": f"c/v{i}.txt", "source": "cuad", "doc_type": "X", "group": f"v{i}", "split": "val"},
        ]
    (root / "manifest.jsonl").write_text("".join(json.dumps(e) + "\n" for e in entries))
    return root, entries


def test_words_of_many_groups_are_ordinary_names_places_people_and_roles_are_not(corpus):
    root, entries = corpus
    index = build_ordinary_words(root, [e for e in entries if e["split"] == "train"])
    assert {"God", "NOT", "Equipment"} <= index.forms  # many groups: no deal's
    assert "Zorblax" not in index.forms  # three groups: a deal's product
    assert "Springfield" not in index.forms and "Main" not in index.forms  # written in addresses: a place
    assert "Bartholomew" not in index.forms and "Quimby" not in index.forms  # written as a name: a person
    assert "Operator" not in index.forms  # a party its preambles define: a role
    assert index.ordinary("God", ALLOWED) and index.ordinary("NOT", ALLOWED)
    assert not index.ordinary("Zorblax Platform", ALLOWED)  # one word of a name is enough
    assert not index.ordinary("Disclosing Party", ALLOWED)  # a role name the deal does not use, of ordinary words
    assert index.ordinary("Acts of God", ALLOWED)  # the plural of an ordinary word
    assert index.ordinary("Supplier Goods", ALLOWED)  # the deal's own words
    assert not index.ordinary("GOODS ZORBLAX", ALLOWED)  # all caps: the deal's word only as it writes it


def test_the_index_reads_the_train_split_only_and_is_cached(corpus, monkeypatch):
    root, entries = corpus
    index = load_ordinary_words(root)
    assert "God" in index.forms and "Quux" not in index.forms  # val contracts are never read
    assert list((root.parent / "cache" / "ordinary").glob("*.json"))
    ow._LOADED.clear()
    monkeypatch.setattr(ow, "build_ordinary_words", lambda *a: pytest.fail("rebuilt despite the cache"))
    assert load_ordinary_words(root) == index
    with pytest.raises(AssertionError):
        build_ordinary_words(root, entries)  # val entries refused


def test_no_corpus_leaves_every_foreign_fact_foreign(tmp_path):
    assert load_ordinary_words(tmp_path / "missing") is EMPTY
    assert not EMPTY.ordinary("God", ALLOWED)
