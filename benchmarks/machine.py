"""What every benchmark result records about the machine it ran on (these machines differ and are
shared), and what every benchmark does alike: its --threads / --out options and its one JSON line."""

import json
import os


def machine() -> dict:
    """CPU model, cores, torch threads, the load average now and the git commit measured (with "+dirty"
    when the tree has uncommitted changes; None outside a git checkout)."""
    import torch

    from hybrid.common.machine import cpu_model

    return {"cpu_model": cpu_model(), "cores": os.cpu_count(), "threads": torch.get_num_threads(),
            "load_average": [round(x, 2) for x in os.getloadavg()], "git_commit": _git_commit()}


def _git_commit() -> str | None:
    import subprocess
    from pathlib import Path

    root = Path(__file__).resolve().parent.parent
    try:
        sha = subprocess.run(
            ["git", "rev-parse", "HEAD"], cwd=root, capture_output=True, text=True, timeout=10, check=True
        ).stdout.strip()
        dirty = subprocess.run(
            ["git", "status", "--porcelain", "--untracked-files=no"],
            cwd=root,
            capture_output=True,
            text=True,
            timeout=10,
            check=True,
        ).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return None
    return sha + ("+dirty" if dirty else "")


def add_run_args(ap, threads: int = 0) -> None:
    """The two options every benchmark takes alike: --threads and --out."""
    ap.add_argument("--threads", type=int, default=threads,
                    help="torch CPU threads; 0 = leave torch's default" + (f" (default: {threads})" if threads else ""))
    ap.add_argument("--out", default=None, help="also write the JSON to this file")


def emit(result: dict, out: str | None, ensure_ascii: bool = True) -> None:
    """The result as one JSON line on stdout, and in `out` when given (its folder made)."""
    from pathlib import Path

    line = json.dumps(result, ensure_ascii=ensure_ascii)
    print(line)
    if out:
        Path(out).parent.mkdir(parents=True, exist_ok=True)
        Path(out).write_text(line + "\n")
