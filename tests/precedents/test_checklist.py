"""hybrid.precedents.checklist: the kind's clause checklist, a draft's market check, and the real contracts' bar."""

import pytest

from hybrid.common.errors import CorpusError
from hybrid.data import corpus
from hybrid.precedents import checklist as ck


def _clear():
    for cache in (ck._items, ck._coverage, ck._cuad_labels):
        cache.cache_clear()


@pytest.fixture(autouse=True)
def fresh_caches():
    """Each test computes from the manifest it sees (some monkeypatch it), and leaves no patched result behind."""
    _clear()
    yield
    _clear()


@pytest.fixture
def real_corpus():
    try:
        return corpus.corpus_root()
    except CorpusError as e:
        pytest.skip(f"real corpus not available: {e}")


def _section(heading, body, clause="other"):
    return {"heading": heading, "clause": clause, "body": body}


SUPPLY_DRAFT = [
    _section("Supply of Products", "Supplier shall manufacture and supply the Products to Buyer in accordance with "
             "the Specifications and each purchase order.", "products"),
    _section("Warranties", "Supplier represents and warrants that the Products will conform to the Specifications. "
             "EXCEPT AS SET OUT ABOVE, SUPPLIER DISCLAIMS ALL IMPLIED WARRANTIES OF MERCHANTABILITY.", "warranties"),
    _section("Indemnification", "Supplier shall indemnify, defend and hold harmless Buyer from any third-party claim "
             "arising from a defect in the Products.", "indemnification"),
    _section("Governing Law", "This Agreement is governed by the laws of the State of New York.", "governing_law"),
]
CAP = "In no event shall either party be liable for any indirect, incidental or consequential damages."


def _held(check, key):
    return next(r for r in check["items"] if r["key"] == key)


def test_a_draft_without_a_cap_is_reported_as_lacking_it(real_corpus):
    check = ck.market_check("supply", SUPPLY_DRAFT)
    assert _held(check, "cap_on_liability")["held"] is False
    assert "Limitation of liability" in check["lacking"]
    assert _held(check, "indemnity")["where"] == [{"index": 2, "heading": "Indemnification"}]


def test_a_limitation_sentence_inside_general_counts_as_held(real_corpus):
    general = _section("General", f"This Agreement may be signed in counterparts. {CAP}", "general")
    check = ck.market_check("supply", [*SUPPLY_DRAFT, general])
    assert _held(check, "cap_on_liability")["held"] is True
    assert _held(check, "cap_on_liability")["where"] == [{"index": 4, "heading": "General"}]
    assert "Limitation of liability" not in check["lacking"]


def test_a_heading_over_a_trivial_body_holds_nothing(real_corpus):
    check = ck.market_check("supply", [_section("Governing Law", "[Reserved].", "governing_law")])
    assert _held(check, "governing_law")["held"] is False


def test_coverage_is_the_share_of_items_held(real_corpus):
    check = ck.market_check("supply", SUPPLY_DRAFT)
    held = [r for r in check["items"] if r["held"]]
    assert (check["held"], check["total"]) == (len(held), len(ck.checklist("supply")))
    assert check["coverage"] == pytest.approx(len(held) / check["total"], abs=1e-3)
    assert check["lacking"] == [r["label"] for r in check["items"] if not r["held"]]
    assert {"governing_law", "warranties", "warranty_disclaimer", "indemnity"} <= {r["key"] for r in held}


# (template, key, a sentence that holds it): one phrasing a lawyer writes per item
HOLDS = [
    ("supply", "cap_on_liability", "Each party's aggregate liability shall not exceed the fees paid."),
    ("supply", "cap_on_liability", "NEITHER PARTY SHALL BE LIABLE FOR ANY CONSEQUENTIAL, SPECIAL OR PUNITIVE DAMAGES."),
    ("supply", "anti_assignment", "Neither party may assign this Agreement without the other party's prior written "
                                  "consent."),
    ("supply", "insurance", "Supplier shall maintain product liability insurance of at least $5,000,000."),
    ("supply", "audit_rights", "Buyer may audit Supplier's books and records once a year."),
    ("supply", "termination_for_breach", "Either party may terminate this Agreement if the other party commits a "
                                         "material breach and fails to cure it within thirty days."),
    ("mutual-nda", "return_or_destruction", "On request the Recipient will return or destroy all Confidential "
                                            "Information."),
    ("mutual-nda", "compelled_disclosure", "The Recipient may disclose Confidential Information to the extent "
                                           "required by law or court order."),
    ("mutual-nda", "no_license", "Disclosure grants no license under the Discloser's intellectual property."),
    ("mutual-nda", "ci_exclusions", "Confidential Information excludes information that is publicly available."),
    ("mutual-nda", "equitable_relief", "A breach may cause irreparable harm for which injunctive relief is proper."),
]


@pytest.mark.parametrize("template, key, sentence", HOLDS)
def test_each_item_finds_its_usual_wording(real_corpus, template, key, sentence):
    check = ck.market_check(template, [_section("Miscellaneous", sentence)])
    assert _held(check, key)["held"], (key, sentence)


