"""Joint AR + masked-diffusion training of the shared backbone."""
