"""Running `hybrid draft` once its input is checked: load the model, stream the draft, write the outputs.

Owns: the Drafter the command's options make (draft_into), the progress bars on stderr from its
events (_Progress), the settings recorded in drafts.json (_settings) and the order of the run: load,
draft, report, write (hybrid.cli.draft_output), print. hybrid.cli.draft checks every input and holds
the output directory's lock before calling draft_into.
"""

import sys
import time
import warnings
from pathlib import Path

from hybrid.cli.draft_output import draft_report, print_drafts, write_drafts

__all__ = ["draft_into"]


class _Progress:
    """Progress bars on stderr from Drafter.stream()'s events: one method per DraftEvent.kind."""

    def __init__(self):
        self.plan_bar = self.fill_bar = self.outline = self.drafts = None

    def plan_token(self, ev):
        if self.plan_bar is None:
            self.plan_bar = _bar(desc="plan", unit="tok")
        self.plan_bar.update(1)

    def plan(self, ev):
        self.outline = ev.outline
        if self.plan_bar is not None:
            self.plan_bar.close()
        print(f"outline: {len(ev.outline['sections'])} sections", file=sys.stderr)

    def precedents(self, ev):
        pass

    def fill_step(self, ev):
        if self.fill_bar is None:
            self.fill_bar = _bar(total=ev.steps, desc="fill", unit="step")
        self.fill_bar.update(1)

    def rank(self, ev):
        self.drafts = ev.drafts

    def close(self):
        for bar in (self.plan_bar, self.fill_bar):
            if bar is not None:
                bar.close()


def _bar(**kw):
    from tqdm import tqdm

    return tqdm(file=sys.stderr, leave=False, **kw)



def draft_into(out: Path, args, template, fields, steps, guidance, params, library=None) -> int:
    """Draft with the options in `args` (checked) into `out` (checked and locked); the exit code."""
    from hybrid.draft.drafter import Drafter
    from hybrid.fill.diffusion.sampler import FillConfig

    t0 = time.perf_counter()
    config = FillConfig(commit=args.commit) if args.commit != "auto" else None
    drafter = Drafter.from_pretrained(
        args.checkpoint,
        device="cpu" if args.cpu else None,
        headings=args.headings,
        filler=args.filler,
        fill_config=config,
        library=library,
    )
    t_load = time.perf_counter() - t0
    print(f"drafting {template.id}: n={args.n} seed={args.seed} ({drafter.device})", file=sys.stderr)
    drafts, outline = _stream(drafter, args, template, fields, steps, guidance, params)
    if drafts[0].settings.get("precedent_note"):
        print(f"warning: {drafts[0].settings['precedent_note']}", file=sys.stderr)
    timings = {"load": t_load, **drafts[0].timings}
    settings = _settings(args, drafter, drafts[0].settings, steps, guidance, params)
    report = draft_report(template, fields, outline, args.seed, settings, drafter.model_info(), timings, drafts)
    paths = write_drafts(out, drafts, args.format, report, redline=args.redline)
    print_drafts(out, drafts, paths, report, args.json)
    return 0


def _stream(drafter, args, template, fields, steps, guidance, params) -> tuple:
    """(drafts, outline) of Drafter.stream(), its progress as bars on stderr."""
    progress = _Progress()
    try:
        with warnings.catch_warnings():  # the fallback's warning is printed below, once, as a line of its own
            warnings.filterwarnings("ignore", message="drafted from scratch: no clause library")
            for ev in drafter.stream(template, fields, n=args.n, steps=steps, guidance=guidance, seed=args.seed,
                                     temperature=params.temperature, top_p=params.top_p,
                                     precedents=args.precedents, precedent_guidance=args.precedent_guidance,
                                     precedent_start=args.precedent_start):
                getattr(progress, ev.kind)(ev)
    finally:
        progress.close()
    return progress.drafts, progress.outline


def _settings(args, drafter, used: dict, steps, guidance, params) -> dict:
    """drafts.json's "settings": the options as used; `used`: a draft's settings (its precedent ones)."""
    import torch

    from hybrid.common.precision import resolve_precision
    from hybrid.fill.diffusion.commit import resolve_commit
    from hybrid.fill.diffusion.sampler import FillConfig

    return {
        "n": args.n,
        "steps": steps,
        "guidance": guidance,
        "temperature": params.temperature,
        "top_p": params.top_p,
        "format": args.format,
        "filler": drafter.filler,
        "headings": drafter.headings,
        **used,  # precedents, precedent_guidance, precedent_start as used, and precedent_note
        "precision": resolve_precision((drafter.fill_config or FillConfig()).precision, drafter.device),
        "commit": resolve_commit(args.commit, used["precedent_start"] < 1) if args.filler == "diffusion" else None,
        "threads": torch.get_num_threads(),
    }
