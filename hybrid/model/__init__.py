"""The shared transformer backbone, its KV cache, the transformers adapter, checkpoints and adapting a pretrained
base."""
