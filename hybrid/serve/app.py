"""The drafting workbench: a FastAPI app over the Drafter (`hybrid serve` runs it with uvicorn).

Owns: the routes. GET / and /static/<name> (the page: a fixed set of packaged files, no file path from a
request is ever opened), /api/templates (each template's form), /api/templates/upload (a template file's
text, parsed in memory), POST /api/drafts (a checked draft request: 202 and a job id; 400 with the CLI's
message and the form field; 409 while another draft runs), /api/drafts/{id}/events (server-sent events:
plan, precedents, fill steps, rank, then done / cancelled / failed), /api/drafts/{id}/cancel and
/api/drafts/{id}/export (a final draft assembled from one variant per section, as DOCX or Markdown).
Requests are bounded: MAX_BODY bytes nested at most MAX_DEPTH levels, n <= max_n, one running draft.
"""

import asyncio
import json
import re
from importlib import resources

from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse, Response, StreamingResponse

from hybrid.common.errors import HybridError
from hybrid.serve.forms import RequestError, Templates, draft_request, template_form
from hybrid.serve.jobs import Busy, Jobs
from hybrid.serve.views import EXPORT_FORMATS, assemble, check_format, export

__all__ = ["create_app", "MAX_BODY", "MAX_DEPTH", "DEFAULT_MAX_N"]

MAX_BODY = 1 << 20  # bytes of one request (an uploaded template is a few KiB)
MAX_DEPTH = 16  # levels of JSON arrays and objects in one request (the page's deepest is 3: {"fields": {name: value}})
DEFAULT_MAX_N = 8
_STATIC = {"index.html": "text/html; charset=utf-8", "app.js": "text/javascript; charset=utf-8",
           "style.css": "text/css; charset=utf-8"}
_TERMINAL = ("done", "cancelled", "failed")
_TOO_DEEP = f"the request's JSON is nested too deeply: at most {MAX_DEPTH} levels of arrays and objects."


def _static(name: str) -> bytes:
    return resources.files("hybrid.serve").joinpath("static", name).read_bytes()


def _error(e: HybridError, status: int = 400) -> JSONResponse:
    return JSONResponse({"error": str(e), "field": getattr(e, "field", None)}, status_code=status)


async def _json_body(request: Request):
    """The request's JSON, at most MAX_BODY bytes (a longer one is refused while it is read)."""
    if request.headers.get("content-type", "").split(";")[0].strip().lower() != "application/json":
        # a cross-site form can send text/plain without asking; application/json needs the browser's consent
        raise RequestError("a request body must be JSON sent as Content-Type: application/json.")
    declared = request.headers.get("content-length")
    if declared is not None and (not declared.isdigit() or int(declared) > MAX_BODY):
        raise RequestError(f"request too large: at most {MAX_BODY} bytes, got {declared}.")
    chunks, size = [], 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > MAX_BODY:
            raise RequestError(f"request too large: at most {MAX_BODY} bytes.")
        chunks.append(chunk)
    try:
        body = json.loads(b"".join(chunks) or b"null")
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
               libraries=("shipped",), allowed_hosts=None) -> FastAPI:
    """The app. drafter_for(library name or None) -> the Drafter that drafts from it; defaults: DraftRequest
    fields of every draft (e.g. steps), the page's own over them; libraries: the names the page offers;
    allowed_hosts: the Host headers answered (None: any; `hybrid serve` on a loopback address answers only
    its own names, so a web page elsewhere cannot reach it by rebinding a domain to 127.0.0.1)."""
    app = FastAPI(title="hybrid drafting workbench", docs_url=None, redoc_url=None, openapi_url=None)
    if allowed_hosts:
        from starlette.middleware.trustedhost import TrustedHostMiddleware

        app.add_middleware(TrustedHostMiddleware, allowed_hosts=list(allowed_hosts))
    templates, jobs = Templates(), Jobs(drafter_for)
    app.state.jobs, app.state.templates = jobs, templates

    @app.exception_handler(RequestError)
    async def _bad_request(request, e):
        return _error(e, 413 if str(e).startswith("request too large") else 400)

    _page_routes(app, templates, libraries, max_n)
    _draft_routes(app, jobs, templates, libraries, max_n, defaults or {})
    return app


