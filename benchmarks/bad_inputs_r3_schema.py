"""Issue 52's template-schema cases (items 1, 4, 10, 12, 17), run as a user would, one JSON line.

    python benchmarks/bad_inputs_r3_schema.py [--out benchmarks/results/bad-inputs-r3-schema-cpu.json]

Each hostile template is written to a scratch directory beside a secret file, a FIFO and a local HTTP listener,
then loaded three ways: `python -m hybrid plan TPL --example`, `python -m hybrid draft TPL --example --out DIR`
and the Python API (`hybrid.DraftRequest.of(TPL, fields)`, in a child process). A case holds when every way
refuses it cleanly: the CLI exits 2 with a last line `hybrid: error: ...` naming the field, the API raises the
project's own error (a HybridError) naming it, each within MAX_SECONDS, with no traceback, no secret, no secret
path and no listener address in any output, no --out directory made, and no request reaching the listener.
Time: a CLI run's seconds less the same command's start (the mean time, at the start and the end of the run, to
refuse an unknown template id: Python, torch and hybrid's imports, seconds on a loaded shared machine); the API's
own time around load_template and DraftRequest.of, after its imports. `--temperature hot` is refused by the
parser before anything is imported: its whole run is its time.
The request cases (a 5,000-digit party name, temperature 'hot') go through the API and the CLI's options.
Not a test: the suite tests each behaviour (tests/templates/test_template_safety.py, test_template_patterns.py,
tests/draft/test_request.py); this times them end to end, child processes and imports included.
"""

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(REPO))
from tests.listener import SECRET, CountingListener  # noqa: E402 (the tests' own listener)

from machine import emit, machine  # noqa: E402

PY = sys.executable
MAX_SECONDS = 5.0  # issue 52's bar for each case
_ENV = {**os.environ, "PYTHONPATH": str(REPO)}

# The API's way: a child process, so that a hang is a timeout, not a frozen benchmark. It prints one JSON line.
_API = """
import json, sys, time
import hybrid
from hybrid.common.errors import HybridError
template, fields, options = sys.argv[1], json.loads(sys.argv[2]), json.loads(sys.argv[3])
fields = {k: (10 ** 5000 if v == "<10**5000>" else v) for k, v in fields.items()}  # JSON cannot carry it
from hybrid.templates.template import load_template
DraftRequest = hybrid.DraftRequest  # its import (torch's) before the clock, as load_template's
t0 = time.perf_counter()
try:
    t = load_template(template)
    DraftRequest.of(t, {**t.example, **fields}, **options)
    out = {"raised": None, "message": ""}
except HybridError as e:
    out = {"raised": type(e).__name__, "message": str(e), "project_error": True}
except Exception as e:
    out = {"raised": type(e).__name__, "message": str(e)[:500], "project_error": False}
out["seconds"] = round(time.perf_counter() - t0, 3)
print(json.dumps(out))
"""


def _nda() -> dict:
    data = json.loads((REPO / "templates" / "mutual-nda.json").read_text())
    data["id"] = "hostile-nda"
    return data


def _purpose(example=None, **spec) -> dict:
    data = _nda()
    data["fields"]["properties"]["purpose"].update(spec)
    if example is not None:
        data["example"]["purpose"] = example
    return data


def _slow_fields() -> dict:
    data = _nda()
    for i in range(12):
        data["fields"]["properties"][f"code_{i}"] = {"description": "digits", "type": "string", "maxLength": 2000,
                                                     "pattern": "^\\d*\\d*\\d*\\d*\\d*\\d*\\d*\\d*$"}
        data["example"][f"code_{i}"] = "1234"
    return data


def _enum(n: int, ref: bool = False) -> dict:
    data = _nda()
    values = {"description": "what is shared", "enum": [f"v{i}" for i in range(n)]}
    if ref:  # item 10: the purpose field's constraint reached through a $ref to another field's enum
        data["fields"]["properties"]["kind"] = values
        data["fields"]["properties"]["purpose"]["$ref"] = "#/properties/kind"
    else:
        data["fields"]["properties"]["purpose"] = values
        data["example"]["purpose"] = "v1"
    return data


