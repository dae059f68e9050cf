"""The drafting workbench: a FastAPI app over the Drafter (`hybrid serve` runs it with uvicorn).

Owns: the routes. GET / and /static/<name> (the page: a fixed set of packaged files, no file path from a
request is ever opened), /favicon.ico, /api/templates (each template's form), /api/templates/upload (a template
file's text, parsed in memory), POST /api/drafts (a checked draft request, queued: 202 with the job's id, its owner
token and its place in the queue; 400 with every field's error; 503 when the queue is full), GET /api/drafts/{id}
(its state), /api/drafts/{id}/events (server-sent events, each with its index as id: queued, started, progress,
plan, precedents, fill steps, rank, then done / cancelled / failed), POST /api/drafts/{id}/cancel and DELETE
/api/drafts/{id} (the owner's token in the X-Job-Token header), /api/drafts/{id}/export (a final draft assembled
from one variant per section, as DOCX or Markdown), GET /api/libraries (each library and its state), POST /api/libraries
(a user library added from uploaded contracts: hybrid.serve.libraries, at most MAX_UPLOAD bytes, run in a worker of
its own for up to LIBRARY_SECONDS) and DELETE /api/libraries/{name}; a library added or removed is offered to the
next draft, without a restart. Requests are bounded: MAX_BODY bytes nested at most MAX_DEPTH
levels, n <= max_n, at most max_queue drafts waiting (hybrid.serve.jobs). The event loop only moves bytes: a body's
parse, a draft request's and an upload's checks and an export run in worker threads, each bounded in time
(hybrid.serve.offload), so the page answers while they run. A request's unknown keys are refused by name.
"""

import asyncio
import contextlib
import json
from importlib import resources

from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse, Response, StreamingResponse

from hybrid.common.errors import HybridError
from hybrid.common.textsafe import shown
from hybrid.serve.forms import FieldErrors, RequestError, Templates, draft_request, template_form, unknown_keys
from hybrid.serve.jobs import MAX_QUEUE, Jobs, NotOwner, QueueFull
from hybrid.serve.libraries import MAX_UPLOAD, FixedLibraries
from hybrid.serve.names import download_name, job_label
from hybrid.serve.offload import Busy, Offload
from hybrid.serve.review import ReviewConflict
from hybrid.serve.review_routes import review_routes
from hybrid.serve.views import EXPORT_FORMATS, assemble, check_format, export

__all__ = ["create_app", "MAX_BODY", "MAX_DEPTH", "DEFAULT_MAX_N", "TOKEN_HEADER"]

MAX_BODY = 1 << 20  # bytes of one request (an uploaded template is a few KiB)
MAX_DEPTH = 16  # levels of JSON arrays and objects in one request (the page's deepest is 3: {"fields": {name: value}})
DEFAULT_MAX_N = 8
LIBRARY_SECONDS = 300.0  # the most one library upload's segmentation may run (a contract of 1 MB: ~20 s)
TOKEN_HEADER = "X-Job-Token"  # the owner token of POST /api/drafts, asked by cancel and delete
_STATIC = {"index.html": "text/html; charset=utf-8", "app.js": "text/javascript; charset=utf-8",
           "form.js": "text/javascript; charset=utf-8", "jobs.js": "text/javascript; charset=utf-8",
           "libraries.js": "text/javascript; charset=utf-8", "review.js": "text/javascript; charset=utf-8",
           "style.css": "text/css; charset=utf-8", "favicon.svg": "image/svg+xml"}
_TERMINAL = ("done", "cancelled", "failed")
_TOO_DEEP = f"the request's JSON is nested too deeply: at most {MAX_DEPTH} levels of arrays and objects."


class NoSuchJob(RequestError):
    """A job id this server does not hold (404: the page forgets it)."""


def _static(name: str) -> bytes:
    return resources.files("hybrid.serve").joinpath("static", name).read_bytes()


