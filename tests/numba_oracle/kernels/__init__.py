"""A frozen copy of the numba kernels of dagger_cli.engine.kernels (the oracle of the port)."""
