"""A user's own library is trusted wording (hybrid.text.start.edit_allowed): an edit of its clause keeps every
word but the deal's facts, where the same clause from the shipped corpus has another deal's name masked."""

import pytest

from hybrid.data.facts import DealFacts
from hybrid.precedents.library import Precedent
from hybrid.precedents.user import USER_LICENSE
from hybrid.text.start import SpanEdits, starts_from_draws

DEAL = DealFacts(party_a="Acme Robotics, Inc.", party_b="Borealis LLC", law="Delaware")
ALLOWED = "Acme Robotics, Inc. and Borealis LLC agree under the laws of Delaware."
BODY = ("Each party shall hold the other party's Confidential Information in strict confidence, as agreed at the "
        "Pelican Bay offsite, and [PARTY_A] shall not disclose it without the prior written consent of [PARTY_B].")


def _precedent(source: str, license: str) -> Precedent:
    return Precedent("nda.md#1", "nda.md", source, license, "", "confidentiality", "Confidentiality", BODY,
                     ["Zephyr Holdings"], ["provider", "customer"])


def _start_text(tokenizer, p) -> str:
    start, _ = starts_from_draws(tokenizer, [[p]], SpanEdits(DEAL, ALLOWED, [200]), 0.0, 1)
    ids = list(start[0][0])
    assert tokenizer.mask_id not in ids or p.license != USER_LICENSE, "a user's clause kept no hole"
    return tokenizer.decode([i for i in ids if i != tokenizer.mask_id])


@pytest.mark.parametrize("source, license, kept", [
    ("library:firm", USER_LICENSE, True),  # the firm's wording stays
    ("cuad", "CC-BY-4.0", False),  # another deal's name: masked (or its sentence dropped)
])
def test_a_users_wording_stays_and_only_the_deals_facts_are_replaced(tokenizer, source, license, kept):
    text = _start_text(tokenizer, _precedent(source, license))
    assert ("Pelican Bay offsite" in text) is kept
    if kept:
        assert "Acme Robotics, Inc." in text and "Borealis LLC" in text  # the deal's facts in the markers' place
