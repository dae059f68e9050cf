"""What the page asks for, checked the way the command line checks it: templates, their forms, a draft request.

Owns: the page's view of a template (each field of its JSON Schema as a form field: name, a label for a lawyer
(hybrid.serve.labels), type, required, description, limit, its example for the "fill with example values" button),
the templates the page may use (the shipped ones by id and uploaded files, parsed in memory and never executed or
written), and the page's draft request: the DraftRequest `hybrid draft` builds, so its first message is the one
`hybrid draft` prints, with every field's own error beside it (FieldErrors).
A template is looked up by id only, among the shipped ones and the uploaded ones: no name from the page opens a
file, in the server's working directory or anywhere else.
"""

import hashlib
import re
import threading
from collections import OrderedDict

from hybrid.common.errors import FieldError, HybridError, TemplateError
from hybrid.common.options import int_range, integer
from hybrid.common.textsafe import shown
from hybrid.serve.labels import field_errors, field_label
from hybrid.templates.template import TEMPLATES_DIR, Template, load_template, parse_template, unknown_template

__all__ = ["RequestError", "FieldErrors", "Templates", "template_form", "draft_request", "check_defaults",
           "MAX_UPLOADS", "DRAFT_KEYS", "error_field", "unknown_keys"]

MAX_UPLOADS = 32  # uploaded templates kept in memory, oldest dropped first
DRAFT_KEYS = ("template", "fields", "n", "seed", "steps", "library")  # what a draft request may hold
_FIELD = re.compile(r"\bfield '([^']+)'")
_PATHLIKE = re.compile(r"[/\\]|\.json$|^\.|\x00")


class RequestError(HybridError):
    """A request the page made badly; `field` names the form field it is about (None: the whole form)."""

    def __init__(self, message: str, field: str | None = None):
        super().__init__(message)
        self.field = field


class FieldErrors(RequestError):
    """A draft request whose fields are wrong: the first message as `hybrid draft` words it (str, field), and
    `errors`, every field's own error ([{"field", "error"}], in form order) for the page to show at once."""

    def __init__(self, message: str, field: str | None, errors: list[dict]):
        super().__init__(message, field)
        self.errors = errors


def error_field(e: HybridError, default: str | None = None) -> str | None:
    """The form field an error is about: its own `field`, else the field its message names (FieldError)."""
    if getattr(e, "field", None):
        return e.field
    m = _FIELD.search(str(e)) if isinstance(e, FieldError) else None
    return m.group(1) if m else default


def template_form(t: Template) -> dict:
    """The page's form of a template: its fields in schema order, each with what the form shows."""
    props, required = t.fields["properties"], set(t.required_fields)
    fields = []
    for name, spec in props.items():
        fields.append({
            "name": name,
            "label": field_label(t, name),
            "type": spec.get("type", "string"),
            "required": name in required and "default" not in spec,
            "description": spec.get("description", ""),
            "example": t.example.get(name, spec.get("default", "")),
            "enum": spec.get("enum"),
            "multiline": bool(spec.get("multiline", False)),
            "max_length": spec.get("maxLength"),
        })
    return {"id": t.id, "title": t.title, "description": t.description, "fields": fields}


_SHIPPED_FORMS: dict[str, tuple[int, dict]] = {}  # id -> (file mtime_ns, form): parsed once per file version
_SHIPPED: dict[str, tuple[int, Template]] = {}  # id -> (file mtime_ns, template): the same, for drafting


class Templates:
    """The templates the page may draft from: shipped ids (templates/<id>.json) and uploaded texts, by key."""

    def __init__(self):
        self.uploads: OrderedDict[str, Template] = OrderedDict()
        self._lock = threading.Lock()  # uploads are checked in the server's worker threads, two at a time
        self._forms = _SHIPPED_FORMS  # shared by every app of the process: a new app's first page pays nothing
        # shared too: a shipped template was loaded and checked against the meta-schema again for every request
        # (~150 ms of a refused POST /api/drafts); a Template is never changed once loaded
        self._loaded = _SHIPPED

    def shipped(self) -> list[str]:
        return sorted(p.stem for p in TEMPLATES_DIR.glob("*.json"))

    def forms(self) -> list[dict]:
        """The form of every shipped template; a file is parsed again only when it changed (the list must
        answer quickly while a draft holds the CPU)."""
        out = []
        for tid in self.shipped():
            mtime = (TEMPLATES_DIR / f"{tid}.json").stat().st_mtime_ns
            cached = self._forms.get(tid)
            if cached is None or cached[0] != mtime:
                cached = self._forms[tid] = (mtime, template_form(self.get(tid)))
            out.append(cached[1])
        return out

    def get(self, key) -> Template:
        """The template of a key (a shipped id or an upload's key); an unknown one fails with `hybrid draft`'s
        message, a path is refused."""
        if not isinstance(key, str) or not key:
            raise RequestError(f"template must be a template id, got {shown(key)}.", "template")
        if key in self.uploads:
            return self.uploads[key]
        if key not in self.shipped() and _PATHLIKE.search(key):
            raise RequestError(
                f"the page drafts from a template id or an uploaded file, never a path: got {shown(key)}.", "template"
            )
        if key not in self.shipped():  # never a file name: load_template would open one in the working directory
            raise RequestError(str(unknown_template(key)), "template")
        try:
            mtime = (TEMPLATES_DIR / f"{key}.json").stat().st_mtime_ns
            cached = self._loaded.get(key)
            if cached is None or cached[0] != mtime:
                cached = self._loaded[key] = (mtime, load_template(key))
        except OSError as e:  # removed since it was listed
            raise RequestError(f"template {key!r} cannot be read ({e.strerror}).", "template") from None
        except TemplateError as e:
            raise RequestError(str(e), "template") from None
        return cached[1]

    def upload(self, name, text) -> tuple[str, Template]:
        """(key, template) of an uploaded template file's text: parsed and checked, kept in memory only."""
        if not isinstance(text, str) or not isinstance(name, str):
            raise RequestError("an uploaded template needs a file name and its text.", "upload")
        where = f"uploaded file {shown(name[:120])}"
        try:
            template = parse_template(text, where)
        except TemplateError as e:
            raise RequestError(str(e), "upload") from None
        key = "upload-" + hashlib.sha256(text.encode("utf-8", "replace")).hexdigest()[:16]
        with self._lock:
            self.uploads[key] = template
            self.uploads.move_to_end(key)
            while len(self.uploads) > MAX_UPLOADS:
                self.uploads.popitem(last=False)
        return key, template


