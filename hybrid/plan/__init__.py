"""The planner: grammar-constrained autoregressive outline decoding."""
