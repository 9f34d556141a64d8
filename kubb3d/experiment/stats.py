"""Rates with binomial confidence intervals, grouped by columns of the result rows.

The Wilson score interval (Wilson 1927) for k successes in n trials at normal quantile z::

    centre = (p + z²/2n) / (1 + z²/n),   half = z √(p(1−p)/n + z²/4n²) / (1 + z²/n),   p = k/n

It stays inside [0, 1] and is sensible for k = 0 or k = n, unlike the normal approximation.

The interval of a mean of n values (:func:`mean_interval`) is Student's t interval,
mean ± t₀.₉₇₅(n − 1) · s / √n with s the sample standard deviation (ddof 1): the normal quantile
1.96 in its place is too narrow at small n (t₀.₉₇₅(4) = 2.776), and one value (n = 1), or values
all alike (s = 0), have no interval at all, never a zero-width one. The t quantile (:func:`t95`) is exact for an integer
number of degrees of freedom ν up to :data:`T_EXACT_DF`: the two-sided probability P(|T| ≤ t) is
a finite sum in θ = atan(t / √ν) (Abramowitz and Stegun 1964, *Handbook of Mathematical
Functions*, 26.7.3 for odd ν, 26.7.4 for even ν), inverted by bisection on θ; past it, the
Cornish–Fisher expansion in 1/ν (ibid. 26.7.5, four terms). A quantity that cannot be negative
(a count, a time, a distance) has its interval's low end raised to 0 (``floor``): the true mean
lies at or above 0 whatever the sample, so the clipped interval covers it exactly as often as
the unclipped one did.

Every 95 % interval kubb3d prints comes from here: :func:`wilson` for a rate,
:func:`mean_interval` (or :func:`t95` for a paired difference or a ratio estimator) for a mean.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Callable, Collection, Mapping, Sequence
from kubb3d.judge.messages import msg
from kubb3d.ranges import did_you_mean, listed

Z95 = 1.959963984540054
"""Normal quantile of a two-sided 95 % interval."""


T_EXACT_DF = 200
"""Degrees of freedom up to which :func:`t95` sums the exact distribution (module doc)."""


def _t_two_sided(theta: float, df: int) -> float:
    """P(|T| ≤ √df · tan θ) for Student's t with ``df`` degrees of freedom (A&S 26.7.3/26.7.4)."""
    c2 = math.cos(theta) ** 2
    s = math.sin(theta)
    term, total = 1.0, 1.0
    if df % 2:  # odd: 2/π (θ + sin θ cos θ (1 + 2/3 cos²θ + 2·4/(3·5) cos⁴θ + … )), the sum to cos^(ν−3)
        if df == 1:
            return 2 * theta / math.pi
        for j in range(1, (df - 1) // 2):
            term *= c2 * (2 * j) / (2 * j + 1)
            total += term
        return 2 / math.pi * (theta + s * math.cos(theta) * total)
    for j in range(1, df // 2):  # even: sin θ (1 + 1/2 cos²θ + 1·3/(2·4) cos⁴θ + … ), to cos^(ν−2)
        term *= c2 * (2 * j - 1) / (2 * j)
        total += term
    return s * total


def t_quantile(p: float, df: int) -> float:
    """The two-sided ``p`` quantile of Student's t with ``df`` ≥ 1 degrees of freedom: the t with
    P(|T| ≤ t) = p (``t_quantile(0.95, 4)`` = 2.776, the 0.975 quantile). Module doc.

    Raises:
        ValueError: ``df`` < 1 or ``p`` outside (0, 1).
    """
    if df < 1 or int(df) != df:
        raise ValueError(f"need a whole number of degrees of freedom >= 1, got {df}")
    if not 0.0 < p < 1.0:
        raise ValueError(f"need 0 < p < 1, got {p}")
    df = int(df)
    if df > T_EXACT_DF:
        from statistics import NormalDist

        x = NormalDist().inv_cdf((1 + p) / 2)
        g1 = (x**3 + x) / 4
        g2 = (5 * x**5 + 16 * x**3 + 3 * x) / 96
        g3 = (3 * x**7 + 19 * x**5 + 17 * x**3 - 15 * x) / 384
        g4 = (79 * x**9 + 776 * x**7 + 1482 * x**5 - 1920 * x**3 - 945 * x) / 92160
        return x + g1 / df + g2 / df**2 + g3 / df**3 + g4 / df**4
    lo, hi = 0.0, math.pi / 2
    for _ in range(200):  # the probability rises with θ; bisect until the bounds stop moving
        mid = (lo + hi) / 2
        if mid in (lo, hi):
            break
        if _t_two_sided(mid, df) < p:
            lo = mid
        else:
            hi = mid
    return math.sqrt(df) * math.tan((lo + hi) / 2)


ALIKE = 1e-9
"""Values whose standard deviation is at most this share of their largest magnitude count as all
alike (:func:`mean_interval`): two flight times of the same 1/960 s steps summed in another
order differ by 1e-16 s, and gave the interval 0.983–0.983."""

_T95: dict[int, float] = {}


def t95(df: int) -> float:
    """The t quantile of a two-sided 95 % interval with ``df`` degrees of freedom (cached)."""
    if df not in _T95:
        _T95[df] = t_quantile(0.95, df)
    return _T95[df]


def mean_interval(
    values: Sequence[float], floor: float | None = None
) -> tuple[float, float | None, float | None]:
    """(mean, low, high) of ``values`` with Student's t 95 % interval (module doc); low and high
    are None for a single value, and for values all alike (no spread, from which the t interval
    would be the zero-width one: ten throws that fell no kubb say nothing of how few they fell),
    which have no interval. ``floor``: the least value the quantity can take (0 for a count, a
    time, a distance): the low end is kept at or above it.

    Raises:
        ValueError: no values.
    """
    xs = [float(v) for v in values]
    n = len(xs)
    if n == 0:
        raise ValueError("the mean of no values")
    mean = sum(xs) / n
    if n == 1:
        return mean, None, None
    sd = math.sqrt(sum((x - mean) * (x - mean) for x in xs) / (n - 1))  # no OverflowError
    if sd <= ALIKE * max(abs(x) for x in xs):  # alike but for rounding (a time summed of steps)
        return mean, None, None
    half = t95(n - 1) * sd / math.sqrt(n)
    lo = mean - half
    return mean, lo if floor is None else max(floor, lo), mean + half


NO_INTERVAL = "n = 1: no interval"
"""What is printed in place of the interval of a mean of one value (:func:`mean_interval`)."""


def no_interval(n: int | None = None) -> str:
    """What is printed where a mean of ``n`` values has no interval (:func:`mean_interval`):
    :data:`NO_INTERVAL` for one value, ``no spread in n = 4: no interval`` for values all alike,
    ``no trial: no interval`` for none."""
    if n == 1:
        return NO_INTERVAL
    if n == 0:  # an arm of the grid no finished trial reached
        return "no trial: no interval"
    return "no interval" if n is None else f"no spread in n = {n}: no interval"


def interval_text(low: float | None, high: float | None, digits: int = 3, n: int | None = None) -> str:
    """``low–high`` with ``digits`` decimals, or :func:`no_interval` of ``n`` when there is none."""
    if low is None or high is None:
        return no_interval(n)
    return f"{low:.{digits}f}–{high:.{digits}f}"


def wilson(k: int, n: int, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval (lo, hi) for k successes in n trials; (0, 1) for n = 0.

    Raises:
        ValueError: k outside 0 … n.
    """
    if not 0 <= k <= n:
        raise ValueError(f"need 0 <= k <= n, got k={k}, n={n}")
    if n == 0:
        return 0.0, 1.0
    p = k / n
    z2 = z * z
    den = 1 + z2 / n
    centre = (p + z2 / (2 * n)) / den
    half = z * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / den
    lo = 0.0 if k == 0 else min(p, max(0.0, centre - half))
    hi = 1.0 if k == n else max(p, min(1.0, centre + half))
    return lo, hi


def match_column(name: str, available: Sequence[str]) -> str:
    """The column meant by ``name``: exact, then ``name_deg`` / ``name_rps`` / ``name_s``, then a
    unique prefix (``elevation`` → ``elevation_deg``).

    Raises:
        ValueError: no column or an ambiguous prefix (the message lists the columns).
    """
    if name in available:
        return name
    for suffix in ("_deg", "_rps", "_s", "_mps"):
        if name + suffix in available:
            return name + suffix
    hits = [c for c in available if c.startswith(name)]
    if len(hits) == 1:
        return hits[0]
    if hits:
        raise ValueError(msg("column {name} is ambiguous: {names}", name=repr(name), names=listed(sorted(hits))))
    from kubb3d.experiment.export import LEADING

    bookkeeping = set(LEADING) | {"wall_s"}  # which trial, its seed, whether it ran: nothing to plot
    shown = sorted(c for c in available if c not in bookkeeping)
    near = did_you_mean(name, available)
    raise ValueError(msg("no column {name}{near} (columns: {names})", name=repr(name), near=near, names=listed(shown)))


def measure_column(expr: str, available: Sequence[str]) -> str:
    """The results column a measure (``hit``, ``match_winner=A``) reads (:func:`match_column`)."""
    return match_column(expr.split("=", 1)[0].strip(), available)


def measure_fn(expr: str, available: Sequence[str]) -> tuple[str, Callable[[dict], Any], bool]:
    """Parse a measure: a column (``hit``, ``n_felled``) or ``column=value`` (``status_L=leaning``;
    ``column=null`` for trials that finished without a value, such as a draw's winner).

    Returns:
        (label, function row → value or None, True if the values are 0/1 outcomes).

    Raises:
        ValueError: unknown column.
    """
    if "=" in expr:
        col, want = expr.split("=", 1)
        col = match_column(col.strip(), available)
        want = want.strip()

        def eq(r: dict):
            v = r.get(col)
            if v is None:
                # a failed trial has no value: left out; a finished one with null (a draw's
                # winner, no first contact) is a plain "no" (or a "yes" for ``column=null``)
                if not r.get("ok") or col not in r:
                    return None
                return want == "null"
            if isinstance(v, bool):
                return v == (want.lower() in ("true", "1", "yes"))
            if isinstance(v, list):
                return want in v
            return str(v) == want

        return f"{col} = {want}", eq, True
    col = match_column(expr.strip(), available)
    return col, (lambda r: r.get(col)), False


SIDES = ("A", "B")
"""The two sides of a match or a throw (DM §1): every value a winner column can take but null."""

KNOWN_VALUES: dict[str, tuple[str, ...]] = {"match_winner": SIDES, "judge_winner": SIDES}
"""Text measures whose values are known before any trial: a summary shows each of them, at
zero when no trial gave it (the strategy lab's B row when B never won)."""


def text_values(rows: Sequence[dict], fn: Callable[[dict], Any], known: Sequence[str] = ()) -> list[str] | None:
    """The distinct values (``null`` for none) of a measure that holds text in finished trials,
    or whose every value is a list (``felled``: each id in them), sorted, with every value of
    ``known`` (:data:`KNOWN_VALUES`) though no trial gave it; None for a numeric or boolean
    measure."""
    vals = [fn(r) for r in rows if r.get("ok")]
    lists = bool(vals) and all(isinstance(v, list) or v is None for v in vals)
    if not (lists or any(isinstance(v, str) for v in vals) or (known and all(v is None for v in vals))):
        return None
    out: set[str] = set(known)
    for v in vals:
        if isinstance(v, list):
            out.update(str(key_value(x)) for x in v)
        else:
            out.add("null" if v is None else str(key_value(v)))
    return sorted(out)


def key_value(v: Any) -> Any:
    """A value usable as a group key: lists and tables (a hand-edited results row) become
    their compact JSON text, other values stay."""
    if isinstance(v, (list, dict)):
        import json

        return json.dumps(v, sort_keys=True, separators=(",", ":"))
    return v


def is_number(v: Any) -> bool:
    """A real number (bools count as 0/1)."""
    return isinstance(v, (int, float))


@dataclass(frozen=True)
class Cell:
    """The outcome of one group.

    Attributes:
        key: the group's values, one per grouping column.
        n: trials counted (ok trials with a value).
        value: rate (binary measure) or mean.
        lo, hi: 95 % interval: Wilson for a rate, Student's t for a mean (:func:`mean_interval`,
            its low end at 0 for a quantity that cannot be negative, :func:`floor_of`); None for
            the mean of one value or of values all alike, which has no interval.
        k: successes (binary) or None.
        no_value: finished trials of the group without a value (a draw's winner): counted in
            ``n`` as a "no" for a rate, left out of ``n`` for a mean (:func:`group`).
    """

    key: tuple
    n: int
    value: float
    lo: float | None
    hi: float | None
    k: int | None
    no_value: int = 0


NONNEGATIVE_COLUMNS = frozenset(
    {
        "kubbs_felled", "n_felled", "slide_m", "max_tilt_deg", "match_turns", "match_minutes",
        "match_felled_a", "match_felled_b", "match_points_a", "match_points_b",
    }
)  # fmt: skip
"""Results columns of counts, distances and angles that cannot be negative (docs/experiments.md,
"Measures"); with the times (``*_s``) and the per-side turn counts (``turns_*``) they are the
columns :func:`floor_of` gives 0."""


def floor_of(column: str) -> float | None:
    """The least value a results column can take by its definition: 0 for a count, a time, a
    distance (:data:`NONNEGATIVE_COLUMNS`, ``*_s``, ``turns_*`` but the JSON ``turns`` and the side
    letter ``turns_first_advantage_line``), None for any other (a position, a factor)."""
    if column in NONNEGATIVE_COLUMNS or column.endswith("_s"):
        return 0.0
    if column.startswith("turns_") and column != "turns_first_advantage_line":
        return 0.0
    return None


def group(
    rows: Sequence[dict],
    by: Sequence[str],
    fn: Callable[[dict], Any],
    binary: bool | None = None,
    floor: float | None = None,
    expected: Sequence[tuple] = (),
    missing: Callable[[dict], bool] | None = None,
) -> list[Cell]:
    """Aggregate a measure over groups of rows. Failed rows are left out. A finished trial
    without a value (``fn`` gives None: a draw's ``match_opener_won``) counts in a rate's
    denominator as a "no", the same as ``column=value`` counts it (:func:`measure_fn`), and is
    left out of a mean; either way the cell's ``no_value`` says how many there were.

    Args:
        rows: result rows.
        by: grouping column names (may be empty: one group).
        fn: row → value (bool, number or None).
        binary: treat values as 0/1 outcomes; None: decide from the values (all bools).
        floor: the least value the measure can take (:func:`floor_of`), for a mean's interval.
        expected: keys that get a cell though no trial counted in them (the grid's arms,
            :func:`design_keys`): ``n`` 0, ``k`` 0 for a rate, value NaN and no interval.
        missing: row → whether its column holds no value, for the cells' ``no_value`` (default:
            ``fn`` gives None; ``column=value`` gives a "no" for those, :func:`measure_fn`).

    Returns:
        Cells sorted by key.
    """
    buckets: dict[tuple, list] = {tuple(key_value(x) for x in k): [] for k in expected}
    nulls: dict[tuple, int] = {}  # rows without a value (missing), and rows fn gave None
    unvalued: dict[tuple, int] = {}
    for r in rows:
        if not r.get("ok"):
            continue
        v = fn(r)
        key = tuple(key_value(r.get(c)) for c in by)
        if missing(r) if missing is not None else v is None:
            nulls[key] = nulls.get(key, 0) + 1
        if v is None:
            buckets.setdefault(key, [])
            unvalued[key] = unvalued.get(key, 0) + 1
            continue
        if not binary and not is_number(v):
            raise ValueError(f"trial {r.get('trial')}: the measure holds {type(v).__name__} {key_value(v)!r}, not a "
                             "number (column=value gives the rate of a value)")
        buckets.setdefault(key, []).append(v)
    if binary is None:  # (no value at all: nothing says it is a 0/1 outcome)
        values = [v for vs in buckets.values() for v in vs]
        binary = bool(values) and all(isinstance(v, bool) for v in values)
    if binary:  # a trial without a value is a "no" (above)
        for key, count in unvalued.items():
            buckets[key] += [False] * count
    out = []
    for key in sorted(buckets, key=lambda k: tuple((0, x) if isinstance(x, (int, float)) else (1, str(x)) for x in k)):
        vs = buckets[key]
        none = nulls.get(key, 0)
        n = len(vs)
        if not n:
            out.append(Cell(key, 0, math.nan, None, None, 0 if binary else None, none))
        elif binary:
            k = sum(1 for v in vs if v)
            lo, hi = wilson(k, n)
            out.append(Cell(key, n, k / n, lo, hi, k, none))
        else:
            mean, lo_m, hi_m = mean_interval(vs, floor)
            out.append(Cell(key, n, mean, lo_m, hi_m, None, none))
    return out


MAX_DESIGN_KEYS = 10_000
"""The most grid points :func:`design_keys` lists (a grid of 10^12 points is run in parts and
summarised by what ran)."""


def design_keys(
    by: Sequence[str], grid: Mapping[str, Sequence[Any]], rows: Sequence[dict], narrowed: Collection[str] = ()
) -> list[tuple]:
    """Every group key the experiment's design promises when each column of ``by`` is a grid
    factor (``grid``: column → values; the grid points are their product, docs/experiments.md):
    an arm no finished trial reached still gets its row. A column in ``narrowed`` (a ``--where``
    kept some of its values) keeps only the values found in ``rows``. Empty when a column of
    ``by`` is no grid factor."""
    if not by or any(c not in grid for c in by) or math.prod(len(grid[c]) for c in by) > MAX_DESIGN_KEYS:
        return []
    import itertools

    def values(c: str) -> Sequence[Any]:
        if c in narrowed:
            return list({key_value(r.get(c)) for r in rows})
        return grid[c]

    return list(itertools.product(*(values(c) for c in by)))


def bin_column(rows: Sequence[dict], col: str, bins: int) -> tuple[list[dict], str]:
    """Replace a continuous column by bin centres (``bins`` equal bins over its range) when it
    has more than 3 × ``bins`` distinct values (drawn values; a grid factor keeps its values);
    returns (rows, column name used)."""
    vals = [r[col] for r in rows if isinstance(r.get(col), (int, float)) and not isinstance(r.get(col), bool)]
    if len(set(vals)) <= 3 * bins or not vals:
        return list(rows), col
    lo, hi = min(vals), max(vals)
    width = (hi - lo) / bins or 1.0
    out = []
    for r in rows:
        v = r.get(col)
        if isinstance(v, (int, float)) and not isinstance(v, bool):
            i = min(bins - 1, int((v - lo) / width))
            r = {**r, col: round(lo + (i + 0.5) * width, 10)}
        out.append(r)
    return out, col