def _error(e: HybridError, status: int = 400) -> JSONResponse:
    return JSONResponse({"error": str(e), "field": getattr(e, "field", None)}, status_code=status)


async def _body_bytes(request: Request, limit: int = MAX_BODY) -> bytes:
    """The request's body, sent as JSON, at most `limit` bytes (a longer one is refused while it is read); parsed
    in a worker thread (parse_json)."""
    if request.headers.get("content-type", "").split(";")[0].strip().lower() != "application/json":
        # a cross-site form can send text/plain without asking; application/json needs the browser's consent
        raise RequestError("a request body must be JSON sent as Content-Type: application/json.")
    declared = request.headers.get("content-length")
    if declared is not None and (not declared.isdigit() or int(declared) > limit):
        raise RequestError(f"request too large: at most {limit} bytes, got {declared}.")
    chunks, size = [], 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > limit:
            raise RequestError(f"request too large: at most {limit} bytes.")
        chunks.append(chunk)
    return b"".join(chunks)


def parse_json(raw: bytes):
    """The JSON of a request's body, nested at most MAX_DEPTH levels (a megabyte takes a while to parse and walk: run
    in a worker thread, never on the event loop)."""
    try:
        body = json.loads(raw or b"null")
    except RecursionError:  # nested past what the parser recurses
        raise RequestError(_TOO_DEEP) from None
    except (ValueError, UnicodeDecodeError) as e:
        raise RequestError(f"the request is not valid JSON: {e}") from None
    if _deeper_than(body, MAX_DEPTH):
        raise RequestError(_TOO_DEEP)
    return body


def _deeper_than(value, limit: int) -> bool:
    """Whether arrays and objects nest more than `limit` levels in `value` (walked without recursion)."""
    stack = [(value, 0)]
    while stack:
        v, depth = stack.pop()
        if isinstance(v, (list, dict)):
            if depth >= limit:
                return True
            stack.extend((x, depth + 1) for x in (v.values() if isinstance(v, dict) else v))
    return False


def create_app(drafter_for, *, max_n: int = DEFAULT_MAX_N, defaults: dict | None = None,
               libraries=("shipped",), allowed_hosts=None, max_queue: int = MAX_QUEUE) -> FastAPI:
    """The app. drafter_for(library name or None) -> the Drafter that drafts from it; defaults: DraftRequest
    fields of every draft (e.g. steps), the page's own over them; libraries: the names the page offers (fixed), or a
    hybrid.serve.libraries.Libraries (live: the page lists, adds and removes them);
    allowed_hosts: the Host headers answered (None: any; `hybrid serve` on a loopback address answers only
    its own names, so a web page elsewhere cannot reach it by rebinding a domain to 127.0.0.1); max_queue: drafts
    that may wait behind the running one."""
    offload, slow = Offload(), Offload(workers=1)
    slow.seconds = LIBRARY_SECONDS
    libraries = libraries if hasattr(libraries, "names") else FixedLibraries(libraries)

    @contextlib.asynccontextmanager
    async def lifespan(app):
        yield
        offload.close()
        slow.close()

    app = FastAPI(title="hybrid drafting workbench", docs_url=None, redoc_url=None, openapi_url=None, lifespan=lifespan)
    if allowed_hosts:
        from starlette.middleware.trustedhost import TrustedHostMiddleware

        app.add_middleware(TrustedHostMiddleware, allowed_hosts=list(allowed_hosts))
    templates, jobs = Templates(), Jobs(drafter_for, max_queue=max_queue)
    templates.forms()  # parsed now, not on the first page load (every shipped template: most of a second)
    app.state.jobs, app.state.templates = jobs, templates

    @app.exception_handler(RequestError)
    async def _bad_request(request, e):
        if isinstance(e, FieldErrors):
            return JSONResponse({"error": str(e), "field": e.field, "errors": e.errors}, status_code=400)
        status = (404 if isinstance(e, NoSuchJob) else 503 if isinstance(e, Busy) else 409
                  if isinstance(e, ReviewConflict) else 413 if str(e).startswith("request too large") else 400)
        return _error(e, status)

    @app.exception_handler(NotOwner)
    async def _not_owner(request, e):
        return _error(e, 403)

    _page_routes(app, offload, templates, libraries, max_n)
    _draft_routes(app, offload, jobs, templates, (libraries, max_n, defaults or {}))
    _library_routes(app, slow, libraries)
    review_routes(app, offload, lambda job_id: _job_of(jobs, job_id),
                  lambda name: jobs.drafter_for(name).precedent_library(), _body_bytes, parse_json, TOKEN_HEADER)
    return app


