"""hybrid.fidelity.foreign_subject: another deal's subject matter in a draft (the phrases a lawyer found
in drafts: "clinical trial material" in a supply of plastic containers, "card shuffling machine" in a
DPA) is flagged, the deal's own subject and contract boilerplate are not, standard forms read clean,
and the index is the train split's alone, cached on disk."""

import json

import pytest

from hybrid.data.corpus import load_manifest
from hybrid.fidelity import foreign_subject as fs
from hybrid.fidelity.foreign_subject import (
    build_subject_index,
    foreign_subject_rate,
    foreign_subjects,
    kind_vocabulary,
    load_subject_index,
    phrases,
)

from conftest import CORPUS

SUPPLY = (
    "Supply Agreement between Keystone Polymers Corp. (Supplier) and Aurora Home Goods, Inc. (Buyer). "
    "Products: injection-moulded polypropylene storage containers. Price: per the price list in Exhibit A, "
    "fixed for 12 months. Delivery: FCA Supplier's facility (Incoterms 2020). Term: 5 years. "
    "Governing law: the State of Ohio."
)
DPA = (
    "Data Processing Agreement between Northwind Analytics Ltd (Processor) and Brightline Retail GmbH "
    "(Controller). Processing of customer personal data for hosting of an e-commerce platform under the GDPR."
)
JV = (
    "Joint Venture Agreement between Solaris Software LLC and GreenGrid Analytics Inc. Solaris contributes "
    "capital of $5,000,000; GreenGrid contributes its analytics software platform and engineering staff."
)
CONSULTING = (
    "Consulting Agreement between Meridian Advisory LLC (Consultant) and Pinecrest Software Inc. (Client). "
    "Services: IT strategy advice. Fees: $200 per hour, invoiced monthly."
)
SPONSORSHIP = (
    "Sponsorship Agreement between Redline Beverages Inc. (Sponsor) and Harbor City FC (Club): shirt "
    "branding and stadium signage for the 2025 season, for a fee of $250,000."
)

FOREIGN = [
    # (deal, draft sentence as a lawyer found it, the phrase that must be flagged)
    (SUPPLY, "Supplier shall deliver clinical trial material to Buyer.", "clinical trial material"),
    (SUPPLY, "Assembly of printed circuit boards & cables in accordance with the Gerber data, CAD files "
             "supplied by Buyer.", "Gerber data"),
    (SUPPLY, "Assembly of printed circuit boards & cables in accordance with the Gerber data, CAD files "
             "supplied by Buyer.", "CAD files"),
    (DPA, "Processor shall not process personal data for any other card shuffling machine.", "card shuffling machine"),
    (JV, "The JV Partners shall contribute by providing the land, farming expertise, biomass and related services.",
     "biomass"),
    (JV, "The JV Partners shall contribute by providing the land, farming expertise, biomass and related services.",
     "farming expertise"),
    (CONSULTING, "The Consultant's fee shall equal 1% of the net asset value of the Fund.", "net asset value"),
    (SPONSORSHIP, "Sponsor shall promote the Club in Sponsor shopping channel.", "shopping channel"),
]  # fmt: skip

BOILERPLATE = [
    (SUPPLY, "Supplier shall deliver the Products to Buyer within thirty days after receipt of a purchase order. "
             "Either party may terminate this Agreement upon written notice if the other party commits a material "
             "breach."),
    (SUPPLY, "Supplier shall deliver the storage containers FCA Supplier's facility."),  # the deal's own subject
    (DPA, "Processor shall process Personal Data only on documented instructions from Controller and shall "
          "ensure that persons authorised to process it are bound by confidentiality."),
    (CONSULTING, "Consultant shall keep Confidential Information confidential and shall indemnify Client against "
                 "third-party claims."),
]  # fmt: skip

NDA = "Mutual NDA between Acme Analytics, Inc. and Beta Robotics LLC"
# Standard forms of the train split and deal texts naming their parties (words: about 240 to 5,700).
FORMS = [
    ("standard-agreements/common-paper-mutual-nda.txt", NDA),
    ("standard-agreements/bonterms-mutual-nda.md", NDA),
    ("standard-agreements/common-paper-one-way-nda.txt", "NDA: Acme Analytics, Inc. discloses to Beta Robotics LLC"),
    ("standard-agreements/common-paper-cloud-service-agreement.txt",
     "Cloud Service Agreement: Acme Cloud Inc. (Provider) and Beta Retail LLC (Customer)"),
    ("standard-agreements/common-paper-software-license-agreement.txt",
     "Software License Agreement: Acme Software Inc. (Provider) and Beta Retail LLC (Customer)"),
    ("standard-agreements/common-paper-professional-services-agreement.txt",
     "Professional Services Agreement: Acme Consulting Inc. (Provider) and Beta Retail LLC (Customer)"),
]  # fmt: skip
NDA_FORMS = [path for path, _ in FORMS if "-nda." in path]


PHRASES = [
    # (text, its phrases): runs of content words end at function words, punctuation and digits; the
    # verb after a modal starts no phrase
    ("Supplier shall deliver clinical trial material.",
     {"supplier", "clinical", "trial", "material", "clinical trial", "trial material", "clinical trial material"}),
    ("Buyer shall not then pay the 2 invoices", {"buyer", "invoice"}),
    ("printed circuit boards & cables", {"printed", "circuit", "board", "printed circuit", "circuit board",
                                         "printed circuit board", "cable"}),
]  # fmt: skip


