"""Training throughput of the joint AR + MDLM step: tokens/s, and model FLOPs utilization on GPU.

Prints one JSON line. The baseline measured in the same run is the AR-only step on the same
model and batch (what a plain causal LM would cost), so `joint_vs_ar_only` is robust to the
noise of a shared machine; bf16 autocast vs fp32 is reported as a second ratio.

    python benchmarks/train_throughput.py [--device cpu|cuda] [--d-model 256 --n-layers 4] [--steps 5]
"""

import argparse
import json
import time

import torch

from hybrid.data.windows import KIND_HEADING, KIND_SPAN, Rows
from hybrid.model.backbone import Backbone, BackboneConfig
from hybrid.model.schedule import get_schedule
from hybrid.train.loop import joint_losses


def _rows(b, t, vocab, device):
    g = torch.Generator().manual_seed(0)
    ids = torch.randint(10, vocab, (b, t), generator=g)
    kind = torch.zeros(b, t, dtype=torch.long)
    section = torch.full((b, t), -1)
    # a realistic layout: ~75% of tokens are clause bodies, one heading per ~120 tokens
    for s, start in enumerate(range(0, t - 120, 120)):
        kind[:, start : start + 8] = KIND_HEADING
        kind[:, start + 8 : start + 110] = KIND_SPAN
        section[:, start : start + 110] = s
    return Rows(ids.to(device), kind.to(device), section.to(device), torch.zeros(b, dtype=torch.bool, device=device))


def _time_step(model, opt, rows, fn, steps, device, bf16):
    def one():
        with torch.autocast(device.type, dtype=torch.bfloat16, enabled=bf16):
            loss = fn()
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        opt.step()
        opt.zero_grad(set_to_none=True)

    one()
    if device.type == "cuda":
        torch.cuda.synchronize()
    t0 = time.perf_counter()
    for _ in range(steps):
        one()
    if device.type == "cuda":
        torch.cuda.synchronize()
    return (time.perf_counter() - t0) / steps


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--device", default="cuda" if torch.cuda.is_available() else "cpu")
    ap.add_argument("--d-model", type=int, default=256)
    ap.add_argument("--n-layers", type=int, default=4)
    ap.add_argument("--n-heads", type=int, default=8)
    ap.add_argument("--vocab-size", type=int, default=8192)
    ap.add_argument("--seq-len", type=int, default=512)
    ap.add_argument("--batch-size", type=int, default=8)
    ap.add_argument("--steps", type=int, default=5)
    ap.add_argument("--threads", type=int, default=0)
    args = ap.parse_args()
    if args.threads:
        torch.set_num_threads(args.threads)
    device = torch.device(args.device)
    model = Backbone(
        BackboneConfig(
            vocab_size=args.vocab_size, d_model=args.d_model, n_layers=args.n_layers, n_heads=args.n_heads, dropout=0.1
        )
    ).to(device)
    opt = torch.optim.AdamW(model.parameters(), lr=1e-4)
    rows = _rows(args.batch_size, args.seq_len, args.vocab_size, device)
    g = torch.Generator(device=device).manual_seed(0)
    sched = get_schedule("loglinear")

    def joint():
        ar, diff, _, _ = joint_losses(model, rows, {"mask": 3}, sched, g, 0.1)
        return ar + diff

    def ar_only():
        logits = model(rows.ids, "causal")
        return torch.nn.functional.cross_entropy(
            logits[:, :-1].float().reshape(-1, logits.shape[-1]), rows.ids[:, 1:].reshape(-1)
        )

    tokens = args.batch_size * args.seq_len
    res = {
        "device": torch.cuda.get_device_name() if device.type == "cuda" else "cpu",
        "threads": torch.get_num_threads(),
        "params": model.num_params(),
        "tokens_per_step": tokens,
    }
    for name, bf16 in (("fp32", False), ("bf16", True)):
        tj = _time_step(model, opt, rows, joint, args.steps, device, bf16)
        ta = _time_step(model, opt, rows, ar_only, args.steps, device, bf16)
        res[name] = {"joint_step_s": round(tj, 4), "joint_tokens_per_s": round(tokens / tj, 1),
                     "ar_only_step_s": round(ta, 4), "ar_only_tokens_per_s": round(tokens / ta, 1),
                     "joint_vs_ar_only": round(tj / ta, 3)}
    res["bf16_speedup"] = round(res["fp32"]["joint_step_s"] / res["bf16"]["joint_step_s"], 3)
    if device.type == "cuda":
        # 6 N flops per token per objective (fwd + bwd), two objectives; H200 dense bf16 peak ~989 TFLOP/s
        flops = 2 * 6 * model.num_params() * tokens
        res["mfu_bf16"] = round(flops / res["bf16"]["joint_step_s"] / 989e12, 4)
    print(json.dumps(res))


if __name__ == "__main__":
    main()
