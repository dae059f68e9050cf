"""The shared transformer backbone, its KV cache and the transformers adapter."""
