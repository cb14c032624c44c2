"""How the package's compiled helpers are built (numba), in one place.

Compiled functions that allocate nothing are built without numba's runtime (NRT): a call
between compiled functions otherwise reference-counts every array argument (atomic
operations, about 40 ns an array), which made one swap cost 150 us instead of 8 us and
the goals stage 6.0 s instead of 3.2 s on the default event (same plans, byte for byte).
Such functions take their scratch space from the caller (engine.State.work) instead of
allocating it. Tiny helpers of the hottest loops are inlined into their callers.

A compiled function called from another with a literal argument (`-1`, `True`) is compiled
once more for that literal, and a variable first set to a literal (`best = -1`) can cause
the same while its type is inferred. So the large ones (engine.swap, evaluate) get typed
constants (`np.int64(-1)`): the first run of the swap stage on a machine, which compiles
them, took 37 s instead of 51 s (default event; the same plans). The install compiles
once for the default event's stages (seating/precompile.py).
"""

import numpy as np
from numba import njit

kernel = njit(cache=True, _nrt=False)
fast = njit(_nrt=False, inline="always")


@fast
def copy_into(dst, src):
    """dst[...] = src for two contiguous arrays of one shape, element by element. Numba's own
    array assignment checks the shapes with an error message whose formatting it compiles
    in every process that compiles such a function: 4-5 s of each stage's first run (the
    default event's whole first run took 92 s at 022714f, 66 s with this, in a busy hour)."""
    d = dst.reshape(dst.size)
    s = src.reshape(src.size)
    for i in range(d.size):
        d[i] = s[i]


@fast
def pick(d, best, ties):
    """A tabu search's choice among the moves it scans one by one: whether the move whose
    cost changes by d replaces the one held (change `best`, `ties` moves that good so far):
    when it is better, or, among equal ones, with the same chance for each (numba's
    np.random, drawn only on a tie). Returns (take, best, ties)."""
    if d < best:
        return True, d, 1
    if d == best:
        ties += 1
        return np.random.randint(ties) == 0, best, ties
    return False, best, ties
