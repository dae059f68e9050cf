"""The workbench tests' fixtures and helpers: a tiny random Drafter over a small clause library, the app, a real
local server, and the parser of server-sent events. Test modules import the fixtures by name (a conftest.py here
would shadow tests/conftest.py for the modules that import from it)."""

import contextlib
import threading
import time

import pytest

pytest.importorskip("fastapi")

from hybrid.draft.drafter import Drafter  # noqa: E402
from hybrid.precedents.library import Library, Precedent  # noqa: E402
from hybrid.templates.template import load_template  # noqa: E402

NDA = load_template("mutual-nda")
LIB_FILE = "firm/nda-{i}.txt"


WORDING = [
    "[PARTY_A] and [PARTY_B] agree that the {c} terms of this Agreement apply from [DATE] for [DURATION], and the laws "
    "of [LAW] govern them without regard to conflicts rules.",
    "Each party shall observe the {c} obligations set out here from [DATE]; they continue for [DURATION] and are "
    "construed under the laws of [LAW].",
    "The {c} provisions bind [PARTY_A] and [PARTY_B] for [DURATION] after [DATE]; any dispute about them is decided "
    "under the laws of [LAW], and nothing in them limits any other right of either party.",
]


# what the firm's files said where the library holds markers: a redline strikes these, never the deal's words
FIRM_FACTS = {"[PARTY_A]": "Zebulon Holdings", "[PARTY_B]": "Quill Ltd", "[DATE]": "1 May 2019",
              "[DURATION]": "two years", "[LAW]": "England"}


def original(body: str) -> str:
    for marker, fact in FIRM_FACTS.items():
        body = body.replace(marker, fact)
    return body


def small_library() -> Library:
    """Three precedents per clause type of mutual-nda, each worded its own way, from three firm files (each long
    enough to be a whole base a variant starts from: hybrid.precedents.base.MIN_BASE_WORDS); their own words, the
    firm's facts in them, as `originals` (hybrid.precedents.originals)."""
    precedents = []
    for i, c in enumerate(NDA.clause_types):
        for j, wording in enumerate(WORDING):
            doc = LIB_FILE.format(i=j)
            precedents.append(Precedent(f"{doc}#{i + 1}", doc, "firm", "CC-BY-4.0", "MUTUAL NDA", c,
                                        c.replace("_", " ").title(), wording.format(c=c.replace("_", " ")),
                                        facts=["Zebulon Holdings"]))
    lib = Library(precedents, "fp")
    lib.originals = {p.id: original(p.body) for p in precedents}
    return lib


# a firm's contract to add as a user library: three run-in headed clauses
CONTRACT = """MUTUAL NONDISCLOSURE AGREEMENT

This Agreement is made between Pelican Bay Holdings LLC ("Pelican") and Osprey Partners Inc. ("Osprey").

1. Confidentiality. Pelican shall hold Osprey's confidential information in strict confidence, as agreed at the
offsite, and use it only to evaluate the proposed collaboration between the parties.

2. Term. This Agreement lasts for three years from the date it is signed by both parties, and its obligations
survive for two further years after it ends for any reason whatsoever.

3. Governing Law. This Agreement is governed by the laws of the State of New York, without regard to its conflict
of laws rules, and the parties submit to the courts of New York County.
"""


def live_library(name: str):
    """The library a draft naming a user library drafts from here: its clauses alone (no shipped library is built in a
    test; too short to be a whole base, so each section is drafted from its own clause)."""
    from hybrid.precedents.user import load_user_library

    return load_user_library(name)


@pytest.fixture(scope="session")
def drafter(tiny_model, tokenizer):
    return Drafter(tiny_model, tokenizer, library=small_library())


@pytest.fixture
def make_app(drafter):
    from hybrid.serve.app import create_app

    return lambda **kw: create_app(lambda library: drafter, defaults={"steps": 2}, **kw)


@pytest.fixture
def client(make_app):
    from fastapi.testclient import TestClient

    with TestClient(make_app()) as c:
        yield c


@contextlib.contextmanager
def serving(app):
    """A real uvicorn server of `app` on a free local port, in a thread: its base URL."""
    import uvicorn

    srv = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=0, log_level="warning"))
    thread = threading.Thread(target=srv.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not srv.started:
        assert time.monotonic() < deadline, "the server did not start"
        time.sleep(0.05)
    port = srv.servers[0].sockets[0].getsockname()[1]
    yield f"http://127.0.0.1:{port}"
    srv.should_exit = True
    thread.join(timeout=10)


@pytest.fixture
def server(make_app):
    """A real server of the workbench as `hybrid serve` on 127.0.0.1 runs it: (its base URL, the app)."""
    from hybrid.cli.serve import LOOPBACK_NAMES

    app = make_app(allowed_hosts=LOOPBACK_NAMES)
    with serving(app) as url:
        yield url, app


def owner_of(path: str):
    """(the module or class holding `path`'s last name, that name), for monkeypatch.setattr: "pkg.module.name" or
    "pkg.module.Class.name"."""
    import importlib

    module, _, name = path.rpartition(".")
    try:
        return importlib.import_module(module), name
    except ImportError:
        mod, _, cls = module.rpartition(".")
        return getattr(importlib.import_module(mod), cls), name


def read_events(lines) -> list[dict]:
    """The server-sent events of a response's lines, as [{"event", ...data}]."""
    import json

    out, kind = [], None
    for line in lines:
        if line.startswith("event: "):
            kind = line[len("event: "):]
        elif line.startswith("data: "):
            out.append({"event": kind, **json.loads(line[len("data: "):])})
    return out
