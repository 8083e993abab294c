"""Read one CSV file into a DecisionTable in this fresh process (the reader is chosen by
``DAGGER_CSV_READER``); prints its size and the CPU time.

    python scripts/bench/child/read_csv.py FILE
"""

import resource
import sys

from dagger_cli.data.table import DecisionTable


def main(path: str) -> None:
    t = DecisionTable.from_csv(path)
    ru = resource.getrusage(resource.RUSAGE_SELF)
    cpu = ru.ru_utime + ru.ru_stime
    print(f"{t.n_rows} rows x {t.n_attributes} attributes; CPU {cpu:.1f} s")


if __name__ == "__main__":
    main(sys.argv[1])
