"""hybrid.precedents.typicality: how much of a document reads as the standard forms read, sentence by sentence."""

from types import SimpleNamespace as NS

import numpy as np
import pytest

from hybrid.precedents.typicality import TYPICAL_LO, TYPICAL_SPAN, typical_part, typicality

FORM = NS(body="Each party shall keep the other party's confidential information in confidence at all times. "
          "Either party may terminate this agreement for a material breach not cured within thirty days.",
          source="commonpaper")
GENERIC = NS(body="Each party shall keep the confidential information of the other party in confidence always. "
             "Short line. Buyer shall pay each invoice within thirty days of receipt by wire transfer.",
             source="cuad")
OWN_DEAL = NS(body="Homologation fees for the vehicle and its spare parts are shared by the parties as follows. "
              "The fermenters at the manufacturing facility shall run continuously for ninety days.", source="cuad")


class _Library:
    """A stand-in library: what typicality memoizes by (a weak reference)."""


def _embed(texts):
    """A bag of the words of a small vocabulary: sentences sharing words point the same way."""
    vocab = sorted({w for t in (FORM.body, GENERIC.body, OWN_DEAL.body) for w in t.lower().replace(".", "").split()})
    rows = np.zeros((len(texts), len(vocab)), dtype=np.float32)
    for i, t in enumerate(texts):
        for w in t.lower().replace(".", "").split():
            rows[i, vocab.index(w)] += 1
    return rows


def test_a_document_written_as_the_forms_are_is_more_typical_than_one_about_its_own_deal():
    library = _Library()
    docs = {"form": [FORM], "generic": [GENERIC], "own": [OWN_DEAL]}
    generic = typicality(library, "generic", [GENERIC], _embed, docs)
    own = typicality(library, "own", [OWN_DEAL], _embed, docs)
    assert 0 <= own < generic <= 1
    assert typicality(library, "generic", [GENERIC], None, docs) == generic  # memoized per library: no embedding


def test_no_form_or_no_sentence_measures_nothing():
    assert typicality(_Library(), "own", [OWN_DEAL], _embed, {"own": [OWN_DEAL]}) is None
    assert typicality(_Library(), "short", [NS(body="Too short.", source="cuad")], _embed, {"form": [FORM]}) is None


@pytest.mark.parametrize("value,part", [(None, 0.0), (TYPICAL_LO - 0.1, 0.0), (TYPICAL_LO + TYPICAL_SPAN / 2, 0.5),
                                        (TYPICAL_LO + TYPICAL_SPAN + 0.1, 1.0)])
def test_the_part_is_scaled_over_its_span(value, part):
    assert typical_part(value) == pytest.approx(part)
