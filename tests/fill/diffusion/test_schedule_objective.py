import math

import pytest
import torch

from hybrid.common.errors import ConfigError
from hybrid.model.objective import mdlm_loss, q_xt, sample_times, subs_logits
from hybrid.model.schedule import SCHEDULES, get_schedule


@pytest.mark.parametrize("name", sorted(SCHEDULES))
def test_schedule_goes_from_clean_to_masked(name):
    s = get_schedule(name)
    t = torch.linspace(0.001, 0.999, 50)
    a = s.alpha(t)
    assert float(a[0]) > 0.99 and float(a[-1]) < 0.02
    assert torch.all(a[1:] <= a[:-1])
    assert torch.all(s.loss_weight(t) > 0)


@pytest.mark.parametrize("name", sorted(SCHEDULES))
def test_alpha_rate_is_the_derivative(name):
    s = get_schedule(name)
    t = torch.tensor([0.2, 0.5, 0.8], dtype=torch.float64)
    h = 1e-5
    numeric = (s.alpha(t + h) - s.alpha(t - h)) / (2 * h)
    torch.testing.assert_close(s.alpha_rate(t).double(), numeric, rtol=1e-4, atol=1e-6)


def test_loglinear_weight_is_one_over_t():
    t = torch.tensor([0.1, 0.5, 0.9])
    torch.testing.assert_close(get_schedule("loglinear").loss_weight(t), 1 / t)


def test_unknown_schedule_lists_names():
    with pytest.raises(ConfigError, match="loglinear"):
        get_schedule("quadratic")


def test_q_xt_masks_only_spans_at_the_scheduled_rate():
    g = torch.Generator().manual_seed(0)
    x0 = torch.randint(10, 100, (4, 4000), generator=g)
    span = torch.zeros_like(x0, dtype=torch.bool)
    span[:, 1000:3000] = True
    t = torch.tensor([0.1, 0.4, 0.7, 0.95])
    xt, masked = q_xt(x0, span, t, get_schedule("loglinear"), mask_id=3, generator=g)
    assert not masked[~span].any()
    assert torch.equal(xt[~masked], x0[~masked]) and torch.all(xt[masked] == 3)
    rate = masked[:, 1000:3000].float().mean(1)
    torch.testing.assert_close(rate, t * (1 - 1e-3), atol=0.03, rtol=0)


def test_subs_never_predicts_mask_and_does_not_modify_input():
    logits = torch.randn(2, 5, 16)
    before = logits.clone()
    out = subs_logits(logits, 3)
    assert torch.equal(logits, before)
    assert torch.all(torch.isinf(out[..., 3]))


def test_mdlm_loss_is_zero_for_a_perfect_model_and_counts_spans():
    x0 = torch.tensor([[5, 6, 7, 8]])
    span = torch.tensor([[False, True, True, True]])
    masked = torch.tensor([[False, True, False, True]])
    perfect = torch.full((1, 4, 10), -1e4)
    perfect[0, torch.arange(4), x0[0]] = 1e4
    out = mdlm_loss(perfect, x0, masked, span, torch.tensor([0.5]), get_schedule("loglinear"), 3)
    assert float(out.loss) == pytest.approx(0.0, abs=1e-6)
    assert out.n_span_tokens == 3
    uniform = torch.zeros(1, 4, 10)
    out = mdlm_loss(uniform, x0, masked, span, torch.tensor([0.5]), get_schedule("loglinear"), 3)
    # 2 masked tokens x log(9) (mask excluded by SUBS) x weight 1/t=2, averaged over 3 span tokens
    assert float(out.loss) == pytest.approx(2 * math.log(9) * 2 / 3, rel=1e-5)


def test_antithetic_times_cover_the_interval():
    t = sample_times(8, torch.Generator().manual_seed(0))
    assert t.shape == (8,) and float(t.min()) > 0 and float(t.max()) <= 1
    assert len(set((t * 8).floor().tolist())) == 8
