"""The text <-> ids boundary: our byte-level BPE and a pretrained base's tokenizer with our special tokens."""
