"""hybrid.model.shipped: a LoRA adapter shipped in checkpoints/NAME loads by name on top of its fetched base.

On a tiny random Llama base registered as a known base (fetched into a temporary cache) and a tiny
adapter trained on it for two steps: `hybrid model ship-adapter` copies the run into checkpoints/NAME
(no optimizer state, adapt.json naming the base and its hashes); `Drafter.from_pretrained(NAME)` and
`hybrid draft --model NAME` (the same load_model) give the adapted logits, which differ from the base's;
a base that is not fetched, a run still training and a name already shipped are refused with one line.
"""

import hashlib
import json

import pytest
import torch

from hybrid.cli.main import main
from hybrid.common.config import TrainConfig
from hybrid.common.errors import CheckpointError
from hybrid.common.outdir import OutputLock
from hybrid.model import pretrained, shipped
from hybrid.model.adapt import init_model
from hybrid.model.pretrained import Base
from hybrid.train.loop import STATE_FILE, train

from conftest import CORPUS, tiny_llama_dir

torch.set_num_threads(1)

NAME, BASE = "tiny-legal-lora", "tiny-base"
TINY = dict(corpus=str(CORPUS), seq_len=64, stride=64, batch_size=2, warmup_steps=0, lr=3e-3, eval_every=1,
            eval_windows=4, limit_docs=1, plan_repeat=0, threads=1)


@pytest.fixture(scope="module")
def world(tmp_path_factory):
    """A fetched tiny base in a temporary cache, a LoRA run trained on it, an empty checkpoints/ to ship into."""
    mp = pytest.MonkeyPatch()
    root = tmp_path_factory.mktemp("shipped")
    mp.setenv("HYBRID_CACHE", str(root / "cache"))
    gguf_sha = hashlib.sha256(b"tiny gguf").hexdigest()
    mp.setitem(pretrained.BASES, BASE, Base(BASE, "tiny-pkg", "0.1", "0" * 64, "tiny/w.gguf", gguf_sha, "test", "none"))
    src, _ = tiny_llama_dir(root / "src")
    d = pretrained.base_dir(BASE)
    d.mkdir(parents=True)
    for f in ("config.json", "model.safetensors", "tokenizer.json"):
        (d / f).write_bytes((src / f).read_bytes())
    (d / "source.json").write_text(json.dumps({"name": BASE, "member_sha256": gguf_sha}))
    run = root / "run"
    train(TrainConfig(out=str(run), init_from=BASE, lora_rank=4, max_steps=2, **TINY), log=lambda m: None)
    checkpoints = root / "checkpoints"
    checkpoints.mkdir()
    mp.setattr(shipped, "CHECKPOINTS", checkpoints)
    yield {"root": root, "run": run, "checkpoints": checkpoints, "base": d}
    mp.undo()


def _logits(model):
    x = torch.randint(0, model.cfg.vocab_size - 8, (2, 24), generator=torch.Generator().manual_seed(3))
    with torch.no_grad():
        return model(x, "causal")


def _trained(run):
    """The run's model rebuilt in memory: the base, LoRA injected, the trained adapter weights of train_state.pt."""
    ad = init_model(TrainConfig(out=str(run), init_from=BASE, lora_rank=4, **TINY))
    ad.load_train_state(torch.load(run / STATE_FILE, weights_only=False)["model"])
    return ad.model.eval()


@pytest.fixture(scope="module")
def shipped_dir(world):
    assert main(["model", "ship-adapter", str(world["run"]), NAME, "--json"]) == 0
    return world["checkpoints"] / NAME


def test_ship_copies_the_adapter_and_names_its_base_without_the_optimizer_state(world, shipped_dir):
    names = sorted(p.name for p in shipped_dir.iterdir() if not p.name.startswith("."))
    assert names == sorted(shipped.SHIPPED_FILES) and STATE_FILE not in names
    meta = json.loads((shipped_dir / "adapt.json").read_text())
    assert meta["base"] == BASE and meta["base_weights_sha256"] == pretrained.weights_sha256(world["base"])
    assert meta["base_gguf_sha256"] == pretrained.BASES[BASE].member_sha256
    assert meta["fetch"] == f"hybrid model fetch {BASE}"
    assert (shipped_dir / "adapter_model.safetensors").read_bytes() == (
        world["run"] / "adapter_model.safetensors"
    ).read_bytes()


def test_the_shipped_adapter_loads_by_name_with_the_adapted_logits_not_the_base_ones(world, shipped_dir):
    from pathlib import Path

    from hybrid.draft.drafter import Drafter
    from hybrid.model.resolve import resolve

    drafter = Drafter.from_pretrained(NAME, device="cpu")
    assert Path(drafter.path) == shipped_dir
    want = _logits(_trained(world["run"]))
    torch.testing.assert_close(_logits(drafter.model), want, atol=0, rtol=0)
    # `hybrid draft --model NAME` passes a Path to the same loader
    torch.testing.assert_close(_logits(Drafter.from_pretrained(Path(NAME), device="cpu").model), want, atol=0, rtol=0)
    base = resolve(BASE)[0]
    assert not torch.allclose(_logits(base), want, atol=1e-4)  # the adapter changes what the base writes
    assert resolve(NAME)[2]["base"] == BASE


def test_a_base_that_is_not_fetched_names_the_fetch_command(world, shipped_dir, monkeypatch):
    from hybrid.draft.drafter import Drafter

    monkeypatch.setenv("HYBRID_CACHE", str(world["root"] / "empty-cache"))
    with pytest.raises(CheckpointError, match=rf"needs base '{BASE}'.*run `hybrid model fetch {BASE}`"):
        Drafter.from_pretrained(NAME, device="cpu")


def test_ship_refuses_a_running_run_an_existing_name_and_a_non_adapter(world, shipped_dir, tmp_path, capsys):
    with OutputLock(world["run"]):  # as `hybrid train` holds its --out while it trains
        with pytest.raises(CheckpointError, match="still being written"):
            shipped.ship_adapter(world["run"], "other", into=tmp_path)
    assert not (tmp_path / "other").exists()
    assert main(["model", "ship-adapter", str(world["run"]), NAME]) == 2
    assert "already exists; pass --force" in capsys.readouterr().err
    assert main(["model", "ship-adapter", str(world["run"]), NAME, "--force"]) == 0
    with pytest.raises(CheckpointError, match="not a LoRA adapter run.*missing adapter_config.json"):
        shipped.ship_adapter(world["base"], "x", into=tmp_path)
    with pytest.raises(CheckpointError, match="plain directory name"):
        shipped.ship_adapter(world["run"], "../x", into=tmp_path)