def unknown_keys(body: dict, allowed, what: str) -> None:
    """RequestError naming the first key of `body` that is not `allowed` (a setting the server would otherwise
    ignore without a word, e.g. a "temperature" the page does not send)."""
    unknown = [k for k in body if k not in allowed]
    if unknown:
        raise RequestError(f"unknown field {shown(unknown[0])} in {what}; allowed: {', '.join(allowed)}.",
                           unknown[0][:80])


def _number(body: dict, name: str, option: str, default):
    """An integer of the form, parsed as the CLI parses its option (`argument -n: must be an integer, ...`);
    its range is the DraftRequest's to check."""
    value = body.get(name, default)
    if value is None or value == "":
        return default
    try:
        return integer(str(value))
    except Exception as e:  # argparse.ArgumentTypeError: the CLI's words
        raise RequestError(f"argument {option}: {e}", name) from None


def check_defaults(defaults: dict, templates: Templates) -> None:
    """The server's DraftRequest fields (`hybrid serve --steps`), checked as every request from the page will
    check them (a DraftRequest of the first shipped template's example), before the model loads; a bad one is a
    SamplingError in `hybrid draft`'s words."""
    from hybrid.common.errors import SamplingError
    from hybrid.draft.request import DraftRequest, RequestValueError, option_message

    template = templates.get(templates.shipped()[0])
    try:
        DraftRequest.of(template, template.example, **defaults)
    except RequestValueError as e:
        raise SamplingError(option_message(e)) from None


def draft_request(body, templates: Templates, max_n: int, defaults: dict | None = None) -> dict:
    """{"request": the DraftRequest, "library": name or None} of a draft request from the page, built over
    `defaults` (the server's DraftRequest fields, e.g. steps) and so checked as `hybrid draft` checks its
    options (the same messages); RequestError names the form field. n is also held to the server's max_n."""
    from hybrid.draft.request import DraftRequest, RequestValueError, option_message

    if not isinstance(body, dict):
        raise RequestError("a draft request must be a JSON object.")
    unknown_keys(body, DRAFT_KEYS, "a draft request")
    template = templates.get(body.get("template"))
    raw = body.get("fields", {})
    if not isinstance(raw, dict) or not all(isinstance(k, str) for k in raw):
        raise RequestError(f"fields must be a JSON object of name -> value, got {shown(raw)}.", "fields")
    given = {k: v for k, v in raw.items() if not (isinstance(v, str) and not v.strip())}  # an empty box: not given
    asked = {"n": _number(body, "n", "-n", 3), "seed": _number(body, "seed", "--seed", 0)}
    steps = _number(body, "steps", "--steps", None)
    if steps is not None:
        asked["steps"] = steps
    try:
        request = DraftRequest.of(template, template.coerce_field_strings(given), **{**(defaults or {}), **asked})
    except RequestValueError as e:
        raise RequestError(option_message(e), e.field) from None
    except HybridError as e:
        field = error_field(e)
        errors = field_errors(template, given) or [{"field": field, "error": str(e)}]
        raise FieldErrors(str(e), field, errors) from None
    bound = int_range(1, max_n)
    if not bound.contains(request.n):  # the server's own bound, within the request's (`hybrid serve --max-n`)
        raise RequestError(f"argument -n: must be {bound.rule()} on this server (--max-n), got {request.n!r}.", "n")
    library = body.get("library") or None
    if library is not None and not isinstance(library, str):
        raise RequestError(f"library must be a library name, got {shown(library)}.", "library")
    return {"request": request, "library": library}
