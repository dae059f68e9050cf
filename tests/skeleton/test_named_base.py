"""hybrid.skeleton.from_base.named_base: the lawyer names the base document every variant starts from, by its id or
a part of one; a name that fits none or several is refused with the candidates, best fit first."""

from types import SimpleNamespace

import pytest

from hybrid.common.errors import ConfigError
from hybrid.skeleton.from_base import named_base

BASES = [SimpleNamespace(doc_id=f"cuad/contracts/{d}") for d in (
    "ELECTRAMECCANICA VEHICLES CORP. - Manufacturing Agreement.txt",
    "KitovPharmaLtd_EX-4.15_Manufacturing Agreement.txt",
    "ReynoldsConsumerProductsInc_EX-10.18_Supply Agreement.txt",
)]


def test_a_part_of_one_id_in_any_case_names_that_base():
    assert named_base(BASES, "reynolds") == [BASES[2]]
    assert named_base(BASES, " Kitov ") == [BASES[1]]


def test_a_whole_id_names_its_base_even_where_it_is_part_of_another():
    bases = BASES + [SimpleNamespace(doc_id=BASES[2].doc_id + ".bak")]
    assert named_base(bases, BASES[2].doc_id) == [BASES[2]]


def test_a_name_of_several_or_none_is_refused_with_the_candidates():
    with pytest.raises(ConfigError, match=r"base_doc 'Manufacturing' names 2 base documents; one of: ELECTRAMECCANICA"
                       r".*; KitovPharmaLtd.*\.txt\.$"):
        named_base(BASES, "Manufacturing")
    with pytest.raises(ConfigError, match=r"base_doc 'zzz' names no base document of this kind; one of: "
                       r"ELECTRAMECCANICA.*Reynolds"):
        named_base(BASES, "zzz")
