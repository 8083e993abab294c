"""The project's developer scripts: the benchmark (:mod:`scripts.bench`), the documentation's
real outputs (``docs_outputs.py``) and the golden curves (``make_curves.py``)."""