@pytest.mark.parametrize("text, expected", PHRASES)
def test_phrases_are_content_word_runs(text, expected):
    assert set(phrases(text)) == expected


@pytest.fixture(scope="module")
def index():
    return load_subject_index(CORPUS)


@pytest.mark.parametrize("deal, sentence, phrase", FOREIGN)
def test_another_deals_subject_is_flagged(index, deal, sentence, phrase):
    assert phrase in foreign_subjects(sentence, deal, index=index)


@pytest.mark.parametrize("deal, sentence", BOILERPLATE)
def test_boilerplate_and_the_deals_own_subject_are_not_flagged(index, deal, sentence):
    assert foreign_subjects(sentence, deal, index=index) == []


def test_a_subject_the_deal_names_is_its_own_in_any_number(index):
    assert phrases("Printed circuit boards, parties") == phrases("printed circuit board; party")
    sentence = "Assembly of printed circuit boards in accordance with the Gerber data."
    assert "printed circuit boards" not in foreign_subjects(sentence, SUPPLY, index=index)
    own = foreign_subjects(sentence, SUPPLY + " Products: a printed circuit board per Gerber file.", index=index)
    assert own == []


def test_overlapping_phrases_are_one_subject_listed_once(index):
    sentence = "Card shuffling machines. The card shuffling machine. Buyer buys a card shuffling machine."
    assert foreign_subjects(sentence, DPA, index=index) == ["Card shuffling machines"]
    words = len(sentence.split())
    assert foreign_subject_rate(sentence, DPA, index) == pytest.approx(3 * 1000 / words)


@pytest.mark.parametrize("path, deal", FORMS)
def test_standard_forms_read_clean(index, path, deal):
    text = (CORPUS / path).read_text(encoding="utf-8")
    assert foreign_subject_rate(text, deal, index) <= 1.0, foreign_subjects(text, deal, index=index)


def test_an_nda_body_reads_clean_with_no_nda_form_in_the_index():
    """Every NDA form left out of the index (its phrases neither counted nor exempt): the detector
    reads NDAs it has never seen."""
    entries = [e for e in load_manifest(CORPUS) if e["split"] == "train" and "-nda." not in e["path"]]
    held_out = build_subject_index(CORPUS, entries)
    for path in NDA_FORMS:
        text = (CORPUS / path).read_text(encoding="utf-8")
        assert len(foreign_subjects(text, NDA, index=held_out)) <= 2, path


def _tiny_corpus(root, val_text="Gizmo widget calibration."):
    files = {
        "a.txt": ("train", "Widget calibration. The widget calibration is done. Notice in writing."),
        "b.txt": ("train", "Notice in writing. Payment terms."),
        "c.txt": ("val", val_text),
    }
    lines = []
    for name, (split, text) in files.items():
        (root / name).write_text(text)
        lines.append(json.dumps({"path": name, "source": "cuad", "doc_type": "X", "group": name, "split": split}))
    (root / "manifest.jsonl").write_text("\n".join(lines) + "\n")


def test_the_index_is_the_train_splits_and_is_cached_on_disk(tmp_path, monkeypatch):
    monkeypatch.setenv("HYBRID_CACHE", str(tmp_path / "cache"))
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    _tiny_corpus(corpus)
    index = load_subject_index(corpus)
    assert index.n_docs == 2 and index.df["widget calibration"] == 1 and index.df["notice"] == 2
    assert "gizmo" not in index.df  # a val file never counts
    assert index.repeated == {"widget": 1, "calibration": 1, "widget calibration": 1}
    assert len(list((tmp_path / "cache" / "subjects").glob("*.json"))) == 1
    fs._LOADED.clear()
    monkeypatch.setattr(fs, "build_subject_index", lambda *a: pytest.fail("rebuilt although cached"))
    assert load_subject_index(corpus) == index


def test_held_out_files_never_shape_the_index(tmp_path):
    _tiny_corpus(tmp_path)
    entries = load_manifest(tmp_path)
    with pytest.raises(AssertionError, match="train split only"):
        build_subject_index(tmp_path, entries)


def test_max_df_out_of_range_is_refused(index):
    with pytest.raises(ValueError, match=r"max_df must be in \(0, 1\], got 0"):
        foreign_subjects("card shuffling machine", DPA, index=index, max_df=0)


def test_the_kinds_own_language_is_no_other_deals_subject(index):
    """A phrase several filers of the deal's kind write is the kind's ("capital account" in joint ventures); one that a
    single filer's deal writes stays another deal's subject ("Astaxanthin"), and so does a subject two racing
    sponsorships share, among the many sponsorship filers ("race car")."""
    venture = kind_vocabulary({"JOINT VENTURE AGREEMENT"}, CORPUS)
    assert "capital account" in venture and "astaxanthin" not in venture
    deal = "Granite Solar Ventures LLC, a solar installation on reclaimed mine land."
    sentence = "Each capital account is credited with the Astaxanthin sold and with the capital accounts' interest."
    assert "capital account" in foreign_subjects(sentence, deal, index=index)
    assert foreign_subjects(sentence, deal, index=index, kind=venture) == ["Astaxanthin"]
    sponsorship = kind_vocabulary({"SPONSORSHIP AGREEMENT", "ENDORSEMENT AGREEMENT", "PROMOTION AGREEMENT"}, CORPUS)
    assert "race car" not in sponsorship
