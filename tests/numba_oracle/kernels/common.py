"""What every compiled kernel shares: the status codes the resumable kernels return,
the "infinite" constants, the array growth and prefetch helpers, and the small inlined
arithmetic (:func:`_comb`, :func:`_popcount`).

Importing this module sets dagger's OpenMP waiting policy before numba loads its OpenMP
layer (see :mod:`dagger_cli.engine.threads`); every kernel module imports it, so it runs
before any kernel.
"""

from __future__ import annotations

import os  # noqa: E402

# numba's OpenMP workers wait passively (they would spin between parallel regions).
os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")

import numpy as np  # noqa: E402
from llvmlite import ir  # noqa: E402
from numba import njit, types  # noqa: E402
from numba.core import cgutils  # noqa: E402
from numba.extending import intrinsic  # noqa: E402

MAXK = 1
INF = np.iinfo(np.int64).max


# What the resumable kernels return (named by dagger_cli.engine.dag.Status in Python).
DONE, BUDGET_SPENT, MUST_GROW, TOO_MANY_NODES, FRONT_TOO_LONG, OUT_OF_MEMORY = range(6)
#: The remaining depth of an uncapped subproblem ("infinite").
NO_CAP = 1 << 30


#: Independent pieces a parallel phase is cut into (interleaved, for balance).
PIECES = 16


@njit(cache=True)
def _grow(a, need):
    """``a``, or a copy with room for ``need`` items (at least double) when it is shorter."""
    if need <= a.size:
        return a
    out = np.empty(max(need, 2 * a.size), dtype=a.dtype)
    out[: a.size] = a
    return out


@intrinsic
def _prefetch(typingctx, arr, idx):
    """Ask the CPU to start loading ``arr[idx]`` into the cache (LLVM's prefetch; no
    effect on results). Lets independent random accesses overlap."""

    def codegen(context, builder, sig, args):
        aryty = sig.args[0]
        ary = context.make_array(aryty)(context, builder, args[0])
        ptr = cgutils.get_item_pointer(context, builder, aryty, ary, [args[1]], wraparound=False)
        i8p = ir.IntType(8).as_pointer()
        i32 = ir.IntType(32)
        fnty = ir.FunctionType(ir.VoidType(), [i8p, i32, i32, i32])
        fn = cgutils.get_or_insert_function(builder.module, fnty, "llvm.prefetch.p0")
        builder.call(fn, [builder.bitcast(ptr, i8p), i32(0), i32(3), i32(1)])
        return context.get_dummy_value()

    return types.void(arr, idx), codegen


@njit(cache=True, inline="always")
def _comb(k, a, b):
    """Two children's costs combined (``k``: MAXK or sum)."""
    return max(a, b) if k == MAXK else a + b


@intrinsic
def _popcount(typingctx, val):
    """The number of set bits of a uint64 (LLVM's ctpop: one instruction)."""

    def codegen(context, builder, sig, args):
        return builder.ctpop(args[0])

    return types.uint64(types.uint64), codegen
