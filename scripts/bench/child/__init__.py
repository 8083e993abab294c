"""The benchmark's child programs, one file each, every one run as a script by its path
(``python scripts/bench/child/NAME.py ARGS``, :func:`scripts.bench.procs.child`).

None imports the benchmark package: a child imports the standard library, numpy and
``dagger_cli`` (or only a peer: ``streed.py``, ``contree.py``), what the process it
measures needs and nothing more, and prints its figures as one JSON line on stdout.
``launcher.py`` starts every measured process.
"""
