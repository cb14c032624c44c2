"""Stage 1, countries: places, delegation size classes, compatriot weights and bounds.

Spec: "Each delegation is treated as if its players had already played one hanchan
together. Meeting a compatriot then counts like meeting someone twice", and "each
compatriot meeting counts as (largest delegation / your delegation)^2".
"""

from __future__ import annotations

import numpy as np


def size_classes(sizes: np.ndarray) -> np.ndarray:
    """Class of each delegation: 0 large, 1 medium, 2 small, each about a third of players.

    Delegations are sorted by size (largest first, ties in the given order) and a delegation
    falls in the third of the field where its middle player stands.
    """
    sizes = np.asarray(sizes, dtype=np.int64)
    order = np.argsort(-sizes, kind="stable")
    total = sizes.sum()
    classes = np.empty(len(sizes), dtype=np.int64)
    before = 0
    for c in order:
        middle = before + sizes[c] / 2.0
        classes[c] = min(2, int(3 * middle / total))
        before += sizes[c]
    return classes


def compatriot_weights(sizes: np.ndarray) -> np.ndarray:
    """Weight of one compatriot meeting per delegation: (largest / own)^2; 0 for a
    delegation left with no place (every place withdrawn for another country's substitute,
    in re-planning), which has no meetings to weigh."""
    sizes = np.asarray(sizes, dtype=np.float64)
    weights = np.zeros_like(sizes)
    held = sizes > 0
    weights[held] = (sizes.max() / sizes[held]) ** 2
    return weights


def forced_pairs_per_hanchan(size: int, tables: int, table_size: int = 4) -> int:
    """Fewest compatriot pairs one delegation must form in one hanchan.

    A delegation spread as evenly as possible over the tables puts q or q+1 of its
    players at each table (q = size // tables); each table with k of them holds
    k(k-1)/2 compatriot pairs. Spreading evenly is optimal because k(k-1)/2 is convex.
    """
    q, r = divmod(size, tables)
    if q + (1 if r else 0) > table_size:
        raise ValueError("delegation larger than all seats")
    return r * (q + 1) * q // 2 + (tables - r) * q * (q - 1) // 2


def compatriot_floor(sizes: np.ndarray, tables: int, hanchans: int, table_size: int) -> np.ndarray:
    """Proven minimum number of compatriot meetings of each delegation over the event."""
    return np.array(
        [hanchans * forced_pairs_per_hanchan(int(n), tables, table_size) for n in sizes],
        dtype=np.int64,
    )
