"""Decision tables and where they come from.

* :mod:`.table`: :class:`~dagger_cli.data.table.DecisionTable`, preprocessing, the Python CSV
  reader, the paper's example table;
* :mod:`.csv`: the columnar reader of large CSV files (pyarrow), the same tables faster;
* :mod:`.report`: what preprocessing changed and the notes it prints;
* :mod:`.recipe`: the preprocessing as one value (:class:`~dagger_cli.data.recipe.Recipe`);
* :mod:`.discretize`, :mod:`.thresholds`: numeric columns into intervals or binary tests;
* :mod:`.datasets`: the registry of public datasets, downloads and the cache;
* :mod:`.families`: generated tables (the sorting table).

Nothing here imports the engine; the engine reads a table's arrays.
"""
