"""Joint AR + masked-diffusion training of the shared backbone, on accelerate.

Owns: the training loop (data order, losses, optimizer, LR schedule, validation, atomic
resumable checkpoints); what a checkpoint keeps of the run and how a run resumes are
hybrid.train.state's (the training record, the state file, the checks of --out). Knows nothing
about templates, planning, sampling or drafting. `accelerate launch -m hybrid train ...` runs it
data-parallel on several GPUs.

Each step, every window gets two losses over one set of weights:
- AR: next-token cross-entropy in `causal` mode (documents and planner pairs);
- MDLM: span tokens masked at a random time t, predicted in `fill` mode (skeleton sees only
  skeleton, spans see everything), SUBS + continuous-time ELBO weights; with prob cond_dropout a
  span's own heading is hidden from it, which trains the guidance's unconditional branch.
With `init_from` the model is a pretrained Llama base instead (hybrid.model.adapt: its tokenizer, fill
outputs shifted so that i-1 predicts i, optional LoRA, its own checkpoint layout); the loop is the same.
"""

import math
import os
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import torch
import torch.nn.functional as F
from tqdm import tqdm

from hybrid.common.config import TrainConfig
from hybrid.common.errors import ConfigError
from hybrid.common.outdir import OutputLock, check_writable
from hybrid.common.precision import resolve_precision
from hybrid.data.windows import KIND_HEADING, KIND_PAD, KIND_SPAN, Rows, document_windows, plan_rows
from hybrid.model.backbone import Backbone, BackboneConfig, fill_mask
from hybrid.model.checkpoint import (  # noqa: F401  (re-exported)
    ATTRIBUTION,
    RECORD_FILE,
    STATE_FILE,
    load_checkpoint,
    read_record,
    recover_checkpoint,
    save_checkpoint,
)
from hybrid.model.objective import align_fill, fill_shift, mdlm_loss, q_xt, sample_times
from hybrid.model.schedule import get_schedule
from hybrid.tokenizer.bpe import HybridTokenizer
from hybrid.train.state import Progress, RunFacts, check_train_out, restore, resume_state, train_state, training_record

# checkpoint I/O re-exported from hybrid.model.checkpoint
__all__ = ["train", "joint_losses", "load_checkpoint", "save_checkpoint", "noise_generator", "ATTRIBUTION"]



def joint_losses(
    model: Backbone,
    rows: Rows,
    tok_ids: dict,
    schedule,
    generator,
    cond_dropout: float,
    diffusion: bool = True,
    shift: bool = False,
):
    """(ar_loss, diff_loss, n_ar_tokens, n_span_tokens) for one batch; diffusion=False skips MDLM (AR-only model);
    shift: the fill output at i-1 predicts token i (an adapted AR base, hybrid.model.objective.fill_shift)."""
    ids, kind, section = rows.ids, rows.kind, rows.section
    valid = kind != KIND_PAD
    # AR: predict token i+1 from <= i over real tokens
    logits = model(ids, "causal", attn_mask=valid if not bool(valid.all()) else None)
    tgt_valid = valid[:, 1:]
    ar = F.cross_entropy(logits[:, :-1].float().reshape(-1, logits.shape[-1]), ids[:, 1:].reshape(-1), reduction="none")
    n_ar = int(tgt_valid.sum())
    ar_loss = (ar * tgt_valid.reshape(-1)).sum() / max(n_ar, 1)

    doc = ~rows.is_plan
    span = (kind == KIND_SPAN) & doc[:, None]
    if not diffusion or not bool(span.any()):
        return ar_loss, ar_loss.new_zeros(()), n_ar, 0
    t = sample_times(ids.shape[0], generator, ids.device)
    xt, masked = q_xt(ids, span, t, schedule, tok_ids["mask"], generator)
    heading = torch.where(kind == KIND_HEADING, section, torch.full_like(section, -1))
    drop_sec = (
        torch.rand(section.shape[0], int(section.max()) + 2, generator=generator, device=ids.device) < cond_dropout
    )
    uncond = span & drop_sec.gather(1, section.clamp_min(0))
    mask = fill_mask(span, span, section, heading, uncond, valid)
    dl = mdlm_loss(
        align_fill(model(xt, "fill", attn_mask=mask), shift), ids, masked, span, t, schedule, tok_ids["mask"]
    )
    return ar_loss, dl.loss, n_ar, dl.n_span_tokens