def _page_routes(app, templates: Templates, libraries, max_n: int) -> None:
    """The page, its static files and the templates' forms (listed, one by key, uploaded)."""

    @app.get("/")
    async def index():
        return Response(_static("index.html"), media_type=_STATIC["index.html"])

    @app.get("/static/{name}")
    async def static(name: str):
        if name not in _STATIC:
            return JSONResponse({"error": f"no such file: {name[:80]!r}"}, status_code=404)
        return Response(_static(name), media_type=_STATIC[name])

    @app.get("/api/templates")
    async def list_templates():
        return {"templates": templates.forms(),
                "libraries": list(libraries), "max_n": max_n}

    @app.get("/api/templates/{key}")
    def one_template(key: str):
        return template_form(templates.get(key))

    @app.post("/api/templates/upload")
    async def upload(request: Request):
        body = await _json_body(request)
        if not isinstance(body, dict):
            raise RequestError("an upload is a JSON object {\"name\", \"text\"}.", "upload")
        key, t = templates.upload(body.get("name"), body.get("text"))
        return {"key": key, **template_form(t)}


async def _sse(job):
    """A job's events as server-sent events, from the first, until its terminal one."""
    sent = 0
    while True:
        while sent < len(job.events):
            ev = job.events[sent]
            sent += 1
            yield f"event: {ev['kind']}\ndata: {json.dumps(ev, allow_nan=False, default=str)}\n\n"
            if ev["kind"] in _TERMINAL:
                return
        await asyncio.sleep(0.05)


def _draft_routes(app, jobs: Jobs, templates: Templates, libraries, max_n: int, defaults: dict) -> None:
    """Start a draft, follow its events, cancel it, download a draft assembled from its variants."""

    @app.post("/api/drafts")
    async def start(request: Request):
        checked = draft_request(await _json_body(request), templates, max_n, defaults)
        if checked["library"] not in (None, *libraries):
            raise RequestError(f"unknown library {checked['library'][:80]!r}; this server offers: "
                               f"{', '.join(libraries)} (add one with `hybrid library add DIR --name NAME`).",
                               "library")
        try:
            job = jobs.start(checked)
        except Busy as e:
            return _error(e, 409)
        return JSONResponse({"job": job.id}, status_code=202)

    def _job(job_id: str):
        job = jobs.get(job_id)
        if job is None:
            raise RequestError(f"no draft {job_id[:40]!r} on this server (it finished long ago or never was).")
        return job

    @app.get("/api/drafts/{job_id}/events")
    async def events(job_id: str):
        return StreamingResponse(_sse(_job(job_id)), media_type="text/event-stream",
                                 headers={"Cache-Control": "no-cache"})

    @app.post("/api/drafts/{job_id}/cancel")
    def cancel(job_id: str):
        job = _job(job_id)
        job.cancel()
        return {"job": job.id, "state": job.state}

    @app.post("/api/drafts/{job_id}/export")
    async def download(job_id: str, request: Request):
        job, body = _job(job_id), await _json_body(request)
        if not isinstance(body, dict):
            raise RequestError("an export is a JSON object {\"picks\", \"format\"}.")
        fmt = body.get("format", "docx")
        check_format(fmt)  # before the picks: a bad format is named even with good picks
        draft = assemble(job.drafts, body.get("picks"))
        data = await asyncio.to_thread(export, draft, fmt, redline=bool(body.get("redline")))
        stem = re.sub(r"[^A-Za-z0-9_.-]+", "-", draft.template or "draft")[:60]
        name = f"{stem}{'-redline' if body.get('redline') else ''}.{fmt}"
        return Response(data, media_type=EXPORT_FORMATS[fmt],
                        headers={"Content-Disposition": f'attachment; filename="{name}"'})
