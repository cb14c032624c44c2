"""Reference designs: plans whose meetings are known by construction.

Every plan is an int array plan[round, table, seat] of places 0..P-1 (-1 = empty seat, only
where a list of games is packed into rounds). The constructions, and what each promises:

* Dutch cycles (the tournament-blocks page): P = k*m players in k groups of m, group i
  holding places i*m .. i*m + m - 1. Round r, table j, seat of group i: place
  i*m + (j - (i+1)*r) mod m. Two players meet again after m / gcd(d, m) rounds, d the
  distance of their groups, so the first repeat is in round min over d < k of
  m / gcd(d, m) (0-based; `dutch_first_repeat`). Players of one group never meet.
* Transversal designs over GF(m), m a prime power: k groups of m, round r, table j, seat
  of group i: place i*m + (j + r i) in GF(m). Every pair from two groups meets exactly
  once in m rounds, players of one group never (`transversal_design`): k clubs of m
  players, one of each club at every table. Where m is no prime power but each of its
  prime power factors is at least k, the same over the product of their fields
  (`design_ring`, MacNeish's construction); 3 groups of 10 from two orthogonal Latin
  squares found by search (`latin_pair`). Where a factor is k or less, a difference
  matrix of k + 1 rows over Z_m or Z_2 x Z_(m/2) found by search (`difference_matrix`:
  12 and 15 tables of 3 or 4, 21 and 24 of 3) gives the design with everyone at every
  table once in m rounds.
* Affine geometry AG(n, q), q a prime power: the q^n points are the players, the lines are
  the tables (q seats), a round is a parallel class; (q^n - 1)/(q - 1) rounds in which
  every pair meets exactly once. AG(2, 4): 16 players x 5 rounds at tables of 4;
  AG(2, 5): 25 players x 6 rounds at tables of 5 (the spec's league block);
  AG(n, 3): Kirkman triple systems on 3^n players.
* Planes of AG(n, 2), P = 2^n players at tables of 4: a round is the 2^(n-2) cosets of one
  2-dimensional subspace {0, a, b, a^b} (players are n-bit numbers, ^ is XOR). Two players
  meet when their XOR lies in the subspace, so rounds whose subspaces share no nonzero
  vector never repeat a meeting: a partial line spread of PG(n - 1, 2) (`binary_planes`).
  For n = 5 the largest has 9 lines (31 points, 3 a line, and no spread of PG(4, 2)), so
  32 players x 9 rounds, the social golfers' 8-4-9, come with no repeat meeting.
* Lifted planes of AG(4, 2), 32 players x 10 rounds at tables of 4 (the social golfers'
  8-4-10, the bound: everyone meets 30 of the other 31), no pair twice (`lifted_planes`).
  Ten lines of PG(3, 2) that hold every point exactly twice give ten parallel classes of
  planes of the 16 points in which every pair of points lies in exactly two planes. Point x
  becomes players 2x and 2x + 1; a plane C becomes the tables {2x + s(x)} and
  {2x + 1 - s(x)} (x in C) for a sign s: C -> {0, 1}. Players 2x + a and 2y + b then meet
  at C exactly when s(x) + s(y) = a + b (mod 2), so each of the four pairs over x, y meets
  once when the two planes holding x and y give s(x) + s(y) different values: one linear
  equation over GF(2) per pair of points, 120 in all on 160 signs. The covers are searched
  in a fixed order and the first whose equations are consistent is taken. Players 2x and
  2x + 1 never meet.
* Kirkman triple systems KTS(v), v = 3 (mod 6): (v - 1)/2 rounds at tables of 3, every pair
  exactly once (`kirkman`). Resolvable quadruple systems (v, 4, 1) for v = 3q + 1,
  q = 1 (mod 4) a prime power: (v - 1)/3 rounds at tables of 4, every pair exactly once
  (`resolvable_quadruples`).
* Linked cycles (`linked_cycle`): P = km players in k groups of m (tables of k = 3 or 4),
  round r seating at table x the places x, m + (x + a_r) mod m and 2m + (x + b_r) mod m
  (and 3m + (x + c_r) mod m at tables of 4). Players of one group never meet; two groups
  meet in one difference each round, so distinct differences never repeat a meeting. At
  tables of 3 (c_r = b_r - a_r the difference of groups B and C) a pair that does not meet
  shares an opponent when its difference lies in: group A, D(a) or D(b) (D(x) the
  differences x_r - x_s, r != s); group B, D(a) or D(c); group C, D(b) or D(c); A to B,
  {b_r - c_s}; A to C, {a_r + c_s}; B to C, {b_s - a_r} (_fill counts the same for
  any k). The shifts are searched until every difference is covered: sparse fields then
  link every pair (177 places over 10 hanchans: each meets 20 others and an unmet pair has
  at most 2.3 common opponents on average), where the search from a greedy draft kept
  about 170 pairs unlinked; 200 places over 8 hanchans at tables of 4 (2.9; from a greedy
  draft 249, benchmarks/results/published-grid-h8-h10.md) and 600 over 14 (2.94; 3,668,
  benchmarks/results/scaling-600.md), likewise. The Dutch cycle is
  the case of shifts -r, -2r, ... (not linked in general).
* Lists of 3-player games that are not rounds: Steiner triple systems for v = 1, 3 (mod 6)
  (every pair exactly once; Bose, Skolem), and for other v the fewest games in which every
  pair meets (`covering_triples`); `pack_games` seats a list of games in rounds.

`design_for` gives the championship's draft a design when the size fits.
"""

from __future__ import annotations

import math
import random
import time
from dataclasses import dataclass
from functools import cache
from itertools import combinations, product

import numpy as np
from numba import njit

from .jit import copy_into, pick

# ---------------------------------------------------------------------------------------
# Finite fields GF(q), q = p^n, elements 0..q-1 (base-p digits = polynomial coefficients)
# ---------------------------------------------------------------------------------------


def prime_power(q: int) -> tuple[int, int] | None:
    """(p, n) with q = p^n for a prime p, or None."""
    if q < 2:
        return None
    p = next(d for d in range(2, q + 1) if q % d == 0)
    n = 0
    while q % p == 0:
        q //= p
        n += 1
    return (p, n) if q == 1 else None


@dataclass(frozen=True)
class Field:
    """GF(q) by tables: add[a, b], mul[a, b], neg[a]; 0 and 1 are the elements 0 and 1."""

    q: int
    p: int
    add: np.ndarray
    mul: np.ndarray
    neg: np.ndarray

    def primitive(self) -> int:
        """The smallest element whose powers are all nonzero elements."""
        for a in range(2 if self.q > 2 else 1, self.q):
            seen, x = set(), 1
            for _ in range(self.q - 1):
                x = int(self.mul[x, a])
                seen.add(x)
            if len(seen) == self.q - 1:
                return a
        raise AssertionError("a finite field has a primitive element")

    def power(self, a: int, e: int) -> int:
        x = 1
        for _ in range(e % (self.q - 1)):
            x = int(self.mul[x, a])
        return x


