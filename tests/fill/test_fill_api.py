from hybrid.common.sampling import NoRepeatNGram, SamplingParams, Temperature, TopP
from hybrid.fill.api import FILL_TOP_P_CANDIDATES, fill_processors


def test_fill_processors_take_top_p_among_candidates_and_optionally_drop_ngrams():
    p = SamplingParams(temperature=0.7, top_p=0.9, no_repeat_ngram=3)
    procs = fill_processors(p)
    assert [type(x) for x in procs] == [NoRepeatNGram, Temperature, TopP]
    assert procs[-1].candidates == FILL_TOP_P_CANDIDATES and procs[-1].top_p == 0.9
    assert [type(x) for x in fill_processors(p, positional_ngram=True)] == [Temperature, TopP]
