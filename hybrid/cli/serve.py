"""`hybrid serve`: the drafting workbench (hybrid.serve.app) on a local web server (uvicorn).

Owns: this subcommand's arguments (bind address, port, threads, checkpoint, bounds) and the warning when
the page is bound beyond this machine. The libraries it offers are live (hybrid.serve.libraries): one added with
`hybrid library add` or on the page while it runs is offered to the next draft. `add_parsers(subparsers)` is wired
into hybrid/cli/main.py.
"""

import ipaddress
import sys
from pathlib import Path

from hybrid.common.options import add_threads, int_range, integer

__all__ = ["add_parsers", "is_loopback"]

DEFAULT_HOST = "127.0.0.1"
LOOPBACK_NAMES = ("127.0.0.1", "localhost", "::1", "[::1]")  # the Host headers a loopback-bound server answers


def is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def _cmd_serve(args) -> int:
    import uvicorn

    from hybrid.draft.drafter import Drafter
    from hybrid.serve.app import create_app
    from hybrid.serve.forms import Templates, check_defaults
    from hybrid.serve.libraries import Libraries, drafters

    if not is_loopback(args.host):
        print(
            f"warning: --host {args.host} serves the workbench beyond this machine; it has no login, and anyone who "
            "can reach the port can draft on it.",
            file=sys.stderr,
        )
    defaults = {"steps": args.steps} if args.steps is not None else {}
    check_defaults(defaults, Templates())  # the DraftRequest's rules, before the model loads
    drafter = Drafter.from_pretrained(args.checkpoint, device="cpu" if args.cpu else None)
    hosts = LOOPBACK_NAMES if is_loopback(args.host) else None
    libraries = Libraries()
    libraries.names()  # a damaged library's warning now, before the page is served
    app = create_app(drafters(drafter), max_n=args.max_n, defaults=defaults, libraries=libraries,
                     allowed_hosts=hosts, max_queue=args.max_queue)
    print(f"hybrid workbench: http://{args.host}:{args.port}/", file=sys.stderr)
    uvicorn.run(app, host=args.host, port=args.port, log_level="warning")
    return 0


def add_parsers(subparsers) -> None:
    s = subparsers.add_parser(
        "serve",
        help="the drafting workbench in the browser: fill a template's form, draft N variants, compare and pick",
        description="Serve a local web page that lists the templates, drafts N variants with live progress "
        "(queued, one at a time, for everyone who uses the page), shows "
        "them side by side with each clause's source and redline, and downloads a draft assembled from the "
        "sections you pick (DOCX or Markdown). Bound to 127.0.0.1 unless --host says otherwise.",
    )
    s.add_argument("--host", default=DEFAULT_HOST, help=f"address to bind (default: {DEFAULT_HOST}: this machine only)")
    s.add_argument("--port", type=int_range(1, 65535), default=8000, help="port (default: 8000)")
    s.add_argument("--checkpoint", "--model", dest="checkpoint", type=Path, default=None,
                   help="checkpoint dir or fetched base name (default: the shipped model)")
    s.add_argument("--max-n", type=int_range(1, 64), default=8, help="most variants one draft may ask for (default: 8)")
    s.add_argument("--max-queue", type=int_range(0, 256), default=8,
                   help="drafts that may wait behind the running one, first in first out (default: 8; 0: none wait)")
    s.add_argument("--steps", type=integer, default=None, help="denoising steps of every draft, 1-65536")
    s.add_argument("--cpu", action="store_true", help="stay on CPU even when CUDA is available")
    add_threads(s)
    s.set_defaults(func=_cmd_serve)
