"""The fillers: masked diffusion (fill.diffusion) and the autoregressive baselines, behind one contract."""
