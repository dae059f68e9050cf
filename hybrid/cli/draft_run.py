"""Running `hybrid draft` once its input is checked: load the model, stream the draft, write the outputs.

Owns: the Drafter the command's options make (draft_into), the progress bars on stderr from its
events (_Progress), the settings recorded in drafts.json (_settings) and the order of the run: load,
draft, report, write (hybrid.cli.draft_output), print. hybrid.cli.draft checks every input and holds
the output directory's lock before calling draft_into.
"""

import sys
import time
from pathlib import Path

from hybrid.cli.draft_output import draft_report, print_drafts, write_drafts

__all__ = ["draft_into"]


class _Progress:
    """Progress bars on stderr from Drafter.stream()'s events: one method per DraftEvent.kind."""

    def __init__(self):
        self.plan_bar = self.fill_bar = self.outline = self.drafts = None
        self.phase_bars = {}  # "library", "precedents", "rank": a bar each, by the counts their events carry

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

    def progress(self, ev):
        bar = self.phase_bars.get(ev.text)
        if bar is None:
            unit = "doc" if ev.text == "library" else "variant"
            bar = self.phase_bars[ev.text] = _bar(total=ev.steps, desc=ev.text, unit=unit)
        bar.update(max(0, ev.step - bar.n))
        if ev.step >= ev.steps:
            bar.close()

    def fill_step(self, ev):
        if self.fill_bar is None:
            self.fill_bar = _bar(total=ev.steps, desc="fill", unit="step")
        self.fill_bar.update(max(0, ev.step - self.fill_bar.n))  # to the step reached: a filler stopping early jumps

    def rank(self, ev):
        self.drafts = ev.drafts

    def close(self):
        for bar in (self.plan_bar, self.fill_bar, *self.phase_bars.values()):
            if bar is not None:
                bar.close()


def _bar(**kw):
    from tqdm import tqdm

    return tqdm(file=sys.stderr, leave=False, **kw)



def draft_into(out: Path, args, request, library=None) -> int:
    """Draft `request` (a DraftRequest, checked) with the model options in `args` into `out` (checked and
    locked); the exit code."""
    from hybrid.draft.drafter import Drafter

    t0 = time.perf_counter()
    drafter = Drafter.from_pretrained(
        args.checkpoint,
        device="cpu" if args.cpu else None,
        headings=args.headings,
        filler=request.filler,
        library=library,
    )
    t_load = time.perf_counter() - t0
    template = request.template
    print(f"drafting {template.id}: n={request.n} seed={request.seed} ({drafter.device})", file=sys.stderr)
    drafts, outline = _stream(drafter, request)
    if drafts[0].settings.get("precedent_note"):  # the library fallback, said once
        print(f"warning: {drafts[0].settings['precedent_note']}", file=sys.stderr)
    timings = {"load": t_load, **drafts[0].timings}
    settings = _settings(args, drafter, drafts[0].settings, request)
    report = draft_report(template, request.fields, outline, request.seed, settings, drafter.model_info(), timings,
                          drafts)
    paths = write_drafts(out, drafts, args.format, report, redline=args.redline)
    print_drafts(out, drafts, paths, report, args.json)
    return 0


def _stream(drafter, request) -> tuple:
    """(drafts, outline) of Drafter.stream(request), its progress as bars on stderr."""
    progress = _Progress()
    try:
        for ev in drafter.stream(request):
            getattr(progress, ev.kind)(ev)
    finally:
        progress.close()
    return progress.drafts, progress.outline


def _settings(args, drafter, used: dict, request) -> dict:
    """drafts.json's "settings": the options as used; `used`: a draft's settings (its precedent ones)."""
    import torch

    from hybrid.common.precision import resolve_precision
    from hybrid.fill.diffusion.commit import resolve_commit
    from hybrid.fill.diffusion.sampler import FillConfig

    return {
        "n": request.n,
        "steps": request.steps,
        "guidance": request.guidance,
        "temperature": request.sampling.temperature,
        "top_p": request.sampling.top_p,
        "format": args.format,
        "filler": drafter.filler,
        "headings": drafter.headings,
        **used,  # precedents, precedent_guidance, precedent_start as used, and precedent_note
        "precision": resolve_precision((drafter.fill_config or FillConfig()).precision, drafter.device),
        "commit": (resolve_commit(request.commit, used["precedent_start"] < 1) if request.filler == "diffusion"
                   else None),
        "threads": torch.get_num_threads(),
    }
