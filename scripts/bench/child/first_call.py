"""The first call of a dagger command in this fresh process, then its warm calls: the command
run in process (``dagger_cli.cli.main``), its output captured; prints the seconds of each
call, whether they answered alike, whether numba was loaded and how many files the kernel
cache (``NUMBA_CACHE_DIR``, when set) holds afterwards, as JSON.

    python scripts/bench/child/first_call.py WARM_RUNS DAGGER_ARG ...

``import_s`` is the import of the command line (before the first call); the first call
includes whatever a kernel needs on first use (numba: importing it, compiling or loading the
cached kernels; a compiled core: loading it).
"""

import contextlib
import io
import json
import os
import statistics
import sys
import time

t0 = time.perf_counter()
from dagger_cli.cli import main as dagger  # noqa: E402

IMPORT_S = time.perf_counter() - t0


def call(args: list[str]) -> tuple[float, int, str]:
    """One in-process run of ``dagger ARGS``: its seconds, exit code and output."""
    out = io.StringIO()
    t1 = time.perf_counter()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(out):
        try:
            code = dagger.main(args, prog_name="dagger", standalone_mode=False) or 0
        except SystemExit as e:
            code = e.code if isinstance(e.code, int) else 1
    return time.perf_counter() - t1, code, out.getvalue()


def cache_files() -> int | None:
    """The files in NUMBA_CACHE_DIR (None when it is not set)."""
    where = os.environ.get("NUMBA_CACHE_DIR")
    if not where:
        return None
    return sum(len(files) for _, _, files in os.walk(where))


def main(warm_runs: int, args: list[str]) -> None:
    first_s, code, first_out = call(args)
    warm = [call(args) for _ in range(warm_runs)]
    figures = {
        "import_s": IMPORT_S,
        "first_s": first_s,
        "warm_s": statistics.median(s for s, _, _ in warm),
        "warm_runs": [s for s, _, _ in warm],
        "code": code,
        "same_output": all(c == code and out == first_out for _, c, out in warm),
        "numba_loaded": "numba" in sys.modules,
        "cache_files": cache_files(),
        "output_tail": first_out[-300:],
    }
    print(json.dumps(figures))


if __name__ == "__main__":
    main(int(sys.argv[1]), sys.argv[2:])
