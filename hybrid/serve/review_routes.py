"""The routes of a finished draft's review: its variants as reviewed, a section edited in place, a change accepted or
rejected, and a section's precedent shown in its own document.

Owns: GET /api/drafts/{id}/variants (every variant under the job's review: hybrid.serve.views.draft_view), PUT
/api/drafts/{id}/variants/{rank}/sections/{index} ({"text": words, or null to restore the engine's}), POST
.../sections/{index}/changes/{change} ({"decision": "accept" or "reject"}) and GET .../sections/{index}/sources/{k}
(hybrid.serve.context.source_context). An edit or a decision asks for the owner's token (X-Job-Token) and answers
the section as it then stands; the page's reads need none. Each runs in a worker thread (hybrid.serve.offload): a
long section's diff takes a while. What is kept and how: hybrid.serve.review.
"""

from fastapi import Request

from hybrid.common.errors import HybridError
from hybrid.common.textsafe import shown
from hybrid.serve.forms import RequestError, unknown_keys
from hybrid.serve.jobs import NotOwner
from hybrid.serve.review import ReviewConflict
from hybrid.serve.views import draft_view, section_view

__all__ = ["review_routes"]

_SECTION = "/api/drafts/{job_id}/variants/{rank}/sections/{index}"


def _drafts(job) -> list:
    """A finished job's ranked Drafts; ReviewConflict (409) while it runs, or when it ended with none."""
    if not job.finished:
        raise ReviewConflict(f"this draft is {job.state}: its sections can be reviewed once it is done.")
    if not job.drafts:
        raise ReviewConflict(f"this draft was {job.state}: it has no variants to review.")
    return job.drafts


def _section(job, rank: str, index: str) -> tuple:
    """(the Draft of that rank, the section index), each checked against the job's variants."""
    drafts = _drafts(job)
    by_rank = {str(d.rank): d for d in drafts}
    if rank not in by_rank:
        raise RequestError(f"rank must be a variant rank in 1..{len(drafts)}, got {shown(rank, 20)}.", "rank")
    d = by_rank[rank]
    if not index.isdigit() or int(index) >= len(d.sections):
        raise RequestError(f"section must be a section index in 0..{len(d.sections) - 1} (0: the first), got "
                           f"{shown(index, 20)}.", "section")
    return d, int(index)


def _owned(job, request: Request, token_header: str) -> None:
    if not job.owned_by(request.headers.get(token_header)):
        raise NotOwner("only the browser that started this draft can edit it (its owner token was not sent).")


def _object(raw: bytes, parse, keys: tuple, what: str) -> dict:
    body = parse(raw)
    if not isinstance(body, dict) or keys[0] not in body:
        raise RequestError(f"{what} is a JSON object {{{', '.join(repr(k) for k in keys)}}}.", keys[0])
    unknown_keys(body, keys, what)
    return body


def _edited(raw: bytes, parse, job, rank: str, index: str) -> dict:
    d, i = _section(job, rank, index)
    text = _object(raw, parse, ("text",), "an edit")["text"]
    job.review.edit(d.sections[i], d.rank, i, text)
    return section_view(d, i, job.review)


def _decided(raw: bytes, parse, job, rank: str, index: str, change: str) -> dict:
    d, i = _section(job, rank, index)
    decision = _object(raw, parse, ("decision",), "a decision")["decision"]
    job.review.decide(d.sections[i], d.rank, i, change, decision)
    return section_view(d, i, job.review)


def _context(library_of, job, rank: str, index: str, k: str) -> dict:
    from hybrid.serve.context import source_context

    d, i = _section(job, rank, index)
    cites = d.sections[i].get("precedents") or []
    if not k.isdigit() or int(k) >= len(cites):
        raise RequestError(f"source must be one of this section's {len(cites)} sources (0: the first), got "
                           f"{shown(k, 20)}.", "source")
    try:
        library = library_of(job.request.get("library"))
    except HybridError:  # a user library removed since: its clauses' own words went with it
        library = None
    part = d.sections[i].get("source_text") if len(cites) == 1 else None
    return source_context(library, cites[int(k)], part)


def review_routes(app, offload, job_of, library_of, read_body, parse, token_header: str) -> None:
    """Add the routes to `app`. job_of(id): the job or NoSuchJob; library_of(name): the library a job of that
    library drafted from; read_body(request): its bytes, bounded; parse(bytes): its JSON (in a worker thread)."""

    @app.get("/api/drafts/{job_id}/variants")
    async def variants(job_id: str):
        job = job_of(job_id)
        drafts = await offload.run(lambda: [draft_view(d, job.review) for d in _drafts(job)], what="the variants")
        return {"job": job.id, "variants": drafts}

    @app.put(_SECTION)
    async def edit(job_id: str, rank: str, index: str, request: Request):
        job = job_of(job_id)
        _owned(job, request, token_header)
        raw = await read_body(request)
        return await offload.run(_edited, raw, parse, job, rank, index, what="the edit", field="text")

    @app.post(_SECTION + "/changes/{change}")
    async def decide(job_id: str, rank: str, index: str, change: str, request: Request):
        job = job_of(job_id)
        _owned(job, request, token_header)
        raw = await read_body(request)
        return await offload.run(_decided, raw, parse, job, rank, index, change, what="the decision",
                                 field="decision")

    @app.get(_SECTION + "/sources/{k}")
    async def context(job_id: str, rank: str, index: str, k: str):
        job = job_of(job_id)
        return await offload.run(_context, library_of, job, rank, index, k, what="the precedent's document")
