import pytest

from hybrid.common.errors import SamplingError
from hybrid.common.sampling import NoRepeatNGram, SamplingParams, Temperature, TopP
from hybrid.data.document import Segment
from hybrid.draft.drafter import FILLERS, fill_function
from hybrid.fill.api import FILL_TOP_P_CANDIDATES, check_fill_args, fill_processors
from hybrid.skeleton.tokenized import tokenize_segments


def test_fill_processors_take_top_p_among_candidates_and_optionally_drop_ngrams():
    p = SamplingParams(temperature=0.7, top_p=0.9, no_repeat_ngram=3)
    procs = fill_processors(p)
    assert [type(x) for x in procs] == [NoRepeatNGram, Temperature, TopP]
    assert procs[-1].candidates == FILL_TOP_P_CANDIDATES and procs[-1].top_p == 0.9
    assert [type(x) for x in fill_processors(p, positional_ngram=True)] == [Temperature, TopP]


BAD_FILL_ARGS = [  # (argument, value, what the message says)
    ("n", 0, r"n must be an integer in \[1, 64\], got 0"),
    ("n", 65, r"n must be an integer in \[1, 64\], got 65"),
    ("steps", 0, r"steps must be an integer >= 1, got 0"),
    ("guidance", -0.5, r"guidance must be a finite number >= 0 \(1 = off\), got -0.5"),
    ("guidance", float("nan"), r"guidance .* got nan"),
    ("seed", "1", r"seed must be an integer in \[0, 18446744073709551615\], got '1'"),
    ("seed", 2**64, r"seed must be an integer in \[0, 18446744073709551615\], got 18446744073709551616"),
]


@pytest.mark.parametrize("name, value, match", BAD_FILL_ARGS)
def test_bad_fill_arguments_name_the_argument_and_value(name, value, match):
    with pytest.raises(SamplingError, match=match):
        check_fill_args(**{"n": 8, "steps": 16, "guidance": 1.0, "seed": 0, name: value})


@pytest.mark.parametrize("filler", FILLERS)
@pytest.mark.parametrize("name, value, match", BAD_FILL_ARGS[:4])
def test_every_filler_checks_its_arguments_before_any_work(tiny_model, tokenizer, filler, name, value, match):
    segs = [Segment("TITLE\n\n", "text"), Segment("1. Term.\n", "heading", 0), Segment("", "body", 0)]
    with pytest.raises(SamplingError, match=match):
        fill_function(filler)(tiny_model, tokenizer, tokenize_segments(tokenizer, segs, [8]), **{name: value})
