"""What the page sees of a draft's progress: the drafter's DraftEvents as page events, in real counts.

Owns: PageEvents (one draft's translation: the planner's tokens in batches, each "progress" event of the drafter
as {"kind": "progress", "phase", "done", "total"}, the filler's steps thinned to a share of the bar, the ranked
drafts as the page's JSON). Knows nothing of jobs or queues (hybrid.serve.jobs feeds it).
"""

__all__ = ["PageEvents", "PLAN_TOKEN_EVERY", "FILL_SHARES"]

PLAN_TOKEN_EVERY = 16  # the planner's tokens reach the page in batches of this many
FILL_SHARES = 100  # the filler's steps reach the page at most this many times a draft (each hundredth of the bar)


class PageEvents:
    """The page events of one draft's DraftEvents, in order; `page(ev)` is None for an event not shown."""

    def __init__(self):
        self.plan_tokens = 0
        self.fill_share = -1  # the last share of the fill bar sent
        self.drafts = None  # the ranked Drafts, once the "rank" event came

    def page(self, ev) -> dict | None:
        from hybrid.serve.views import draft_view

        if ev.kind == "plan_token":
            self.plan_tokens += 1
            if self.plan_tokens % PLAN_TOKEN_EVERY:
                return None
            return {"kind": "plan_token", "tokens": self.plan_tokens}
        base = {"kind": ev.kind, "seconds": round(ev.seconds, 3)}
        if ev.kind == "progress":  # a counted phase (the library's build, base choice, precedents, rank)
            return {**base, "phase": ev.text, "done": ev.step, "total": ev.steps}
        if ev.kind == "plan":
            return {**base, "title": ev.outline["title"], "sections": [s["heading"] for s in ev.outline["sections"]]}
        if ev.kind == "precedents":
            return {**base, "cited": sum(1 for v in ev.sources or [] for s in v if s)}
        if ev.kind == "fill_step":
            share = ev.step * FILL_SHARES // max(ev.steps, 1)
            if share == self.fill_share:
                return None
            self.fill_share = share
            return {**base, "step": ev.step, "steps": ev.steps}
        if ev.kind == "rank":
            self.drafts = ev.drafts
            return {**base, "drafts": [draft_view(d) for d in ev.drafts]}
        return base
