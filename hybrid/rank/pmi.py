"""Relevance of a text to a clause spec as pointwise mutual information under the backbone.

Owns: the two PMI estimators of log p(text | spec) - log p(text | spec hidden), per text token,
as small classes behind one factory (`pmi_estimator`, which raises on an unknown name), and the
spec's canonical heading-line prefix. The spec is `heading_line("1", spec)` of a one-section
document whose body is the text; a raw likelihood favours short generic text, the contrast
measures what the heading explains.
- "causal" (CausalPMI): teacher-forced log p(text | heading line) - log p(text | no heading
  line), in hybrid.rank.likelihood's training windows.
- "fill" (FillPMI): the filler's view. Every text token is masked (t = 1) and predicted in `fill`
  mode with the heading visible, and again with it hidden through the attention mask: exactly the
  unconditional branch that condition dropout trains for guidance. One forward per pair, no
  left-to-right dependence; a text longer than the window is scored on its first tokens.
"fill" is the default: its heading MRR on val-split documents beat "causal"'s (the figures:
benchmarks/results/figures-without-a-result-file.md; the test split's: rerank-mrr-test-cpu.json).

Knows nothing about drafts, contract checks or how the PMI is combined (hybrid.rank.rerank,
hybrid.precedents.relevance).
"""

import torch

from hybrid.common.errors import ConfigError, SamplingError
from hybrid.data.document import heading_line
from hybrid.data.layout import doc_header
from hybrid.model.backbone import fill_mask
from hybrid.model.objective import align_fill, fill_shift
from hybrid.rank.likelihood import logprob_sums, token_logprobs, training_windows

__all__ = ["CausalPMI", "FillPMI", "PMI_MODES", "pmi_estimator", "spec_prefix"]


def spec_prefix(tok, spec: str) -> list[int]:
    """The ids of a spec's canonical heading line; SamplingError for an empty spec."""
    if not isinstance(spec, str) or not spec.strip().rstrip(".:"):
        raise SamplingError(f"spec must be a non-empty heading or clause description, got {spec!r}.")
    return tok.encode(heading_line("1", " ".join(spec.split())))


class CausalPMI:
    """Teacher-forced: log p(body | <bos><doc> heading) - log p(body | <bos><doc>), per body token."""

    def __init__(self, window: int, stride: int, max_batch_tokens: int):
        self.window, self.stride, self.max_batch_tokens = window, stride, max_batch_tokens

    def __call__(self, model, tok, prefixes: list[list[int]], bodies: list[list[int]]) -> list[float]:
        head = doc_header(tok)
        seqs, scored, hidden_of = [], [], {}
        for p, x in zip(prefixes, bodies):
            seqs.append(head + p + x)
            scored.append([False] * (len(head) + len(p)) + [True] * len(x))
        for x in map(tuple, bodies):  # each distinct text's hidden-spec likelihood once
            if x not in hidden_of:
                hidden_of[x] = len(seqs)
                seqs.append(head + list(x))
                scored.append([False] * len(head) + [True] * len(x))
        out = logprob_sums(model, seqs, scored, lambda n: training_windows(n, self.window, self.stride),
                           pad_id=tok.pad_id, max_batch_tokens=self.max_batch_tokens)
        return [(out[i][0] - out[hidden_of[tuple(x)]][0]) / out[i][1] for i, x in enumerate(bodies)]


class FillPMI:
    """Every body token masked; each pair as a conditional and an unconditional row of one batch."""

    def __init__(self, window: int, stride: int, max_batch_tokens: int):
        self.window, self.max_batch_tokens = window, max_batch_tokens

    @torch.inference_mode()
    def __call__(self, model, tok, prefixes: list[list[int]], bodies: list[list[int]]) -> list[float]:
        head = doc_header(tok)
        device = next(model.parameters()).device
        weight = model.output_weight
        rows = []  # (pair, ids, targets, n heading); the body is cut to fit the window
        for i, (p, x) in enumerate(zip(prefixes, bodies)):
            x = x[: max(1, self.window - len(head) - len(p))]
            rows.append((i, head + p + [tok.mask_id] * len(x), x, len(p)))
        order = sorted(range(len(rows)), key=lambda r: len(rows[r][1]))
        out = [0.0] * len(rows)
        model.eval()
        a = 0
        while a < len(order):
            b = a + 1
            while b < len(order) and len(rows[order[b]][1]) * 2 * (b - a + 1) <= self.max_batch_tokens:
                b += 1
            batch = [rows[r] for r in order[a:b]]
            B, L = len(batch), max(len(r[1]) for r in batch)
            ids = torch.full((B, L), tok.pad_id, dtype=torch.long)
            span = torch.zeros(B, L, dtype=torch.bool)
            valid = torch.zeros(B, L, dtype=torch.bool)
            heading = torch.full((B, L), -1, dtype=torch.long)
            for r, (_, x_ids, x, n_head) in enumerate(batch):
                ids[r, : len(x_ids)] = torch.tensor(x_ids)
                valid[r, : len(x_ids)] = True
                span[r, len(x_ids) - len(x) : len(x_ids)] = True
                heading[r, len(head) : len(head) + n_head] = 0
            section = torch.where(span, 0, -1)
            # (2B, L): cond rows, then uncond
            ids2, span2, valid2 = ids.repeat(2, 1), span.repeat(2, 1), valid.repeat(2, 1)
            uncond = span2 & (torch.arange(2 * B)[:, None] >= B)
            mask = fill_mask(span2, span2, section.repeat(2, 1), heading.repeat(2, 1), uncond, valid2)
            hidden = model(ids2.to(device), "fill", attn_mask=mask.to(device), return_hidden=True)  # (2B, L, D)
            hidden = align_fill(hidden, fill_shift(model))  # [:, i] predicts token i
            r_idx, c_idx = span2.nonzero(as_tuple=True)
            tgt = torch.cat([torch.tensor(x) for _, _, x, _ in batch] * 2).to(device)  # row-major, as nonzero() orders
            # SUBS: never <mask>
            lp = token_logprobs(hidden[r_idx.to(device), c_idx.to(device)], weight, tgt, exclude=tok.mask_id)
            per_row = torch.zeros(2 * B, device=device).index_add_(0, r_idx.to(device), lp).tolist()
            for r, (i, _, x, _) in enumerate(batch):
                out[i] = (per_row[r] - per_row[B + r]) / len(x)
            a = b
        return out


_ESTIMATORS = {"causal": CausalPMI, "fill": FillPMI}
PMI_MODES = tuple(_ESTIMATORS)


def pmi_estimator(mode: str, *, window: int, stride: int, max_batch_tokens: int):
    """The PMI estimator named `mode` (PMI_MODES); ConfigError naming the modes for any other name."""
    if mode not in _ESTIMATORS:
        raise ConfigError(f"pmi_mode must be one of {', '.join(PMI_MODES)}, got {mode!r}.")
    return _ESTIMATORS[mode](window, stride, max_batch_tokens)