def template_cases(root: Path, url: str) -> list[tuple]:
    """(case, template data, words the refusal must hold, extra CLI arguments, the API's fields)."""
    secret, fifo = root / "secret-schema.json", root / "schema.fifo"
    slow = [a for i in range(12) for a in ("--field", f"code_{i}={'1' * 1999}!")]
    return [
        ("#1 field $ref to a local file (file://)", _purpose(**{"$ref": secret.as_uri()}), "field 'purpose'", [], {}),
        ("#1 field $ref to /etc/passwd", _purpose(**{"$ref": "file:///etc/passwd"}), "field 'purpose'", [], {}),
        ("#1 field $ref to a URL (local listener)", _purpose(**{"$ref": url}), "field 'purpose'", [], {}),
        ("#1 field $ref to a FIFO", _purpose(**{"$ref": fifo.as_uri()}), "field 'purpose'", [], {}),
        ("#1 field $ref to /dev/zero", _purpose(**{"$ref": "file:///dev/zero"}), "field 'purpose'", [], {}),
        ("#1 allOf around a file $ref (an unknown keyword)", _purpose(allOf=[{"$ref": secret.as_uri()}]),
         "field 'purpose'", [], {}),
        ("#1 examples holding a URL $ref (an unknown keyword)", _purpose(examples=[{"$ref": url}]),
         "field 'purpose'", [], {}),
        ("#4 pattern ^(a+)+$, example 28 a's and '!'", _purpose(pattern="^(a+)+$", example="a" * 28 + "!"),
         "field 'purpose'", [], {}),
        ("#4 pattern ^(a|aa)+$, example 60 a's and '!'", _purpose(pattern="^(a|aa)+$", example="a" * 60 + "!"),
         "field 'purpose'", [], {}),
        ("#4 pattern ^(?:a{1000}){1000}$ (compiles for seconds)",
         _purpose(pattern="^(?:a{1000}){1000}$", example="a" * 100), "field 'purpose'", [], {}),
        ("#4 pattern with a backreference", _purpose(pattern="^(a*)\\1$", example="aaaa"), "field 'purpose'", [], {}),
        ("#4 12 fields of a polynomial pattern, each value 1,999 digits and '!'", _slow_fields(), "field 'code_0'",
         slow, {f"code_{i}": "1" * 1999 + "!" for i in range(12)}),
        ("huge enum (200,000 values)", _enum(200_000), "/fields/properties/purpose/enum", [], {}),
        ("long enum (201 values)", _enum(201), "field 'purpose'", [], {}),
        ("#10 field $ref to another field's enum", _enum(2, ref=True), "field 'purpose' must be one of", [], {}),
    ]


def _run(args, cwd: Path, timeout: float = 60) -> tuple[int, str, str, float]:
    t0 = time.perf_counter()
    try:
        p = subprocess.run([PY, *args], cwd=cwd, capture_output=True, text=True, timeout=timeout, env=_ENV)
    except subprocess.TimeoutExpired:
        return 124, "", f"(killed after {timeout} s)", time.perf_counter() - t0
    return p.returncode, p.stdout, p.stderr, time.perf_counter() - t0


def _clean(text: str, root: Path, url: str) -> list[str]:
    """What of the forbidden (a traceback, the secret, the secret's or the FIFO's path, the listener) `text` shows."""
    bad = {"traceback": "Traceback", "secret": SECRET, "secret path": str(root / "secret-schema.json"),
           "fifo path": str(root / "schema.fifo"), "listener": url.rsplit("/", 1)[0], "passwd": "root:x:0:0"}
    return [k for k, v in bad.items() if v in text]


def _cli(root: Path, command: str, template: str, extra: list, out_dir: Path):
    args = ["-m", "hybrid", command, template, "--example", *extra]
    return _run(args + (["--out", str(out_dir), "-n", "1"] if command == "draft" else []), root)


def starts(root: Path) -> dict:
    """Seconds each CLI command takes to refuse an unknown template id: its start, paid by every case."""
    return {c: _cli(root, c, "no-such-template", [], root / "out-start")[3] for c in ("plan", "draft")}


def cli_way(root: Path, url: str, command: str, tpl: Path, words: str, extra: list) -> dict:
    """The CLI's refusal; "refused": all but the time, which `timed` judges once the start is known."""
    out_dir = root / f"out-{tpl.stem}"
    code, out, err, secs = _cli(root, command, str(tpl), extra, out_dir)
    last = err.strip().splitlines()[-1] if err.strip() else ""
    shown = _clean(out + err, root, url)
    refused = code == 2 and last.startswith("hybrid: error: ") and words in last and not shown and not out_dir.exists()
    return {"way": f"hybrid {command}", "command": command, "refused": refused, "exit": code,
            "process_seconds": round(secs, 2), "message": last[:300], "shows": shown}