# (template, key, a sentence that only looks like it)
MISSES = [
    ("distributor", "exclusivity", "Supplier grants Distributor a non-exclusive license to use the Marks."),
    ("software-license", "termination_for_convenience", "Headings are inserted for convenience of reference only."),
    ("software-license", "termination_for_convenience", "Either party may terminate this Agreement upon thirty days "
                                                        "written notice if the other party breaches it."),
]


@pytest.mark.parametrize("template, key, sentence", MISSES)
def test_a_lookalike_sentence_is_not_the_clause(real_corpus, template, key, sentence):
    check = ck.market_check(template, [_section("Miscellaneous", sentence)])
    assert not _held(check, key)["held"], (key, sentence)


# per template family, items its checklist must hold (and origins where the corpus decides them)
FAMILIES = [
    ("supply", {"cap_on_liability", "indemnity", "warranties", "warranty_disclaimer", "anti_assignment",
                "governing_law", "audit_rights", "insurance"}),
    ("distributor", {"cap_on_liability", "exclusivity", "license_grant", "renewal_term", "anti_assignment"}),
    ("mutual-nda", {"return_or_destruction", "compelled_disclosure", "no_license", "ci_exclusions",
                    "nda_no_warranty", "equitable_relief", "term_and_survival", "governing_law"}),
    ("one-way-nda", {"return_or_destruction", "compelled_disclosure", "no_license"}),
    ("saas-agreement", {"cap_on_liability", "warranty_disclaimer", "confidentiality", "use_restrictions"}),
]


@pytest.mark.parametrize("template, expected", FAMILIES)
def test_each_family_checklist_holds_its_market_clauses(real_corpus, template, expected):
    items = ck.checklist(template)
    assert expected <= {i.key for i in items}
    assert len({i.key for i in items}) == len(items), "deduplicated by key"
    for i in items:
        assert i.origin in ck.ORIGINS and (i.share is None or 0.0 <= i.share <= 1.0), i
        assert i.origin not in ("cuad", "form") or i.share >= ck.PRACTICE_SHARE, i


def test_an_nda_gets_the_nda_protections_not_the_commercial_core(real_corpus):
    keys = {i.key for i in ck.checklist("mutual-nda")}
    assert not {"indemnity", "termination_for_breach", "warranty_disclaimer"} & keys
    assert {i.origin for i in ck.checklist("supply")} >= {"cuad", "core"}


def test_practice_rates_come_from_the_cuad_labels(real_corpus):
    by_key = {i.key: i for i in ck.checklist("supply")}
    shares = ck.cuad_practice("supply")["shares"]
    assert by_key["cap_on_liability"].origin == "cuad"
    assert by_key["cap_on_liability"].share == pytest.approx(shares["Cap On Liability"], abs=1e-3)
    assert by_key["governing_law"].share == pytest.approx(shares["Governing Law"], abs=1e-3)


def test_every_train_contract_of_the_kind_joins_its_csv_row(real_corpus):
    kinds = ck._kind("supply")[2]
    train = [e for e in corpus.load_manifest(real_corpus)
             if e["source"] == "cuad" and e["split"] == "train" and e["doc_type"].upper() in kinds]
    assert train and ck.cuad_practice("supply")["n"] == len(train)


def _with_one_held_out(monkeypatch, root, template):
    """The manifest with the first train CUAD contract of the template's kinds moved to val; that entry's path."""
    kinds = ck._kind(template)[2]
    entries = corpus.load_manifest(root)
    moved = next(e for e in entries
                 if e["source"] == "cuad" and e["split"] == "train" and e["doc_type"].upper() in kinds)
    patched = [{**e, "split": "val"} if e is moved else e for e in entries]
    monkeypatch.setattr(ck, "load_manifest", lambda r: [dict(e) for e in patched])
    monkeypatch.setattr(corpus, "load_manifest", lambda r: [dict(e) for e in patched])
    return moved["path"]


def test_a_val_contract_is_never_counted(real_corpus, monkeypatch):
    before_n, before_docs = ck.cuad_practice("supply")["n"], ck.real_coverage("supply")["n"]
    _clear()
    _with_one_held_out(monkeypatch, real_corpus, "supply")
    assert ck.cuad_practice("supply")["n"] == before_n - 1
    assert ck.real_coverage("supply")["n"] == before_docs - 1


def test_the_statistics_refuse_a_held_out_contract(real_corpus):
    val = next(e for e in corpus.load_manifest(real_corpus) if e["source"] == "cuad" and e["split"] == "val")
    with pytest.raises(AssertionError, match="only train"):
        ck._cuad_shares([val], ck._cuad_labels(str(real_corpus)))


def test_real_coverage_is_the_bar_of_the_kinds_contracts(real_corpus):
    bar = ck.real_coverage("supply")
    assert bar["n"] > 10 and 0.0 < bar["median"] <= 1.0 and 0.0 < bar["mean"] <= 1.0
    assert set(bar["held_share"]) == {i.key for i in ck.checklist("supply")}
    bar["held_share"].clear()
    assert ck.real_coverage("supply")["held_share"], "the cached result is not the caller's to change"
