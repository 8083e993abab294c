"""The fast engine's compiled kernels (numba), one module per phase.

* :mod:`.discovery`: the DAG Δ(T), breadth-first, in batches (:func:`~.discovery.discover`);
* :mod:`.fronts`: every subproblem's Pareto front, smallest subtables first
  (:func:`~.fronts.fronts`);
* :mod:`.depth_two`: the last two levels from class counts (:func:`~.depth_two.d2_fronts`);
* :mod:`.bounds`: the bounds on the costs that discovery and both fronts kernels apply;
* :mod:`.common`: status codes, constants and helpers they share.

Each phase is a resumable kernel that returns to Python every few million units of work
(so progress can be shown and Ctrl-C honoured) or when an array must grow; the driver is
:mod:`dagger_cli.engine.dag`. Every kernel is compiled with ``cache=True``.
"""
