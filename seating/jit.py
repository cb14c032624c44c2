"""How the package's compiled helpers are built (numba), in one place.

Compiled functions that allocate nothing are built without numba's runtime (NRT): a call
between compiled functions otherwise reference-counts every array argument (atomic
operations, about 40 ns an array), which made one swap cost 150 us instead of 8 us and
the goals stage 6.0 s instead of 3.2 s on the default event (same plans, byte for byte).
Such functions take their scratch space from the caller (engine.State.work) instead of
allocating it. Tiny helpers of the hottest loops are inlined into their callers.
"""

from numba import njit

kernel = njit(cache=True, _nrt=False)
fast = njit(_nrt=False, inline="always")