def timed(case: dict, start: dict) -> dict:
    """The case with each CLI way's seconds beyond its command's start, and held judged with them."""
    for w in case["detail"]:
        if "command" in w:
            w["seconds"] = round(w["process_seconds"] - start[w.pop("command")], 2)
            w["held"] = w.pop("refused") and w["seconds"] <= MAX_SECONDS
    case["seconds"] = max(w["seconds"] for w in case["detail"])
    case["held"] = all(w["held"] for w in case["detail"]) and case["outbound_requests"] == 0
    return case


def api_way(root: Path, url: str, template: str, words: str, fields: dict, options: dict | None = None) -> dict:
    code, out, err, secs = _run(["-c", _API, template, json.dumps(fields), json.dumps(options or {})], root)
    try:
        got = json.loads(out.strip().splitlines()[-1])
    except (ValueError, IndexError):
        got = {"raised": None, "message": err.strip()[-300:], "project_error": False}
    shown = _clean(out + err, root, url)
    seconds = got.get("seconds", secs)
    held = (code == 0 and got.get("project_error", False) and words in got["message"] and not shown
            and seconds <= MAX_SECONDS)
    return {"way": "DraftRequest.of", "held": held, "raised": got["raised"], "seconds": seconds,
            "process_seconds": round(secs, 2), "message": got["message"][:300], "shows": shown}


def _case(name: str, ways: list[dict], hits_before: int, listener: CountingListener) -> dict:
    return {"case": name, "outbound_requests": len(listener.hits) - hits_before, "detail": ways}


def request_cases(root: Path, listener: CountingListener) -> list[dict]:
    """Items 12 and 17: a value no check could write (a 5,000-digit int) and a temperature that is no number."""
    nda = str(REPO / "templates" / "mutual-nda.json")
    out = []
    for name, fields, options, words, cli in (
        ("#12 party_a = 10**5000 (Python API)", {"party_a": "<10**5000>"}, {}, "field 'party_a'", None),
        ("#17 temperature 'hot'", {}, {"temperature": "hot"}, "temperature must be",
         ["--temperature", "hot"]),
        ("#17 temperature 10**600, past the largest float (Python API)", {}, {"temperature": 10 ** 600},
         "temperature must be", None),
    ):
        n = len(listener.hits)
        ways = [api_way(root, listener.url, nda, words, fields, options)]
        if cli:
            code, _, err, secs = _cli(root, "plan", "mutual-nda", cli, root / "out-start")
            last = err.strip().splitlines()[-1] if err.strip() else ""
            refused = code == 2 and last.startswith("hybrid: error: argument --temperature") and "Traceback" not in err
            ways.append({"way": "hybrid plan", "held": refused and secs <= MAX_SECONDS, "exit": code,  # argparse's
                         "seconds": round(secs, 2), "process_seconds": round(secs, 2), "message": last[:300]})
        out.append(_case(name, ways, n, listener))
    return out


def run_all(root: Path) -> tuple[list[dict], dict]:
    """(each case's result, the CLI's start seconds measured before and after them)."""
    listener = CountingListener()
    try:
        (root / "secret-schema.json").write_text(json.dumps({"const": SECRET}))
        os.mkfifo(root / "schema.fifo")
        before = starts(root)
        results = []
        for i, (name, data, words, extra, fields) in enumerate(template_cases(root, listener.url)):
            tpl = root / f"case-{i}.json"
            tpl.write_text(json.dumps(data))
            n = len(listener.hits)
            ways = [cli_way(root, listener.url, c, tpl, words, extra) for c in ("plan", "draft")]
            ways.append(api_way(root, listener.url, str(tpl), words, fields))
            results.append(_case(name, ways, n, listener))
        results += request_cases(root, listener)
        after = starts(root)
        start = {c: round((before[c] + after[c]) / 2, 2) for c in before}
        for r in results:
            timed(r, start)
            print(("held     " if r["held"] else "NOT HELD ") + r["case"], file=sys.stderr)
        return results, {"before": before, "after": after, "used": start}
    finally:
        listener.close()


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out", default=None, help="also write the JSON line to this file")
    args = ap.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="hybrid-r3-schema-") as d:
        results, start = run_all(Path(d))
    emit({"benchmark": "bad_inputs_r3_schema", "cases": results, "held": sum(r["held"] for r in results),
          "not_held": [r["case"] for r in results if not r["held"]], "max_seconds": MAX_SECONDS,
          "cli_start_seconds": start, **machine(), "threads": 1},  # threads: each CLI run at its default --threads 1
         args.out, ensure_ascii=False)


if __name__ == "__main__":
    main()
