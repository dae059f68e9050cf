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
    ]
    base = Base("cuad/contracts/d.txt", "DISTRIBUTOR AGREEMENT", "cuad", sections, "precedent")
    headings = [r["heading"] for r in _rows(base, t, t.example) if r.get("draw")]
    assert not any("Australian" in h for h in headings)
    assert any("Canadian" in h for h in headings)  # the deal's territory is Canada
    assert any(h.startswith("Appointment") for h in headings) and "Notices" in headings
