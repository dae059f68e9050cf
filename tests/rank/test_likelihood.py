import pytest
import torch

from hybrid.rank.likelihood import logprob_sums, sliding_windows, trained_window, training_windows


@pytest.mark.parametrize("place", [sliding_windows, training_windows])
@pytest.mark.parametrize("n, length, stride", [(10, 4, 2), (100, 32, 16), (33, 64, 32), (100, 16, 12), (2, 8, 4)])
def test_windows_score_every_target_once_with_its_context(place, n, length, stride):
    rows = place(n, length, stride)
    assert [t for _, e, f in rows for t in range(f, e)] == list(range(1, n))  # each target once, in order
    assert all(e - s <= length and s < f for s, e, f in rows)  # the predecessor of every target is in its window
    assert all(f - s >= length - stride for s, _, f in rows[1:])  # later windows keep >= length - stride of context


def test_training_windows_end_where_training_cuts_the_last_one():
    assert training_windows(100, 32, 16)[-1][:2] == (68, 100)
    assert sliding_windows(100, 32, 16)[-1][:2] == (80, 100)


def _full_logprob(model, ids, scored):
    with torch.no_grad():
        logp = torch.log_softmax(model(torch.tensor([ids]), "causal")[0, :-1].float(), -1)
    return sum(float(logp[t - 1, ids[t]]) for t in range(1, len(ids)) if scored[t])


def test_logprob_sums_match_a_full_forward_when_one_window_holds_the_sequence(tiny_model):
    g = torch.Generator().manual_seed(0)
    seqs = [torch.randint(8, tiny_model.cfg.vocab_size, (n,), generator=g).tolist() for n in (40, 25)]
    scored = [[t % 3 != 0 for t in range(len(s))] for s in seqs]
    out = logprob_sums(tiny_model, seqs, scored, lambda n: sliding_windows(n, 64, 32), max_batch_tokens=64)
    for (lp, count), ids, sc in zip(out, seqs, scored):
        assert lp == pytest.approx(_full_logprob(tiny_model, ids, sc), abs=1e-3) and count == sum(sc[1:])


def test_trained_window_reads_the_checkpoint_record_and_defaults_to_trainconfig():
    assert trained_window({"config": {"seq_len": 256, "stride": 192}}) == {"window": 256, "stride": 192}
    assert trained_window({}) == trained_window(None) == {"window": 512, "stride": 384}