@cache
def finite_field(q: int) -> Field:
    """GF(q) modulo the first monic irreducible polynomial of degree n (in digit order)."""
    pn = prime_power(q)
    if pn is None:
        raise ValueError(f"{q} is not a prime power")
    p, n = pn
    digits = np.array([[(a // p**i) % p for i in range(n)] for a in range(q)], dtype=np.int64)
    weights = p ** np.arange(n)
    add = ((digits[:, None, :] + digits[None, :, :]) % p) @ weights
    neg = ((-digits) % p) @ weights
    if n == 1:
        a = np.arange(q)
        return Field(q, p, add, (a[:, None] * a[None, :]) % q, neg)
    for low in product(range(p), repeat=n):  # x^n + low[n-1] x^(n-1) + ... + low[0]
        mul = np.zeros((q, q), dtype=np.int64)
        for a, b in combinations(range(1, q), 2):
            mul[a, b] = mul[b, a] = _poly_mul(digits[a], digits[b], low, p) @ weights
        for a in range(1, q):
            mul[a, a] = _poly_mul(digits[a], digits[a], low, p) @ weights
        if (mul[1:, 1:] != 0).all():  # no zero divisors: the polynomial is irreducible
            return Field(q, p, add, mul, neg)
    raise AssertionError("there is an irreducible polynomial of every degree")


def prime_power_factors(m: int) -> list[int]:
    """The prime powers whose product is m, smallest first (12 -> [3, 4])."""
    out, d = [], 2
    while m > 1:
        if m % d == 0:
            q = 1
            while m % d == 0:
                m //= d
                q *= d
            out.append(q)
        d += 1
    return sorted(out)


LATIN_PAIR_ORDERS = (10,)  # orders twice an odd number whose pair of orthogonal Latin
# squares latin_pair finds within seconds (order 10 in about 3 s; 14 none in 120 s)
DIFFERENCE_ORDERS = {(12, 3): None, (12, 4): None, (15, 3): None, (21, 3): None,
                     (15, 4): 185, (24, 3): 500}  # (m, k) where no product of fields
# numbers the tables (a factor of m is k or less) and difference_matrix finds k + 1 rows:
# in element order (None; 12 with 5 rows: 51,523 steps, 0.12 s; 21 with 4: 0.7 s), or with
# the shuffle seed given, the first of 0, 1, 2, ... that finds them within SHUFFLED_STEPS
# steps, where element order found none in 2 M steps (15 with 5 rows: seed 185, 29 s to
# find; 24 with 4: seed 500, 67 s; 0.1 s each to repeat). None found within 150 s that
# way: 20 and 24 with 5 rows.
SHUFFLED_STEPS = 20_000


def order_matrix(m: int, k: int) -> np.ndarray:
    """The difference matrix of k + 1 rows behind the transversal design of k groups of m,
    by the search DIFFERENCE_ORDERS names for it."""
    shuffle = DIFFERENCE_ORDERS[(m, k)]
    if shuffle is None:
        return difference_matrix(m, k + 1)
    return difference_matrix(m, k + 1, SHUFFLED_STEPS, shuffle)


def design_order(m: int, k: int) -> bool:
    """Whether transversal_design has k groups of m: every prime power factor of m is at
    least k (MacNeish: the product of the fields GF(q) then has k elements whose
    differences are all invertible, as GF(m) has when m is a prime power), a difference
    matrix of k + 1 rows is found (DIFFERENCE_ORDERS), or k = 3 and latin_pair finds a
    pair of orthogonal Latin squares of order m (LATIN_PAIR_ORDERS)."""
    return m >= 2 and (min(prime_power_factors(m)) >= k or (m, k) in DIFFERENCE_ORDERS
                       or (k == 3 and m in LATIN_PAIR_ORDERS))


def difference_group(m: int) -> tuple[int, ...] | None:
    """The abelian group searched for a difference matrix of order m, as its cyclic factors:
    Z_m for m odd, Z_2 x Z_(m/2) for m a multiple of 4; None for m twice an odd number,
    whose groups have no orthomorphism (Hall and Paige), so no difference matrix of 3 rows."""
    if m % 2:
        return (m,)
    return (2, m // 2) if m % 4 == 0 else None


@cache
def group_tables(m: int) -> tuple[np.ndarray, np.ndarray]:
    """a + b and a - b in difference_group(m), its elements numbered in mixed radix."""
    factors = difference_group(m)
    digits = np.array(np.unravel_index(np.arange(m), factors)).T
    radix = np.array(factors)

    def table(sign: int) -> np.ndarray:
        both = (digits[:, None, :] + sign * digits[None, :, :]) % radix
        return np.ravel_multi_index(tuple(np.moveaxis(both, 2, 0)), factors)

    return table(1), table(-1)


@cache
def difference_matrix(m: int, rows: int, nodes: int = 2_000_000,
                      shuffle: int | None = None) -> np.ndarray | None:
    """rows x m elements of difference_group(m) (numbered in mixed radix) in which the
    differences of any two rows, column by column, hit every element once; None if none
    is found within `nodes` steps. Row 0 is zero and row 1 the elements in order; each
    further row is the first found by a depth-first search over its columns (column 0
    zero), element by element in order (or, with `shuffle`, in an order drawn anew at
    every step from random.Random(shuffle)), with the rows before it fixed, and the
    search goes back to the row before when a row has no completion."""
    if difference_group(m) is None or rows > m:
        return None
    diff = group_tables(m)[1].tolist()
    budget = [nodes]
    draw = None if shuffle is None else random.Random(shuffle)

    def completions(before: list[list[int]]):
        """Every row whose difference with each row before is a bijection."""
        row = [0] * m
        used = [1] * len(before)  # differences used, by row before (column 0: 0)

        def extend(c: int):
            budget[0] -= 1
            if budget[0] < 0:
                return
            if c == m:
                yield list(row)
                return
            column = list(enumerate(b[c] for b in before))
            values = list(range(m))
            if draw is not None:
                draw.shuffle(values)
            for v in values:
                hits = diff[v]
                free = True
                for j, e in column:
                    if used[j] >> hits[e] & 1:
                        free = False
                        break
                if not free:
                    continue
                for j, e in column:
                    used[j] ^= 1 << hits[e]
                row[c] = v
                yield from extend(c + 1)
                for j, e in column:
                    used[j] ^= 1 << hits[e]

        yield from extend(1)

    def grow(matrix: list[list[int]]):
        if len(matrix) == rows:
            return matrix
        for row in completions(matrix):
            done = grow(matrix + [row])
            if done is not None or budget[0] < 0:
                return done
        return None

    found = grow([[0] * m, list(range(m))][:rows])
    if found is None:
        return None
    matrix = np.array(found, dtype=np.int64)
    matrix.setflags(write=False)  # cached: every caller shares it
    return matrix


def _transversals(square: np.ndarray) -> list[tuple[int, ...]]:
    """Every transversal of a Latin square (one cell per row and column, every symbol once),
    as the column of each row."""
    n = len(square)
    out: list[tuple[int, ...]] = []
    path: list[int] = []

    def extend(r: int, cols: int, symbols: int) -> None:
        if r == n:
            out.append(tuple(path))
            return
        for c in range(n):
            s = int(square[r, c])
            if not (cols >> c & 1 or symbols >> s & 1):
                path.append(c)
                extend(r + 1, cols | 1 << c, symbols | 1 << s)
                path.pop()

    extend(0, 0, 0)
    return out


def _mate(square: np.ndarray) -> np.ndarray | None:
    """An orthogonal mate of a Latin square: n disjoint transversals covering every cell
    (an exact cover, the cell with the fewest transversals left first), transversal t
    holding symbol t; None if it has none."""
    n = len(square)
    found = _transversals(square)
    cells = [sum(1 << (r * n + t[r]) for r in range(n)) for t in found]
    through: dict[int, list[int]] = {}
    for i, t in enumerate(found):
        for r in range(n):
            through.setdefault(r * n + t[r], []).append(i)
    chosen: list[int] = []

    def cover(covered: int) -> bool:
        if covered == (1 << n * n) - 1:
            return True
        fewest: list[int] | None = None
        for cell in range(n * n):
            if not covered >> cell & 1:
                left = [i for i in through.get(cell, []) if not cells[i] & covered]
                if fewest is None or len(left) < len(fewest):
                    fewest = left
                    if len(left) <= 1:
                        break
        for i in fewest or []:
            chosen.append(i)
            if cover(covered | cells[i]):
                return True
            chosen.pop()
        return False

    if not found or not cover(0):
        return None
    mate = np.empty((n, n), dtype=np.int64)
    for symbol, i in enumerate(chosen):
        mate[np.arange(n), found[i]] = symbol
    return mate


@cache
def latin_pair(n: int, tries: int = 100) -> tuple[np.ndarray, np.ndarray]:
    """Two orthogonal Latin squares of order n (every pair of symbols in exactly one
    cell), for the orders that no product of fields covers: Latin squares drawn row by
    row (each row a random perfect matching of columns to the symbols they still lack, by
    the Hungarian method on random costs, numpy seeds 0, 1, ...), the first that has an
    orthogonal mate (_mate) kept."""
    from scipy.optimize import linear_sum_assignment

    for seed in range(tries):
        rng = np.random.default_rng(seed)
        square = np.full((n, n), -1, dtype=np.int64)
        for r in range(n):
            cost = rng.random((n, n))
            for c in range(n):
                cost[c, square[:r, c]] = n * n  # symbols the column already holds
            cols, symbols = linear_sum_assignment(cost)
            square[r, cols] = symbols
        mate = _mate(square)
        if mate is not None:
            return square, mate
    raise ValueError(f"no pair of orthogonal Latin squares of order {n} found")


@cache
def design_ring(m: int) -> Field:
    """GF(m) when m is a prime power; else the product of GF(q) over the prime power
    factors q of m (smallest first), an element a standing for its digits a_j in mixed
    radix (a_1 + q_1 (a_2 + q_2 (...))), with add, mul and neg taken digit by digit. Not a
    field (p is 0), but its element "i" of the transversal design, i in every digit
    (ring_element), keeps every difference of two such elements invertible."""
    if prime_power(m) is not None:
        return finite_field(m)
    qs = prime_power_factors(m)
    fields = [finite_field(q) for q in qs]
    radix = np.cumprod([1] + qs[:-1])
    a = np.arange(m)
    digits = [(a // r) % q for r, q in zip(radix, qs)]

    def table(op):
        return sum(op(f, da, db) * r for f, da, db, r in
                   zip(fields, (d[:, None] for d in digits), (d[None, :] for d in digits),
                       radix))

    add = table(lambda f, x, y: f.add[x, y])
    mul = table(lambda f, x, y: f.mul[x, y])
    neg = sum(f.neg[d] * r for f, d, r in zip(fields, digits, radix))
    return Field(m, 0, add, mul, neg)


def ring_element(m: int, i: int) -> int:
    """The element of design_ring(m) with every digit i (i itself in a field)."""
    if prime_power(m) is not None:
        return i
    qs = prime_power_factors(m)
    return int(sum(i * r for r in np.cumprod([1] + qs[:-1])))


def _poly_mul(a: np.ndarray, b: np.ndarray, low: tuple[int, ...], p: int) -> np.ndarray:
    """a * b modulo the monic polynomial x^n + low (coefficients lowest first, mod p)."""
    n = len(a)
    prod = np.convolve(a, b) % p
    for d in range(len(prod) - 1, n - 1, -1):  # x^d = x^(d-n) * (-low)
        c = prod[d]
        if c:
            prod[d] = 0
            for i, lo in enumerate(low):
                prod[d - n + i] = (prod[d - n + i] - c * lo) % p
    return prod[:n]


# ---------------------------------------------------------------------------------------
# Dutch cycles
# ---------------------------------------------------------------------------------------


def dutch_cycle(players: int, rounds: int | None = None, table_size: int = 4,
                winds=None) -> np.ndarray:
    """The spec's Dutch cycle: round r, table j, group i sits place i*m + (j - (i+1) r) mod m.

    The spec's formula (0-based hanchan h, table t, players 0..n-1, shown 1-based as
    01..n): table t of hanchan h is [t, ((t + h) % m) + m, ((t + 2h) % m) + 2m, ...],
    m = n/k tables. This is that formula with h = -r and tables renumbered j = t + r, so
    that group i moves i+1 tables per round (the spec's [x+1, x+2, x+3, x+4] against marked
    tiles), exactly as its 28-player table. Seats: group i sits at wind winds[r] XOR i at
    tables of 4, (winds[r] + i) mod k otherwise; `winds` (one valid wind sequence) defaults
    to r mod k, the spec's E S W N, S E N W, W N E S, N W S E (which breaks E+S = W+N
    when the number of hanchans is 2 mod 4). `rounds` defaults to m; round r + m repeats
    round r.
    """
    if table_size < 2 or players % table_size or players < table_size:
        raise ValueError(f"{players} players do not fill tables of {table_size}")
    m = players // table_size
    rounds = m if rounds is None else rounds
    # the linked cycle with shifts -ir (group i against group 0), its tables renumbered
    # j = x + r so that group 0 moves one table a round
    r = np.arange(rounds)
    shift = np.array([(-i * r) % m for i in range(1, table_size)], dtype=np.int64)
    plan = linked_cycle(shift.reshape(table_size - 1, rounds), m, winds=winds)
    for h in range(rounds):
        plan[h] = np.roll(plan[h], h, axis=0)
    return plan


# ---------------------------------------------------------------------------------------
# Linked cycles: shifts searched so that every pair meets or shares an opponent
# ---------------------------------------------------------------------------------------

LINK_ITERATIONS = 8_000  # tabu iterations of one try at the shifts (about 1 ms each at
# tables of 3, m = 59; 15 ms at tables of 4, m = 150, beside a benchmark)
LINK_TRIES = 6  # tries, seeds seed .. seed + 5: 177 places over 10 hanchans (m = 59) found
# shifts in 3 of 6 tries, 174 (m = 58) in 6 of 6 (at 2,000 iterations 5 of 20 and 9 of 20;
# an annealing of single changes, 300,000 steps a try, 2 of 40 and 1 of 80); 600 places at
# tables of 4 over 14 hanchans (m = 150) in 2 of 4 tries (2,635 and 2,276 iterations, 33-40
# s), where an annealing on the count from scratch had found none in 6 tries of 1 M steps
LINK_TENURE = 10  # iterations a value just left stays tabu for its shift: 10 to 19
LINK_STALL = 2_500  # a try ends after this many iterations without a new best: at 177
# places the tries that found shifts went at most 1,959 iterations between two, the three
# that did not found their last at 114-1,297 and ran on to 8,000; at 600 places (tables of
# 4) at most 1,708 in those that found them


@njit(cache=True, inline="always")
def _count(cover, row, d, sign, weight):
    """Count difference d once more (sign 1) or less in a cover row; returns the change of
    the cost (weight while nothing covers d)."""
    was = cover[row, d]
    cover[row, d] += sign
    if was == 0:
        return -weight
    return weight if cover[row, d] == 0 else 0


@njit(cache=True)
def _fill(s, m, pair, used, inner, cross):
    """Count every difference of the shifts s (s[i, r]: group i's shift in round r, s[0] = 0)
    from scratch; returns the cost. Groups i < j (row pair[i, j]) meet in round r at e_ij(r)
    = s[j, r] - s[i, r] (used: a repeated difference weighs 100, m repeat meetings). A pair
    of group i at difference d shares an opponent of group l when d = e_il(r) - e_il(t),
    r != t (inner[i]: an uncovered d weighs 1, m/2 pairs unlinked); a pair of groups i and j
    meets or shares one of group l when d is some e_ij(r) or e_il(r) - e_jl(t) (cross: an
    uncovered d weighs 2, m pairs)."""
    k, R = s.shape
    for i in range(k):
        for j in range(i + 1, k):
            p = pair[i, j]
            for r in range(R):
                e = (s[j, r] - s[i, r]) % m
                used[p, e] += 1
                cross[p, e] += 1
                for t in range(R):
                    d = (e - (s[j, t] - s[i, t])) % m
                    if t != r and d != 0:
                        inner[i, d] += 1
                        inner[j, d] += 1
            for lt in range(k):
                if lt != i and lt != j:
                    for r in range(R):
                        for t in range(R):
                            cross[p, ((s[lt, r] - s[i, r]) - (s[lt, t] - s[j, t])) % m] += 1
    cost = 0
    for p in range(used.shape[0]):
        for d in range(m):
            cost += 100 * max(used[p, d] - 1, 0) + 2 * (cross[p, d] == 0)
    for i in range(k):
        for d in range(1, m):
            cost += inner[i, d] == 0
    return cost


@njit(cache=True)
def _terms(s, m, g, r, sign, pair, used, inner, cross):
    """Add (sign 1) or take away (-1) every counted difference in which s[g, r] takes part
    (the same counts as _fill, less the ones it leaves unchanged); returns the change of
    the cost."""
    k, R = s.shape
    delta = 0
    for lt in range(k):
        if lt == g:
            continue
        p = pair[g, lt]
        e = (s[lt, r] - s[g, r]) % m if g < lt else (s[g, r] - s[lt, r]) % m
        before = used[p, e]
        used[p, e] += sign
        delta += 100 * (max(used[p, e] - 1, 0) - max(before - 1, 0))
        delta += _count(cross, p, e, sign, 2)
        for t in range(R):
            d = (e - (s[lt, t] - s[g, t] if g < lt else s[g, t] - s[lt, t])) % m
            if t != r and d != 0:  # d and -d: (r, t) and (t, r)
                for dd in (d, m - d):
                    delta += _count(inner, g, dd, sign, 1) + _count(inner, lt, dd, sign, 1)
    for i in range(k):
        for j in range(i + 1, k):
            p = pair[i, j]
            for lt in range(k):
                if lt == i or lt == j or g not in (i, j, lt):
                    continue
                for t in range(R):
                    if g == lt and t == r:  # e_il(r) - e_jl(r) = e_ij(r): no s[l] in it
                        continue
                    if g != j:  # e_il(r) - e_jl(t): s[g, r] in the first term
                        d = ((s[lt, r] - s[i, r]) - (s[lt, t] - s[j, t])) % m
                        delta += _count(cross, p, d, sign, 2)
                    if g != i:  # e_il(t) - e_jl(r)
                        d = ((s[lt, t] - s[i, t]) - (s[lt, r] - s[j, r])) % m
                        delta += _count(cross, p, d, sign, 2)
    return delta


def _pairs(k: int) -> np.ndarray:
    """pair[i, j]: the row of groups i != j in the pairs' counts."""
    pair = np.zeros((k, k), dtype=np.int64)
    i, j = np.triu_indices(k, 1)
    pair[i, j] = pair[j, i] = np.arange(len(i))
    return pair


@njit(cache=True)
def _link_tabu(k, m, rounds, iterations, seed, tenure, stall, pair):
    """One try for k groups: shifts of groups 1..k-1 from random values, then tabu search:
    each iteration makes the best change of one shift to another value (cost of _fill,
    kept up to date by _terms; ties drawn at random), a value just left tabu for that shift
    unless the change beats the best; at most `iterations`, and `stall` after the last new
    best. Returns the cost left (0: every pair linked, no repeat) and the best shifts of
    groups 1..k-1."""
    np.random.seed(seed)
    s = np.zeros((k, rounds), dtype=np.int64)
    for g in range(1, k):
        s[g] = np.random.permutation(m)[:rounds]
    npairs = k * (k - 1) // 2
    used = np.zeros((npairs, m), dtype=np.int64)
    inner = np.zeros((k, m), dtype=np.int64)
    cross = np.zeros((npairs, m), dtype=np.int64)
    cost = _fill(s, m, pair, used, inner, cross)
    best, best_s = cost, s.copy()
    until = np.zeros((k, rounds, m), dtype=np.int64)
    last = 0  # the iteration of the last new best
    for it in range(iterations):
        if best == 0 or it - last > stall:
            break
        pick_d, pick_g, pick_r, pick_v, ties = 1 << 30, -1, -1, -1, 0
        for g in range(1, k):
            for r in range(rounds):
                old = s[g, r]
                out = _terms(s, m, g, r, -1, pair, used, inner, cross)
                for v in range(m):
                    if v == old:
                        continue
                    s[g, r] = v
                    d = out + _terms(s, m, g, r, 1, pair, used, inner, cross)
                    _terms(s, m, g, r, -1, pair, used, inner, cross)
                    if until[g, r, v] > it and cost + d >= best:
                        continue
                    take, pick_d, ties = pick(d, pick_d, ties)
                    if take:
                        pick_g, pick_r, pick_v = g, r, v
                s[g, r] = old
                _terms(s, m, g, r, 1, pair, used, inner, cross)
        if pick_g < 0:
            continue
        until[pick_g, pick_r, s[pick_g, pick_r]] = it + tenure + np.random.randint(tenure)
        _terms(s, m, pick_g, pick_r, -1, pair, used, inner, cross)
        s[pick_g, pick_r] = pick_v
        _terms(s, m, pick_g, pick_r, 1, pair, used, inner, cross)
        cost += pick_d
        if cost < best:
            best, last = cost, it
            copy_into(best_s, s)
    return best, best_s[1:].copy()


def linked_shifts(m: int, rounds: int, seed: int, table_size: int = 3,
                  tries: int = LINK_TRIES, log=lambda line: None) -> np.ndarray | None:
    """Shifts of a linked cycle of table_size * m players over `rounds` rounds (see the
    module doc; shift[i - 1, r]: group i's shift in round r), or None when no try finds
    them (_link_tabu; log: a line per try). Deterministic: try i searches from seed + i."""
    if m < 2 or rounds < 1 or rounds > m or table_size < 3:
        return None
    pair = _pairs(table_size)
    for i in range(tries):
        began = time.monotonic()
        left, shift = _link_tabu(table_size, m, rounds, LINK_ITERATIONS, seed + i,
                                 LINK_TENURE, LINK_STALL, pair)
        took = time.monotonic() - began
        log(f"  linked cycle shifts, try {i + 1} of {tries} ({took:.0f} s): "
            + ("every pair linked" if left == 0 else f"not linked (cost {left} left)"))
        if left == 0:
            return shift
    return None


def linked_cycle(shift: np.ndarray, m: int, winds=None) -> np.ndarray:
    """plan[round, table, seat] of the linked cycle with shifts `shift` (linked_shifts) of
    k = len(shift) + 1 groups: table x of round r seats x, m + (x + shift[0, r]) mod m,
    2m + (x + shift[1, r]) mod m, ... Seats: group i sits at wind (winds[r] + i) mod 3 at
    tables of 3, winds[r] XOR i at tables of 4 (as in dutch_cycle), winds one valid
    sequence (default r mod k), so every group's players share one valid wind pattern."""
    k = shift.shape[0] + 1
    rounds = shift.shape[1]
    base = np.arange(rounds) % k if winds is None else np.asarray(winds)
    x = np.arange(m)
    plan = np.empty((rounds, m, k), dtype=np.int64)
    for r in range(rounds):
        for i in range(k):
            offset = 0 if i == 0 else shift[i - 1, r]
            seat = base[r] ^ i if k == 4 else (base[r] + i) % k
            plan[r, :, seat] = i * m + (x + offset) % m
    return plan


def dutch_first_repeat(players: int, table_size: int = 4) -> int:
    """First round (0-based, the spec's h) in which a Dutch cycle seats a pair again.

    Players of groups i < i' (distance d = i' - i) meet in the rounds r with
    d * r = const (mod m), so again after m / gcd(d, m) rounds; the first repeat is the
    smallest of these over d = 1 .. k-1. Rounds 0 .. h-1 are repeat-free, so h is also the
    number of repeat-free hanchans, and hanchan h + 1 (1-based) is the first with a repeat.
    120 players at 30 tables: d = 3 gives 30/3 = 10, the 11th hanchan, one repeated pair at
    every table (the spec says 11th, blaming 30 being divisible by 10; the cause is 3 * 10 =
    30; d = 2 adds repeats from round 15).
    """
    m = players // table_size
    return min(m // math.gcd(d, m) for d in range(1, table_size))


def transversal_design(m: int, table_size: int = 4, rounds: int | None = None,
                       winds=None, order=None) -> np.ndarray:
    """k = table_size groups of m players over GF(m), m a prime power >= k, or over the
    product of the fields of m's prime power factors when each is at least k (design_ring,
    design_order: groups of 20 at tables of 4): round h plays
    the field element r = order[h mod m] (default: 0, then the powers of the primitive
    element), and its table j seats, of group i, place i*m + (j + r i), with j and i taken
    as elements of GF(m) (seating.designs.finite_field). Players of groups i != i' at a
    and a' meet in the one round with a - a' = r (i - i'): every pair from two groups
    exactly once in m rounds (a resolvable transversal design RTD(k, m)), and players of
    one group never. It is the Dutch cycle's formula over a field instead of Z_m, so
    repeat-free for all m rounds even where m is not prime (the Dutch cycle of 4 groups of
    9 repeats in round 3). Which elements the first h < m rounds take decides which pairs
    share an opponent: the elements 0..9 of GF(25) in digit order leave 250 pairs of
    4 x 25 players unlinked after 10 rounds, 0 and the powers none (club_plan picks the
    order). Seats as dutch_cycle: group i at wind winds[h] XOR i at tables of 4,
    (winds[h] + i) mod k otherwise, winds defaulting to h mod k. Tables are numbered so
    that everyone sits at every table once in m rounds when m > k: table t of round r
    holds the table j = t - r c, c the element k, so player (i, a) sits at table
    a - r (i - c), a different one every round as i != c (not when a factor of m is k).
    Where a difference matrix of k + 1 rows is found instead (DIFFERENCE_ORDERS: 12
    or 15 tables of 3 or 4, 21 or 24 of 3), it gives the design and its table numbers
    (round r seats at table j, of group i, place i*m + (j + D[i + 1, r]): two groups'
    places a and a' meet in the round where D[i + 1, r] - D[i' + 1, r] = a - a', and place
    a sits at table a - D[i + 1, r], a different one every round); 10 tables of 3 come from
    two orthogonal Latin squares (latin_pair = (L, M): round t the cells where M holds t,
    cell (r, c) seating place r of group 0, c of group 1 and L[r, c] of group 2, table j
    its cell in row j, so the tables stage numbers them).
    """
    k = table_size
    if not design_order(m, k):
        raise ValueError(f"no transversal design of {k} groups of {m}: every prime power "
                         f"factor of {m} must be at least {k}")
    how = construction(m, k)
    if how == "difference":
        matrix = order_matrix(m, k)
        add = group_tables(m)[0]
        tables = np.arange(m)
        return _seat_rounds(m, k, rounds, winds, order,
                            lambda r: [add[tables, matrix[i + 1, r]] for i in range(k)])
    if how == "latin":
        square, mate = latin_pair(m)
        rows = np.arange(m)

        def cells(t):
            cols = np.argmax(mate == t, axis=1)  # the cell of round t in each row
            return [rows, cols, square[rows, cols]]

        return _seat_rounds(m, k, rounds, winds, order, cells)
    f = design_ring(m)
    if order is None and f.p:
        g = f.primitive()
        order = [0] + [f.power(g, e) for e in range(m - 1)]
    tables = np.arange(m)
    # the element k (every digit k) when every factor exceeds k; with a factor of exactly k
    # no element differs from every group's in every digit, and the tables stage numbers
    # the tables
    c = ring_element(m, k) if min(prime_power_factors(m)) > k else 0
    step = [f.add[ring_element(m, i), f.neg[c]] for i in range(k)]  # i - c
    return _seat_rounds(m, k, rounds, winds, order,
                        lambda r: [f.add[tables, f.mul[r, step[i]]] for i in range(k)])


def construction(m: int, k: int) -> str:
    """Which transversal_design builds k groups of m (design_order): "difference" (a
    difference matrix, DIFFERENCE_ORDERS, first where it is listed), "ring" (GF(m) or the
    product of the fields of m's factors, every factor at least k) or "latin" (two
    orthogonal Latin squares, LATIN_PAIR_ORDERS)."""
    if (m, k) in DIFFERENCE_ORDERS:
        return "difference"
    return "ring" if min(prime_power_factors(m)) >= k else "latin"


def _seat_rounds(m: int, k: int, rounds: int | None, winds, order, groups_at) -> np.ndarray:
    """plan[h, table, seat] of a transversal design: hanchan h plays the round element
    order[h mod m] (default: element order), rounds defaulting to m, and groups_at(r) gives
    the place of each group i (0..m-1, its i*m added here) at tables 0..m-1 of round r.
    Group i sits at wind winds[h] XOR i at tables of 4, (winds[h] + i) mod k otherwise,
    winds defaulting to h mod k."""
    order = list(range(m)) if order is None else order
    rounds = m if rounds is None else rounds
    base = np.arange(rounds) % k if winds is None else np.asarray(winds)
    plan = np.empty((rounds, m, k), dtype=np.int64)
    for h in range(rounds):
        for i, places in enumerate(groups_at(order[h % m])):
            seat = base[h] ^ i if k == 4 else (base[h] + i) % k
            plan[h, :, seat] = i * m + places
    return plan


# ---------------------------------------------------------------------------------------
# Affine geometry AG(n, q)
# ---------------------------------------------------------------------------------------


def affine_geometry(q: int, dims: int = 2) -> np.ndarray:
    """Lines of AG(dims, q) in parallel classes: q^dims players, (q^dims-1)/(q-1) rounds.

    Player x_0 q^(dims-1) + ... + x_(dims-1) is the point (x_0, ..., x_(dims-1)) over GF(q).
    A round is a direction d (first nonzero coordinate 1, in numeric order); its tables are
    the lines {x + l d : l in GF(q)}, each started at its smallest point, seats in the order
    of l. Two points lie on exactly one line, so every pair meets exactly once. For q = 5
    this is, 1-based, the spec's 25-player league block round for round.
    """
    f = finite_field(q)
    n = q**dims
    coords = np.array([[(x // q ** (dims - 1 - i)) % q for i in range(dims)] for x in range(n)])
    weights = q ** np.arange(dims - 1, -1, -1)
    rounds = []
    for d in coords[1:]:
        if d[np.nonzero(d)[0][0]] != 1:
            continue
        seated = np.zeros(n, dtype=bool)
        tables = []
        for x in range(n):
            if seated[x]:
                continue
            line = [int(f.add[coords[x], f.mul[lam, d]] @ weights) for lam in range(q)]
            seated[line] = True
            tables.append(line)
        rounds.append(tables)
    return np.array(rounds, dtype=np.int64)


def _lines(n: int) -> list[tuple[int, int, int]]:
    """The lines {a, b, a^b} of PG(n - 1, 2), points 1..2^n - 1 as n-bit numbers, in order."""
    points = range(1, 2**n)
    return sorted({tuple(sorted((a, b, a ^ b))) for a in points for b in points if a < b})


def _cosets(a: int, b: int, n: int) -> list[list[int]]:
    """The planes {x, x^a, x^b, x^a^b} of AG(n, 2) parallel to the subspace {0, a, b, a^b},
    each started at its smallest point, in order."""
    seated = np.zeros(2**n, dtype=bool)
    planes = []
    for x in range(2**n):
        if not seated[x]:
            plane = [x, x ^ a, x ^ b, x ^ a ^ b]
            seated[plane] = True
            planes.append(plane)
    return planes


def _disjoint_lines(n: int, nodes: int = 200_000) -> list[tuple[int, int, int]]:
    """A largest partial line spread of PG(n - 1, 2) that a depth-first search finds within
    `nodes` steps: lines {a, b, a^b} of nonzero n-bit vectors, pairwise disjoint. Lines are
    tried in numeric order, so the result is the same on every run."""
    points = range(1, 2**n)
    lines = _lines(n)
    target = (2**n - 1) // 3 - (1 if n % 2 else 0)  # the largest possible for n >= 4
    best: list[tuple[int, int, int]] = []
    chosen: list[tuple[int, int, int]] = []
    used = [False] * 2**n
    left = [nodes]

    def extend(start: int) -> bool:
        nonlocal best
        if len(chosen) > len(best):
            best = list(chosen)
            if len(best) >= target:
                return True
        left[0] -= 1
        if left[0] < 0:
            return True
        first = next((p for p in points if not used[p]), None)
        if first is None:
            return False
        for i in range(start, len(lines)):
            line = lines[i]
            if any(used[p] for p in line):
                continue
            for p in line:
                used[p] = True
            chosen.append(line)
            stop = extend(i + 1)
            chosen.pop()
            for p in line:
                used[p] = False
            if stop:
                return True
        return False

    extend(0)
    return best


def binary_planes(n: int) -> np.ndarray:
    """Rounds of 2^n players at tables of 4 from pairwise disjoint lines of PG(n - 1, 2):
    line {a, b, a^b} gives the round of cosets {x, x^a, x^b, x^a^b}, each started at its
    smallest player. No pair meets twice (see the module text)."""
    return np.array([_cosets(a, b, n) for a, b, _ in _disjoint_lines(n)], dtype=np.int64)


# ---------------------------------------------------------------------------------------
# Kirkman triple systems and resolvable quadruple systems
# ---------------------------------------------------------------------------------------


def kirkman(players: int) -> np.ndarray:
    """A Kirkman triple system KTS(v), v = 3 (mod 6): (v-1)/2 rounds of v/3 tables of 3.

    Constructions, the first that applies: v = 3; v = 3^n, lines of AG(n, 3); v = 2q + 1
    and v = 3q for a prime power q = 1 (mod 6) (Ray-Chaudhuri & Wilson 1971, constructions
    1.1 and 1.2 of Stinson's survey, 1991); v = u*w from KTS(u) and KTS(w) (product below).
    Raises ValueError when none applies (`kirkman_orders` lists the reachable v).
    """
    plan = _kirkman(players)
    if plan is None:
        raise ValueError(f"no Kirkman construction here for {players} players")
    return plan.copy()


def kirkman_orders(limit: int) -> list[int]:
    """The v <= limit for which `kirkman` has a construction."""
    return [v for v in range(3, limit + 1, 6) if _kirkman(v) is not None]


@cache
def _kirkman(v: int) -> np.ndarray | None:
    if v % 6 != 3:
        return None
    if v == 3:
        return np.array([[[0, 1, 2]]], dtype=np.int64)
    pn = prime_power(v)
    if pn is not None and pn[0] == 3:
        return affine_geometry(3, pn[1])
    q = (v - 1) // 2
    if q % 6 == 1 and prime_power(q):
        return _kirkman_2q1(q)
    q = v // 3
    if q % 6 == 1 and prime_power(q):
        return _kirkman_3q(q)
    for u in range(3, int(v**0.5) + 1, 6):
        if v % u == 0 and (v // u) % 6 == 3:
            a, b = _kirkman(u), _kirkman(v // u)
            if a is not None and b is not None:
                return _kirkman_product(a, b)
    return None


def _kirkman_2q1(q: int) -> np.ndarray:
    """KTS(2q + 1), q = 6t + 1 a prime power, points GF(q) x {1, 2} and infinity.

    With a primitive and a^m = (a^t + 1)/2, the base round is {inf, (0,1), (0,2)},
    {(a^i, 1), (a^(t+i), 1), (a^(m+i), 2)} for i in [0, t) + [2t, 3t) + [4t, 5t), and
    {(a^(m+t+i), 2), (a^(m+3t+i), 2), (a^(m+5t+i), 2)} for i in [0, t); the q rounds are its
    translates by GF(q). Place of (g, j) is (j - 1) q + g, infinity is 2q.
    """
    f = finite_field(q)
    a = f.primitive()
    t = (q - 1) // 6
    half = next(x for x in range(q) if f.add[x, x] == f.add[f.power(a, t), 1])
    m = next(e for e in range(q - 1) if f.power(a, e) == half)
    pw = [f.power(a, e) for e in range(q - 1)]

    def at(e):
        return pw[e % (q - 1)]

    base = [[(0, 1), (0, 2), None]]
    for i in [*range(t), *range(2 * t, 3 * t), *range(4 * t, 5 * t)]:
        base.append([(at(i), 1), (at(t + i), 1), (at(m + i), 2)])
    for i in range(t):
        base.append([(at(m + t + i), 2), (at(m + 3 * t + i), 2), (at(m + 5 * t + i), 2)])
    rounds = [[[2 * q if pt is None else (pt[1] - 1) * q + int(f.add[pt[0], g]) for pt in tr]
               for tr in base] for g in range(q)]
    return np.array(rounds, dtype=np.int64)


def _kirkman_3q(q: int) -> np.ndarray:
    """KTS(3q), q = 6t + 1 a prime power, points GF(q) x {0, 1, 2}.

    With a primitive: A0 = {(0,0), (0,1), (0,2)}, B_ij = {(a^i, j), (a^(i+2t), j),
    (a^(i+4t), j)} for i < t, A_i = {(a^i, 0), (a^(i+2t), 1), (a^(i+4t), 2)}. The base round
    A0 + all B + A_i for i in [t, 2t) + [3t, 4t) + [5t, 6t) gives q rounds by translation;
    each remaining A_i gives one round, its q translates. Place of (g, j) is j q + g.
    """
    f = finite_field(q)
    a = f.primitive()
    t = (q - 1) // 6
    pw = [f.power(a, e) for e in range(q - 1)]

    def at(e):
        return pw[e % (q - 1)]

    big_a = [[(at(i), 0), (at(i + 2 * t), 1), (at(i + 4 * t), 2)] for i in range(6 * t)]
    base = [[(0, 0), (0, 1), (0, 2)]]
    base += [[(at(i), j), (at(i + 2 * t), j), (at(i + 4 * t), j)]
             for j in range(3) for i in range(t)]
    base += big_a[t:2 * t] + big_a[3 * t:4 * t] + big_a[5 * t:6 * t]

    def place(pt, g):
        return pt[1] * q + int(f.add[pt[0], g])

    rounds = [[[place(pt, g) for pt in tr] for tr in base] for g in range(q)]
    for i in [*range(t), *range(2 * t, 3 * t), *range(4 * t, 5 * t)]:
        rounds.append([[place(pt, g) for pt in big_a[i]] for g in range(q)])
    return np.array(rounds, dtype=np.int64)


def _kirkman_product(outer: np.ndarray, inner: np.ndarray) -> np.ndarray:
    """KTS(u w) from KTS(u) (outer) and KTS(w) (inner); place of (x, a) is x w + a.

    Rounds of the inner system copied in every x: {(x, a), (x, b), (x, c)} ((w-1)/2 rounds).
    For every round of the outer system and every k in Z_w: for each of its triples
    (x, y, z) and each b in Z_w, the table {(x, k - 2b), (y, b), (z, k - b)} (a transversal
    design from the orthogonal Latin squares a + b and a + 2b, w odd): w (u-1)/2 rounds.
    Every pair meets exactly once: (uw - 1)/2 rounds.
    """
    u = outer.shape[1] * 3
    w = inner.shape[1] * 3
    rounds = [[[x * w + a for a in tr] for x in range(u) for tr in rnd] for rnd in inner]
    for rnd in outer:
        for k in range(w):
            rounds.append([[x * w + (k - 2 * b) % w, y * w + b, z * w + (k - b) % w]
                           for x, y, z in rnd for b in range(w)])
    return np.array(rounds, dtype=np.int64)


def resolvable_quadruples(players: int) -> np.ndarray:
    """A resolvable (v, 4, 1) design for v = 3q + 1, q = 1 (mod 4) a prime power.

    Points GF(q) x Z_3 and infinity (Beth, Jungnickel & Lenz, Design Theory, VII.7.5):
    with w primitive and e = w^((q-1)/4) (so e^2 = -1), the base round is
    {(0,0), (0,1), (0,2), inf} and {(w^i, j), (-w^i, j), (e w^i, j+1), (-e w^i, j+1)} for
    i < (q-1)/4, j in Z_3; its q translates are the rounds: (v-1)/3 rounds of v/4 tables,
    every pair exactly once (16, 28, 40, 52, 76, 88, 112, 124, 148, 160, ... players).
    """
    q = (players - 1) // 3
    if players != 3 * q + 1 or q % 4 != 1 or not prime_power(q):
        raise ValueError(f"{players} is not 3q + 1 with q = 1 (mod 4) a prime power")
    f = finite_field(q)
    w = f.primitive()
    e = f.power(w, (q - 1) // 4)
    base = [[(0, 0), (0, 1), (0, 2), None]]
    for i in range((q - 1) // 4):
        x = f.power(w, i)
        ex = int(f.mul[e, x])
        for j in range(3):
            k = (j + 1) % 3
            base.append([(x, j), (int(f.neg[x]), j), (ex, k), (int(f.neg[ex]), k)])
    rounds = [[[players - 1 if pt is None else pt[1] * q + int(f.add[pt[0], g]) for pt in bl]
               for bl in base] for g in range(q)]
    return np.array(rounds, dtype=np.int64)


# ---------------------------------------------------------------------------------------
# Lists of 3-player games
# ---------------------------------------------------------------------------------------


def steiner_triples(players: int) -> list[tuple[int, int, int]]:
    """A Steiner triple system STS(v), v = 1 or 3 (mod 6): every pair in exactly one game.

    Bose (v = 6t + 3): points Z_(2t+1) x Z_3, x o y = (x + y)(t + 1) mod 2t+1 (idempotent,
    commutative); games {(x,0), (x,1), (x,2)} and {(x,i), (y,i), (x o y, i+1)}, x < y.
    Skolem (v = 6t + 1): points Z_2t x Z_3 and infinity, x o y = s/2 for s = x + y mod 2t
    even, (s - 1)/2 + t for s odd (half-idempotent); games {(x,0), (x,1), (x,2)} for x < t,
    {inf, (x + t, i), (x, i + 1)} for x < t, and {(x,i), (y,i), (x o y, i+1)}, x < y.
    Place of (x, i) is i * (size of Z) + x, infinity the last. Games sorted, each sorted.
    """
    v = players
    if v % 6 not in (1, 3):
        raise ValueError(f"no Steiner triple system on {v} players (v must be 1 or 3 mod 6)")
    if v == 1:
        return []
    games = []
    if v % 6 == 3:
        n = v // 3
        t = (n - 1) // 2
        op = [[(x + y) * (t + 1) % n for y in range(n)] for x in range(n)]
        games += [(x, n + x, 2 * n + x) for x in range(n)]
    else:
        n = (v - 1) // 3
        t = n // 2

        def half(s):
            return s // 2 if s % 2 == 0 else (s - 1) // 2 + t

        op = [[half((x + y) % n) for y in range(n)] for x in range(n)]
        games += [(x, n + x, 2 * n + x) for x in range(t)]
        games += [(v - 1, i * n + x + t, (i + 1) % 3 * n + x) for x in range(t) for i in range(3)]
    for i in range(3):
        for x, y in combinations(range(n), 2):
            games.append((i * n + x, i * n + y, (i + 1) % 3 * n + op[x][y]))
    return sorted(tuple(sorted(g)) for g in games)


def covering_size(players: int) -> int:
    """Fewest 3-player games in which every pair of v players meets: ceil(v/3 ceil((v-1)/2)).

    Schönheim's bound, reached for every v (Fort & Hedlund, 1958). Repeat meetings are then
    3 * games - v(v-1)/2, the fewest a list where everybody meets everybody can have.
    """
    v = players
    return -(-v * (-(-(v - 1) // 2)) // 3)


def covering_triples(players: int, seed: int = 0, steps: int = 1_000_000
                     ) -> list[tuple[int, int, int]]:
    """A list of covering_size(v) 3-player games in which every pair meets at least once.

    For v = 1, 3 (mod 6) the Steiner triple system (no repeats). Otherwise a seeded local
    search in the style of Nurmela & Östergård: players are dealt round-robin into the
    games, then, for a random unmet pair (a, b), the best move that swaps b for one of the
    other players of a game of a (or a for one in a game of b) is made: always when it
    meets at least as many pairs as it unmeets, otherwise with probability exp(-loss/0.25).
    A covering of this size gives each player ceil((v-1)/2) games or at most two more
    (`games_per_player`). Deterministic for a given seed.
    """
    v = players
    if v < 3:
        raise ValueError("3-player games need at least 3 players")
    if v % 6 in (1, 3):
        return steiner_triples(v)
    rng = random.Random(seed)
    size = covering_size(v)
    deck: list[int] = []
    games: list[list[int]] = []
    for _ in range(size):  # deal: every player in about the same number of games
        game: list[int] = []
        while len(game) < 3:
            if not deck:
                deck = rng.sample(range(v), v)
            x = deck.pop()
            if x in game:
                deck.insert(0, x)
            else:
                game.append(x)
        games.append(game)
    meet = [[0] * v for _ in range(v)]
    holds: list[set[int]] = [set() for _ in range(v)]  # games of each player
    for i, game in enumerate(games):
        for a, b in combinations(game, 2):
            meet[a][b] += 1
            meet[b][a] += 1
        for x in game:
            holds[x].add(i)
    unmet: list[tuple[int, int]] = []
    where: dict[tuple[int, int], int] = {}

    def note_unmet(pair):
        if pair not in where:
            where[pair] = len(unmet)
            unmet.append(pair)

    def note_met(pair):
        i = where.pop(pair)
        last = unmet.pop()
        if i < len(unmet):
            unmet[i] = last
            where[last] = i

    for a, b in combinations(range(v), 2):
        if meet[a][b] == 0:
            note_unmet((a, b))
    for _ in range(steps):
        if not unmet:
            return sorted(tuple(sorted(g)) for g in games)
        a, b = unmet[rng.randrange(len(unmet))]
        moves = []
        for keep, new in ((a, b), (b, a)):
            for i in holds[keep]:
                for out in games[i]:
                    if out == keep:
                        continue
                    rest = [z for z in games[i] if z != out]
                    loss = sum(meet[out][z] == 1 for z in rest) - sum(meet[new][z] == 0
                                                                      for z in rest)
                    moves.append((loss, rng.random(), i, out, new))
        loss, _, i, out, new = min(moves)
        if loss > 0 and rng.random() >= math.exp(-loss / 0.25):
            continue
        rest = [z for z in games[i] if z != out]
        for z in rest:
            meet[out][z] -= 1
            meet[z][out] -= 1
            if meet[out][z] == 0:
                note_unmet((min(out, z), max(out, z)))
            if meet[new][z] == 0:
                note_met((min(new, z), max(new, z)))
            meet[new][z] += 1
            meet[z][new] += 1
        holds[out].discard(i)
        holds[new].add(i)
        games[i] = rest + [new]
    raise RuntimeError(f"no list of {size} games covering all pairs of {v} players found")


def triple_games(players: int, seed: int = 0) -> list[tuple[int, int, int]]:
    """The 3-player game list for v players: Steiner triples if v = 1, 3 (mod 6), else the
    fewest games covering every pair (`covering_triples`)."""
    return covering_triples(players, seed)


def games_per_player(games, players: int) -> np.ndarray:
    """How many games each of the players 0..P-1 plays in a list of games."""
    count = np.zeros(players, dtype=np.int64)
    for g in games:
        for p in g:
            count[p] += 1
    return count


def pack_games(games) -> np.ndarray:
    """Seat a list of games in rounds: each game goes to the earliest round in which none of
    its players sits yet (first fit, games keep their list order within a round); tables
    are padded with -1 to the largest game, rounds to the fullest round."""
    rounds: list[list[list[int]]] = []
    busy: list[set[int]] = []
    for g in games:
        g = [int(p) for p in g]
        for r, seated in enumerate(busy):
            if seated.isdisjoint(g):
                rounds[r].append(g)
                seated.update(g)
                break
        else:
            rounds.append([g])
            busy.append(set(g))
    return rounds_to_plan(rounds)


def _double_covers(lines: list[tuple[int, int, int]]):
    """Sets of 10 lines holding every point of PG(3, 2) exactly twice, in a fixed order
    (the first point held fewer than twice is covered next, by lines in increasing order)."""
    count = [0] * 16
    chosen: list[int] = []

    def extend(start: int):
        point = next((p for p in range(1, 16) if count[p] < 2), None)
        if point is None:
            yield list(chosen)
            return
        for i in range(start, len(lines)):
            line = lines[i]
            if point not in line or any(count[p] >= 2 for p in line):
                continue
            chosen.append(i)
            for p in line:
                count[p] += 1
            yield from extend(i + 1)
            chosen.pop()
            for p in line:
                count[p] -= 1

    yield from extend(0)


def _gf2_solve(rows: list[int], nvars: int) -> list[int] | None:
    """A solution of the linear system over GF(2) (row bit i = variable i, bit nvars = the
    right-hand side), free variables 0; None if it is inconsistent."""
    pivots: list[tuple[int, int]] = []  # (pivot bit, reduced row)
    for row in rows:
        for bit, prow in pivots:
            if row >> bit & 1:
                row ^= prow
        low = row & ((1 << nvars) - 1)
        if low == 0:
            if row:
                return None  # 0 = 1
            continue
        bit = low.bit_length() - 1
        pivots = [(b, r ^ row if r >> bit & 1 else r) for b, r in pivots]
        pivots.append((bit, row))
    value = [0] * nvars
    for bit, row in pivots:
        value[bit] = row >> nvars & 1  # every other bit of a reduced row is a free variable
    return value


@cache
def _lifted_planes() -> np.ndarray:
    lines = _lines(4)
    for cover in _double_covers(lines):
        # the planes of each chosen subspace, one round after another
        planes = [sorted(plane) for i in cover for plane in _cosets(*lines[i][:2], 4)]
        sign = {(n, x): 4 * n + j for n, plane in enumerate(planes) for j, x in enumerate(plane)}
        holding: dict[tuple[int, int], list[int]] = {}
        for n, plane in enumerate(planes):
            for x, y in combinations(plane, 2):
                holding.setdefault((x, y), []).append(n)
        nvars = 4 * len(planes)
        rows = []
        for (x, y), (n, m) in holding.items():
            rows.append((1 << sign[n, x]) ^ (1 << sign[n, y]) ^ (1 << sign[m, x])
                        ^ (1 << sign[m, y]) ^ (1 << nvars))
        value = _gf2_solve(rows, nvars)
        if value is None:
            continue
        rounds = []
        for r in range(len(cover)):
            tables = []
            for n in range(4 * r, 4 * r + 4):
                s = [value[sign[n, x]] for x in planes[n]]
                tables.append([2 * x + v for x, v in zip(planes[n], s)])
                tables.append([2 * x + 1 - v for x, v in zip(planes[n], s)])
            rounds.append(tables)
        return np.array(rounds, dtype=np.int64)
    raise AssertionError("no double cover of PG(3, 2) has consistent signs")


def lifted_planes() -> np.ndarray:
    """32 players x 10 rounds at tables of 4 with no pair meeting twice, from planes of
    AG(4, 2) lifted by signs (see the module text); players 2x and 2x + 1 never meet."""
    return _lifted_planes().copy()


def rounds_to_plan(rounds) -> np.ndarray:
    """plan[round, table, seat] from nested lists; short tables and rounds padded with -1."""
    tables = max((len(r) for r in rounds), default=0)
    seats = max((len(t) for r in rounds for t in r), default=0)
    plan = np.full((len(rounds), tables, seats), -1, dtype=np.int64)
    for h, r in enumerate(rounds):
        for t, table in enumerate(r):
            plan[h, t, : len(table)] = table
    return plan


# ---------------------------------------------------------------------------------------
# A design for the championship's draft
# ---------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Design:
    name: str
    rounds: int  # repeat-free rounds the construction has
    plan: np.ndarray

    @property
    def complete(self) -> bool:
        """Every pair meets exactly once over the rounds (a resolvable 2-design)."""
        players, size = self.plan.shape[1] * self.plan.shape[2], self.plan.shape[2]
        return self.rounds * (size - 1) == players - 1 and self.plan.shape[0] == self.rounds


def designs_for(players: int, table_size: int) -> list[Design]:
    """Every construction here for this size, best first: the complete designs (every pair
    meets exactly once over all rounds), then the Dutch cycle (repeat-free rounds only)."""
    found = []
    k, v = table_size, players
    if v % k or v < k:
        return found
    pn = prime_power(k)
    if pn is not None:
        dims, rest = 0, v
        while rest % k == 0:
            rest //= k
            dims += 1
        if rest == 1 and dims >= 2:
            found.append(Design(f"affine geometry AG({dims}, {k})", (v - 1) // (k - 1),
                                affine_geometry(k, dims)))
    if k == 3 and _kirkman(v) is not None and not found:
        found.append(Design(f"Kirkman triple system KTS({v})", (v - 1) // 2, kirkman(v)))
    if k == 4 and (v - 1) % 3 == 0:
        q = (v - 1) // 3
        if q % 4 == 1 and prime_power(q) and not found:
            found.append(Design(f"resolvable (v, 4, 1) design, v = 3*{q} + 1", q,
                                resolvable_quadruples(v)))
    if k == 4 and v == 32:  # for 128 players (n = 7) the line search finds too few lines
        found.append(Design("lifted planes of AG(4, 2)", 10, lifted_planes()))
        planes = binary_planes(5)
        found.append(Design("disjoint planes of AG(5, 2)", len(planes), planes))
    h = dutch_first_repeat(v, k)
    found.append(Design(f"Dutch cycle of {v // k} tables", h, dutch_cycle(v, h, k)))
    return found


def design_for(players: int, hanchans: int, table_size: int) -> np.ndarray | None:
    """The first design with at least `hanchans` repeat-free rounds, cut to `hanchans`
    rounds (plan[hanchan, table, seat], places 0..P-1), or None when none fits."""
    for design in designs_for(players, table_size):
        if design.rounds >= hanchans:
            return design.plan[:hanchans].copy()
    return None
