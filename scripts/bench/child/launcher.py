"""Run one command as a fresh process; print its wall time, peak RSS, CPU time, exit code and
output as one JSON line.

    python scripts/bench/child/launcher.py LIMIT|none COMMAND [ARG ...]

Every process the benchmark measures is started by this small interpreter (the standard
library only), not by the benchmark itself: a child forked from the big benchmark process
would inherit its peak RSS. Past LIMIT seconds the command is killed and its code is
``"timeout"``.
"""

import json
import resource
import subprocess
import sys
import time


def main(argv: list[str]) -> None:
    limit = None if argv[1] == "none" else float(argv[1])
    t0 = time.perf_counter()
    proc = subprocess.Popen(argv[2:], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        out, err = proc.communicate(timeout=limit)
        code: int | str = proc.returncode
    except subprocess.TimeoutExpired:
        proc.kill()
        out, err = proc.communicate()
        code = "timeout"
    wall = time.perf_counter() - t0
    use = resource.getrusage(resource.RUSAGE_CHILDREN)
    report = {
        "wall": wall,
        "peak_mib": use.ru_maxrss / 1024,
        "cpu": use.ru_utime + use.ru_stime,
        "code": code,
        "stdout": out.decode(errors="replace"),
        "stderr": err.decode(errors="replace"),
    }
    print(json.dumps(report))


if __name__ == "__main__":
    main(sys.argv)
