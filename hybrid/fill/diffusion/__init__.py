"""Absorbing-state (masked) diffusion: schedules, the MDLM objective and the parallel sampler."""
