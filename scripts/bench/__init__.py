"""dagger's benchmark (``make bench``): ``python -m scripts.bench run [--only SECTION,...]``.

One module per section, each with ``NAME``, ``OUTPUT`` (its JSON file in ``--out``),
``HELP``, ``add_arguments(group)`` and ``run(args)``, in the order a full run takes them:
:mod:`.uci`, :mod:`.scaling`, :mod:`.odt`, :mod:`.bounds`, :mod:`.sorting`, :mod:`.read`,
:mod:`.estimator` (``sklearn``), :mod:`.load`, :mod:`.rules`, :mod:`.num`, :mod:`.study`,
:mod:`.firstcall`. What they share:

- :mod:`.procs`: the one process launcher (``child/launcher.py``) and the child programs'
  command lines, repeated runs, why a run failed;
- :mod:`.machine`: the load average, the cores, dates, JSON files;
- :mod:`.peers`: STreeD and ConTree, each run in a process of its own;
- :mod:`.verdict`: every target checked against its figures, and the references;
- ``child/``: the programs the sections run in fresh processes, one file each.

The command line is :mod:`scripts.bench.__main__`. Nothing is imported here: a child
program never loads the package.
"""