def _job_of(jobs: Jobs, job_id: str):
    """The job of that id; NoSuchJob (404) when this server holds none."""
    job = jobs.get(job_id)
    if job is None:
        raise NoSuchJob(f"no draft {job_id[:40]!r} on this server (it was deleted, or the server restarted).")
    return job


def _page_routes(app, offload: Offload, templates: Templates, libraries, max_n: int) -> None:
    """The page, its static files and the templates' forms (listed, one by key, uploaded)."""

    @app.get("/")
    async def index():
        return Response(_static("index.html"), media_type=_STATIC["index.html"])

    @app.get("/favicon.ico")
    async def favicon():
        return Response(_static("favicon.svg"), media_type=_STATIC["favicon.svg"],
                        headers={"Cache-Control": "max-age=86400"})

    @app.get("/static/{name}")
    async def static(name: str):
        if name not in _STATIC:
            return JSONResponse({"error": f"no such file: {name[:80]!r}"}, status_code=404)
        return Response(_static(name), media_type=_STATIC[name])

    @app.get("/api/templates")
    def list_templates():
        return {"templates": templates.forms(), "libraries": list(libraries.names()),
                "manage_libraries": libraries.manage, "max_n": max_n}

    @app.get("/api/templates/{key}")
    def one_template(key: str):
        return template_form(templates.get(key))

    @app.post("/api/templates/upload")
    async def upload(request: Request):
        raw = await _body_bytes(request)
        return await offload.run(_uploaded, raw, templates, what="the uploaded template", field="upload")


def _uploaded(raw: bytes, templates: Templates) -> dict:
    """An upload's answer: its key and form (in a worker thread: a template of a megabyte takes seconds to check)."""
    body = parse_json(raw)
    if not isinstance(body, dict):
        raise RequestError("an upload is a JSON object {\"name\", \"text\"}.", "upload")
    unknown_keys(body, ("name", "text"), "an upload")
    key, t = templates.upload(body.get("name"), body.get("text"))
    return {"key": key, **template_form(t)}


def _checked_draft(raw: bytes, templates: Templates, libraries, max_n: int, defaults: dict) -> tuple[dict, dict]:
    """(the checked draft request, its label) of a POST /api/drafts body (in a worker thread)."""
    checked = draft_request(parse_json(raw), templates, max_n, defaults)
    offered = libraries.names()
    if checked["library"] not in (None, *offered):
        raise RequestError(f"unknown library {checked['library'][:80]!r}; this server offers: "
                           f"{', '.join(offered)} (add one under Libraries on the page, or with `hybrid library add "
                           "DIR --name NAME`).", "library")
    return checked, job_label(checked["request"])


def _exported(raw: bytes, job) -> tuple[bytes, str, str]:
    """(the file's bytes, its download name, its format) of an export body for a finished job (in a worker thread)."""
    body = parse_json(raw)
    if not isinstance(body, dict):
        raise RequestError("an export is a JSON object {\"picks\", \"format\", \"redline\"}.")
    unknown_keys(body, ("picks", "format", "redline"), "an export")
    fmt, redline = body.get("format", "docx"), body.get("redline", False)
    check_format(fmt)  # before the picks: a bad format is named even with good picks
    if not isinstance(redline, bool):
        raise RequestError(f"redline must be true or false, got {shown(redline)}.", "redline")
    data = export(assemble(job.drafts, body.get("picks"), job.review), fmt, redline=redline)
    return data, download_name(job.label, fmt, redline=redline), fmt


