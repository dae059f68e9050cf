"""hybrid.fill.ar: the KV-cached AR baseline equals a no-cache greedy reference, keeps padded rows
and window rebuilds exact, respects locks and budgets, and fills documents longer than the context."""

import pytest
import torch

from hybrid.common.errors import SamplingError
from hybrid.common.sampling import SamplingParams
from hybrid.data.document import Segment
from hybrid.fill.ar import ARConfig, _Decoder, fill
from hybrid.skeleton.tokenized import tokenize_segments


def _small(tokenizer, budgets=(12, 9, 14)):
    segs = [Segment("SUPPLY AGREEMENT\n\nThis Agreement is made by Acme Inc. and Borealis LLC.\n\n", "text")]
    for i, _b in enumerate(budgets):
        segs += [Segment(f"{i + 1}. Heading {i}.\n", "heading", i), Segment("", "body", i), Segment("\n\n", "text")]
    return tokenize_segments(tokenizer, segs, list(budgets))


def _reference(model, tokenizer, sk):
    """Greedy without any cache: a full causal forward over the whole prefix for every token."""
    ids, seq, prev, out = sk.ids.tolist(), [], 0, []
    banned = [i for i in tokenizer.special_ids if i != tokenizer.eos_id]
    for s in sk.spans:
        seq += ids[prev : s.start]
        body = []
        for t in range(s.length):
            if t == s.length - 1:
                x = tokenizer.eos_id
            else:
                with torch.no_grad():
                    logits = model(torch.tensor(seq)[None], "causal")[0, -1]
                logits[banned] = float("-inf")
                x = int(logits.argmax())
            seq.append(x)
            if x == tokenizer.eos_id:
                break
            body.append(x)
        out.append(body)
        prev = s.end
    return out


def test_greedy_matches_a_no_cache_reference(lively_model, tokenizer):
    sk = _small(tokenizer)
    res = fill(lively_model, tokenizer, sk, n=2, params=SamplingParams(temperature=0),
               config=ARConfig(precision="fp32"))
    want = _reference(lively_model, tokenizer, sk)
    assert res[0].tokens == want and res[1].tokens == want


def test_padded_rows_and_window_rebuilds_stay_exact(tiny_model, tokenizer):
    dec = _Decoder(tiny_model, 2, window=32, pad_id=tokenizer.pad_id, device="cpu")
    g = torch.Generator().manual_seed(0)
    with torch.no_grad():
        dec.feed(torch.randint(10, 500, (2, 20), generator=g))
        for step in range(40):
            x = torch.randint(10, 500, (2, 1), generator=g)
            dec.feed(x, torch.tensor([[True], [step % 3 != 0]]))  # row 1 pads every third step
            for b in range(2):
                ctx = int(dec.kvalid[b].sum())
                assert ctx <= 32
                want = tiny_model(torch.tensor(dec.hist[b][-ctx:])[None], "causal")[0, -1]
                torch.testing.assert_close(dec.last[b], want, rtol=1e-4, atol=1e-4)
    assert len(dec.hist[0]) == 60 and len(dec.hist[1]) == 60 - 14


def test_same_seed_same_drafts(tiny_model, tokenizer):
    sk = _small(tokenizer)
    p = SamplingParams(top_p=0.9, no_repeat_ngram=3)
    a = fill(tiny_model, tokenizer, sk, n=3, seed=5, params=p)
    b = fill(tiny_model, tokenizer, sk, n=3, seed=5, params=p)
    assert [r.text for r in a] == [r.text for r in b]
    assert len({tuple(map(tuple, r.tokens)) for r in a}) > 1


def test_locks_and_budgets(tiny_model, tokenizer):
    sk = _small(tokenizer, budgets=(16, 10, 20)).lock_text(tokenizer, 2, " Borealis LLC", offset=4)
    lock = tokenizer.encode(" Borealis LLC")
    for r in fill(tiny_model, tokenizer, sk, n=4, seed=1):
        assert r.tokens[2][4 : 4 + len(lock)] == lock
        assert all(len(t) <= s.length - 1 for t, s in zip(r.tokens, sk.spans))
        assert not any(set(t) & set(tokenizer.special_ids) for t in r.tokens)


@pytest.mark.parametrize(
    "kwargs,match",
    [
        ({"window": 4}, r"window must be an integer >= 16, got 4"),
        ({"precision": "half"}, r"precision must be one of auto, fp32, bf16, got 'half'"),
    ],
)
def test_bad_arguments_name_the_argument(tiny_model, tokenizer, kwargs, match):
    with pytest.raises(SamplingError, match=match):
        fill(tiny_model, tokenizer, _small(tokenizer), config=ARConfig(**kwargs))


def test_document_longer_than_the_context_fills(tiny_model, tokenizer):
    segs = [Segment("LONG AGREEMENT\n\n" + "The parties agree as follows. " * 60 + "\n\n", "text")]
    for i in range(24):
        segs += [
            Segment(f"{i + 1}. Heading {i}.\n", "heading", i),
            Segment("", "body", i),
            Segment("\n\n" + "Further text here. " * 25, "text"),
        ]
    sk = tokenize_segments(tokenizer, segs, [6] * 24)
    assert len(sk) > 4096
    seen = []

    class Spy(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.m, self.cfg = tiny_model, tiny_model.cfg

        def forward(self, ids, mode, **kw):
            seen.append(int(kw["positions"].max()))
            return self.m(ids, mode, **kw)

    res = fill(Spy(), tokenizer, sk, n=2, seed=0, config=ARConfig(precision="bf16"))
    assert max(seen) < 512
    assert all(len(r.tokens) == 24 for r in res) and res[0].text.startswith("LONG AGREEMENT")


def test_step_events_render_the_spans_written_so_far(tiny_model, tokenizer):
    sk = _small(tokenizer)
    events = []
    res = fill(tiny_model, tokenizer, sk, n=2, seed=3, on_step=events.append)
    assert [e.step for e in events] == [1, 2, 3] and all(e.steps == 3 for e in events)
    first, last = events[0].partial("@@"), events[-1].partial("@@")
    assert len(first) == 2 and first[0].count("@@") == 2  # spans 2 and 3 not written yet
    assert first[0].startswith(res[0].text.split("2. Heading 1.")[0])  # span 1 as finally written
    assert last == [r.text for r in res]
