"""hybrid.skeleton.from_base: a base section whose heading confines it to a place the deal never names is no section
of this deal's draft ("GST and taxes (Only Applicable to Australian companies)" in a Minnesota deal)."""

from hybrid.precedents.base import Base
from hybrid.precedents.library import Precedent
from hybrid.skeleton.from_base import _rows
from hybrid.templates.template import load_template


def _section(heading: str, clause: str, body: str) -> Precedent:
    return Precedent(f"d#{heading}", "d", "cuad", "CC-BY-4.0", "DISTRIBUTOR AGREEMENT", clause, heading, body)


def test_a_section_only_for_another_place_goes_and_one_for_the_deals_place_stays():
    t = load_template("distributor")
    sections = [
        _section("Appointment", "appointment", "The Supplier appoints the Distributor in the Territory."),
        _section("GST and taxes (Only Applicable to Australian companies)", "taxes",
                 "All sums are exclusive of any GST chargeable on the supplies."),
        _section("Sales tax (applicable only to Canadian distributors)", "taxes",
                 "The Distributor collects and remits the sales taxes of its province."),
        _section("Notices", "notices", "Notices are given in writing to the addresses above."),
        _section("Warranty (applicable to products sold after the Effective Date)", "warranty",
                 "The Supplier warrants the Products against defects."),  # no place: it stays
        _section("Returns (Applicable to Products Sold)", "returns", "Products may be returned within a month."),
    ]
    base = Base("cuad/contracts/d.txt", "DISTRIBUTOR AGREEMENT", "cuad", sections, "precedent")
    headings = [r["heading"] for r in _rows(base, t, t.example) if r.get("draw")]
    assert not any("Australian" in h for h in headings)
    assert any("Canadian" in h for h in headings)  # the deal's territory is Canada
    assert any(h.startswith("Appointment") for h in headings) and "Notices" in headings
    assert any(h.startswith("Warranty") for h in headings) and any(h.startswith("Returns") for h in headings)


def test_a_forms_sentence_sending_the_reader_to_its_cover_page_goes_and_its_emptied_section_with_it():
    """Bonterms' "Each party is identified on the Cover Page and capitalized terms have the meanings given on the
    Cover Page or below." reads, in the library, "identified in this Agreement ... meanings given in this
    Agreement": a cover-page leftover two readers quoted (seeds 619 and 733). It goes; the Introduction it leaves
    empty goes too (the filler had written "Except as" into it); a sentence merely naming what the Agreement
    identifies stays."""
    t = load_template("mutual-nda")
    intro = ("To use this NDA, the parties complete and sign a Bonterms Cover Page. Each Party is identified in this "
             "Agreement and capitalized terms have the meanings given in this Agreement.")
    kept = "Recipient will use the Confidential Information only for the Purpose identified in this Agreement."
    sections = [_section("Introduction", "other", intro), _section("Use", "confidentiality", kept)]
    base = Base("standard-agreements/bonterms-mutual-nda.md", "NDA", "bonterms", sections, "form")
    rows = [r for r in _rows(base, t, t.example) if r.get("draw")]
    assert [r["heading"] for r in rows] == ["Use"]
    assert rows[0]["draw"].body == kept