def _event_id(request: Request) -> int:
    """The index of the first event to send: 0, or one past the Last-Event-ID a reconnecting EventSource sends."""
    last = request.headers.get("last-event-id", "")
    return int(last) + 1 if last.isdigit() and len(last) < 12 else 0


async def _sse(job, sent: int = 0):
    """A job's events as server-sent events, from the `sent`-th, until its terminal one; each carries its index as
    its id, so a browser that reconnects resumes where it was."""
    while True:
        while sent < len(job.events):
            ev = job.events[sent]
            yield f"id: {sent}\nevent: {ev['kind']}\ndata: {json.dumps(ev, allow_nan=False, default=str)}\n\n"
            sent += 1
            if ev["kind"] in _TERMINAL:
                return
        await asyncio.sleep(0.05)


def _draft_routes(app, offload: Offload, jobs: Jobs, templates: Templates, bounds: tuple) -> None:
    """Queue a draft, follow its events, see its state, cancel or delete it (its owner), download a draft assembled
    from its variants. bounds: (the libraries offered, max_n, the server's DraftRequest defaults)."""

    @app.post("/api/drafts")
    async def start(request: Request):
        raw = await _body_bytes(request)
        checked, label = await offload.run(_checked_draft, raw, templates, *bounds, what="the draft request")
        try:
            job = jobs.submit(checked, label)
        except QueueFull as e:
            return _error(e, 503)
        return JSONResponse({"job": job.id, "token": job.token, "position": job.position, "label": job.label},
                            status_code=202)

    def _job(job_id: str):
        return _job_of(jobs, job_id)

    @app.get("/api/drafts/{job_id}")
    def one(job_id: str):
        return _job(job_id).summary()

    @app.get("/api/drafts/{job_id}/events")
    async def events(job_id: str, request: Request):
        return StreamingResponse(_sse(_job(job_id), _event_id(request)), media_type="text/event-stream",
                                 headers={"Cache-Control": "no-cache"})

    @app.post("/api/drafts/{job_id}/cancel")
    def cancel(job_id: str, request: Request):
        job = _job(job_id)
        try:
            state = jobs.cancel(job, request.headers.get(TOKEN_HEADER))
        except NotOwner as e:
            return _error(e, 403)
        return {"job": job.id, "state": state}

    @app.delete("/api/drafts/{job_id}")
    def delete(job_id: str, request: Request):
        job = _job(job_id)
        try:
            jobs.delete(job, request.headers.get(TOKEN_HEADER))
        except NotOwner as e:
            return _error(e, 403)
        except HybridError as e:
            return _error(e, 409)
        return {"job": job.id, "state": "deleted"}

    @app.post("/api/drafts/{job_id}/export")
    async def download(job_id: str, request: Request):
        job, raw = _job(job_id), await _body_bytes(request)
        data, name, fmt = await offload.run(_exported, raw, job, what="the export")
        return Response(data, media_type=EXPORT_FORMATS[fmt],
                        headers={"Content-Disposition": f'attachment; filename="{name}"'})


def _library_routes(app, slow: Offload, libraries) -> None:
    """List the libraries, add one from uploaded contracts, remove one (live: the next draft sees the change)."""

    @app.get("/api/libraries")
    def listing():
        return {"libraries": libraries.listing(), "manage": libraries.manage}

    @app.post("/api/libraries")
    async def add(request: Request):
        raw = await _body_bytes(request, MAX_UPLOAD)
        return await slow.run(lambda: libraries.add(parse_json(raw)), what="the library upload", field="library-files")

    @app.delete("/api/libraries/{name}")
    async def remove(name: str):
        return await slow.run(libraries.remove, name, what="the library removal", field="library-name")