def noise_generator(seed: int, rank: int, step: int, device) -> torch.Generator:
    """The diffusion-noise and condition-dropout generator of one training step on one rank: a pure
    function of (seed, rank, step), so a resumed run draws exactly the noise the straight run would,
    and data-parallel ranks never draw the same noise."""
    return torch.Generator(device=device).manual_seed((seed * 1_000_003 + rank * 7_919 + step) % (2**63 - 1))


def _lr_factor(step: int, cfg: TrainConfig) -> float:
    if step < cfg.warmup_steps:
        return (step + 1) / cfg.warmup_steps
    progress = min(1.0, (step - cfg.warmup_steps) / max(1, cfg.max_steps - cfg.warmup_steps))
    return cfg.min_lr_ratio + (1 - cfg.min_lr_ratio) * 0.5 * (1 + math.cos(math.pi * progress))


def _build_data(cfg: TrainConfig, tok_dir: Path | None, log, tok=None):
    from hybrid.data.corpus import load_documents

    train_docs = load_documents(cfg.corpus, splits=("train",))
    val_docs = load_documents(cfg.corpus, splits=("val",))
    if cfg.limit_docs:
        train_docs, val_docs = train_docs[: cfg.limit_docs], val_docs[: cfg.limit_docs]
    if tok is not None:  # a pretrained base's (hybrid.model.adapt)
        pass
    elif tok_dir is not None:
        tok = HybridTokenizer.load(tok_dir)
    else:
        log(f"training tokenizer (vocab {cfg.vocab_size}) on {len(train_docs)} train documents")
        docs = train_docs[: cfg.tokenizer_docs] if cfg.tokenizer_docs else train_docs
        tok = HybridTokenizer.train((d.text for d in docs), cfg.vocab_size)
    windows = document_windows(train_docs, tok, cfg.seq_len, cfg.stride, seed=cfg.seed)
    if cfg.precedent_mix:  # precedent-conditioned fill windows (retrieved from the train split only)
        from hybrid.data.precedent_pairs import PairMix, precedent_windows
        from hybrid.precedents.library import load_library

        windows = precedent_windows(
            train_docs,
            tok,
            load_library(corpus=cfg.corpus),
            cfg.seq_len,
            cfg.stride,
            cfg.seed,
            PairMix.parse(cfg.precedent_mix),
        )
    train = Rows.cat([windows] + [plan_rows(train_docs, tok, cfg.seq_len)] * cfg.plan_repeat)
    g = torch.Generator().manual_seed(0)
    val_w = document_windows(val_docs, tok, cfg.seq_len, cfg.seq_len)
    val_p = plan_rows(val_docs, tok, cfg.seq_len)
    n_p = min(len(val_p), max(1, cfg.eval_windows // 8))
    val = Rows.cat(
        [
            val_w.select(torch.randperm(len(val_w), generator=g)[: cfg.eval_windows - n_p]),
            val_p.select(torch.arange(n_p)),
        ]
    )
    val_text = "".join(d.text for d in val_docs)
    bytes_per_token = len(val_text.encode("utf-8")) / max(1, len(tok.encode(val_text)))
    return tok, train, val, train_docs, round(bytes_per_token, 3)


@torch.no_grad()
def _validate(model, val: Rows, tok_ids, schedule, device, batch_size, shift: bool = False) -> dict:
    model.eval()
    g = torch.Generator(device=device).manual_seed(0)
    tot = {"ar": 0.0, "ar_n": 0, "diff": 0.0, "diff_n": 0}
    for i in range(0, len(val), batch_size):
        rows = val.select(torch.arange(i, min(i + batch_size, len(val))))
        rows = Rows(rows.ids.to(device), rows.kind.to(device), rows.section.to(device), rows.is_plan.to(device))
        ar, diff, n_ar, n_sp = joint_losses(model, rows, tok_ids, schedule, g, 0.0, shift=shift)
        tot["ar"] += float(ar) * n_ar
        tot["ar_n"] += n_ar
        tot["diff"] += float(diff) * n_sp
        tot["diff_n"] += n_sp
    model.train()
    return {"val_ar": tot["ar"] / max(tot["ar_n"], 1), "val_diff": tot["diff"] / max(tot["diff_n"], 1)}


def train(cfg: TrainConfig, resume: bool = False, log=None) -> dict:
    """Train (or resume) and return the training record. Checkpoints land in cfg.out, which this run
    holds locked (one trainer per directory; under DDP the main rank holds it)."""
    log = log or (lambda msg: print(msg, file=sys.stderr))
    out = Path(cfg.out)
    check_writable(out)
    if cfg.init_from:  # a bad base name or directory: exit 2 before the lock creates anything
        from hybrid.model.adapt import check_init_from

        check_init_from(cfg.init_from)
    main_rank = os.environ.get("RANK", "0") == "0"
    if not main_rank:
        return _train(cfg, resume, log)
    with OutputLock(out):
        recover_checkpoint(out, log)
        check_train_out(out, resume)
        return _train(cfg, resume, log)


def _model_and_optimizer(cfg: TrainConfig, tok, adapted):
    """(model, trainable parameters, AdamW, its LR schedule): a fresh Backbone sized by `cfg`, or the
    adapted base of --init-from (with LoRA only the adapter trains); no weight decay on 1-d parameters."""
    if adapted is None:
        bc = BackboneConfig(
            vocab_size=tok.vocab_size,
            d_model=cfg.d_model,
            n_layers=cfg.n_layers,
            n_heads=cfg.n_heads,
            dropout=cfg.dropout,
        )
        model = Backbone(bc)
    else:
        model = adapted.model
    trainable = [p for p in model.parameters() if p.requires_grad]  # with LoRA: the adapter only
    decay = [p for p in trainable if p.dim() >= 2]
    no_decay = [p for p in trainable if p.dim() < 2]
    opt = torch.optim.AdamW(
        [{"params": decay, "weight_decay": cfg.weight_decay}, {"params": no_decay, "weight_decay": 0.0}],
        lr=cfg.lr,
        betas=(0.9, 0.95),
    )
    sched = torch.optim.lr_scheduler.LambdaLR(opt, lambda s: _lr_factor(s, cfg))
    return model, trainable, opt, sched


def _steps_per_epoch(rows: int, cfg: TrainConfig, acc) -> int:
    """Optimizer steps per epoch over `rows` training rows; ConfigError where a batch exceeds a process's share."""
    per_epoch = rows // (cfg.batch_size * acc.num_processes)
    if per_epoch < 1:
        raise ConfigError(f"batch_size must be <= {rows // acc.num_processes} (train rows per process), got "
                          f"{cfg.batch_size}.")
    return per_epoch


def _batch(train_rows: Rows, step: int, per_epoch: int, cfg: TrainConfig, acc, device) -> Rows:
    """This process's rows of step `step`: epoch e's permutation seeded by (seed, e), cut per process."""
    epoch, pos = divmod(step, per_epoch)
    perm = torch.randperm(len(train_rows), generator=torch.Generator().manual_seed(cfg.seed * 1000 + epoch))
    idx = perm[(pos * acc.num_processes + acc.process_index) * cfg.batch_size :][: cfg.batch_size]
    rows = train_rows.select(idx)
    return Rows(rows.ids.to(device), rows.kind.to(device), rows.section.to(device), rows.is_plan.to(device))


@dataclass(frozen=True)
class _Stepper:
    """What every optimizer step of a run uses: the (prepared) model, its optimizer and schedule, the processes,
    and the objective's pieces (the <mask> id, the noise schedule, whether fill logits are shifted)."""

    cfg: TrainConfig
    model: object
    opt: object
    sched: object
    acc: object
    tok_ids: dict
    schedule: object
    shift: bool


def _train_step(run: _Stepper, rows: Rows, step: int):
    """One optimizer step on `rows` (AR + diffusion_weight x MDLM, clipped); the two losses (tensors)."""
    cfg, model, acc = run.cfg, run.model, run.acc
    with acc.autocast():
        gen = noise_generator(cfg.seed, acc.process_index, step, acc.device)
        ar, diff, n_ar, n_sp = joint_losses(
            model, rows, run.tok_ids, run.schedule, gen, cfg.cond_dropout, cfg.diffusion_weight > 0, run.shift
        )
        loss = ar + cfg.diffusion_weight * diff
    run.opt.zero_grad(set_to_none=True)
    acc.backward(loss)
    acc.clip_grad_norm_(model.parameters(), cfg.grad_clip)
    run.opt.step()
    run.sched.step()
    return ar, diff


def _train(cfg: TrainConfig, resume: bool, log) -> dict:
    from accelerate import Accelerator

    if cfg.threads:
        torch.set_num_threads(cfg.threads)
    # one rule, hybrid.common.precision
    precision = resolve_precision(cfg.precision, "cuda" if torch.cuda.is_available() else "cpu")
    acc = Accelerator(mixed_precision="bf16" if precision == "bf16" else "no")
    out = Path(cfg.out)
    state, record = resume_state(cfg, out, resume)

    torch.manual_seed(cfg.seed)
    adapted = None
    if cfg.init_from:
        from hybrid.model.adapt import init_model

        adapted = init_model(cfg, log)
    tok, train_rows, val_rows, train_docs, bytes_per_token = _build_data(
        cfg, out if resume else None, log, adapted and adapted.tok
    )
    tok_ids = {"mask": tok.mask_id}
    model, trainable, opt, sched = _model_and_optimizer(cfg, tok, adapted)
    step, tokens_seen, wall = 0, 0, 0.0
    curves = {"step": [], "train_ar": [], "train_diff": [], "val_step": [], "val_ar": [], "val_diff": [], "lr": []}
    if state is not None:
        step, tokens_seen, wall, curves = restore(state, model, adapted, opt, sched)
    model, opt = acc.prepare(model, opt)
    device = acc.device
    schedule = get_schedule(cfg.schedule)
    raw = acc.unwrap_model(model)
    shift = fill_shift(raw)
    log(f"model {raw.num_params() / 1e6:.2f}M params, {len(train_rows)} train rows x {cfg.seq_len}, "
        f"{len(val_rows)} val rows, device {device}")

    per_epoch = _steps_per_epoch(len(train_rows), cfg, acc)
    t0 = time.time()
    wall0 = wall
    record = record if resume else {}  # resumed at or past max_steps: the checkpoint's record is the result
    bar = tqdm(total=cfg.max_steps, initial=step, desc="train", file=sys.stderr, disable=not acc.is_main_process,
               dynamic_ncols=True)
    model.train()
    stop_reason = "max_steps"
    stepper = _Stepper(cfg, model, opt, sched, acc, tok_ids, schedule, shift)
    facts = RunFacts(cfg, raw, trainable, adapted, acc, precision, per_epoch, len(train_docs), bytes_per_token)
    while step < cfg.max_steps:
        rows = _batch(train_rows, step, per_epoch, cfg, acc, device)
        ar, diff = _train_step(stepper, rows, step)
        step += 1
        ar, diff = float(ar.detach()), float(diff.detach())
        tokens_seen += int((rows.kind != KIND_PAD).sum()) * acc.num_processes
        if step % 10 == 0 or step == 1:
            curves["step"].append(step)
            curves["train_ar"].append(round(ar, 4))
            curves["train_diff"].append(round(diff, 4))
            curves["lr"].append(sched.get_last_lr()[0])
        bar.update(1)
        bar.set_postfix(ar=f"{ar:.3f}", diff=f"{diff:.3f}")
        elapsed = wall0 + time.time() - t0
        out_of_time = cfg.max_minutes and (time.time() - t0) / 60 >= cfg.max_minutes
        if step % cfg.eval_every == 0 or step == cfg.max_steps or out_of_time:
            v = _validate(raw, val_rows, tok_ids, schedule, device, cfg.batch_size, shift)
            curves["val_step"].append(step)
            curves["val_ar"].append(round(v["val_ar"], 4))
            curves["val_diff"].append(round(v["val_diff"], 4))
            log(f"step {step}: val_ar {v['val_ar']:.4f} val_diff {v['val_diff']:.4f} ({elapsed / 60:.1f} min)")
            at = Progress(step, tokens_seen, elapsed, curves)
            record = training_record(facts, at)
            if acc.is_main_process:
                st = train_state(raw, adapted, opt, sched, at)
                (adapted.save if adapted else save_checkpoint)(out, raw, tok, record, st)
            if out_of_time:
                stop_reason = f"max_minutes={cfg.max_minutes}"
                break
    bar.close()
    log(f"stopped at step {step} ({stop_reason}); checkpoint in {out}")
    return record
