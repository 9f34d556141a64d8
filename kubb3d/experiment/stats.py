"""Rates with binomial confidence intervals, grouped by columns of the result rows.

The Wilson score interval (Wilson 1927) for k successes in n trials at normal quantile z::

    centre = (p + z²/2n) / (1 + z²/n),   half = z √(p(1−p)/n + z²/4n²) / (1 + z²/n),   p = k/n

It stays inside [0, 1] and is sensible for k = 0 or k = n, unlike the normal approximation.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Callable, Sequence
from kubb3d.ranges import did_you_mean, listed

Z95 = 1.959963984540054
"""Normal quantile of a two-sided 95 % interval."""


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
        raise ValueError(f"column {name!r} is ambiguous: {listed(sorted(hits))}")
    from kubb3d.experiment.export import LEADING

    bookkeeping = set(LEADING) | {"wall_s"}  # which trial, its seed, whether it ran: nothing to plot
    shown = sorted(c for c in available if c not in bookkeeping)
    raise ValueError(f"no column {name!r}{did_you_mean(name, available)} (columns: {listed(shown)})")


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


def text_values(rows: Sequence[dict], fn: Callable[[dict], Any]) -> list[str] | None:
    """The distinct values (``null`` for none) of a measure that holds text in finished trials,
    or whose every value is a list (``felled``: each id in them), sorted; None for a numeric or
    boolean measure."""
    vals = [fn(r) for r in rows if r.get("ok")]
    lists = bool(vals) and all(isinstance(v, list) or v is None for v in vals)
    if not (lists or any(isinstance(v, str) for v in vals)):
        return None
    out: set[str] = set()
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
        lo, hi: 95 % interval: Wilson for a rate, mean ± 1.96 standard errors otherwise.
        k: successes (binary) or None.
    """

    key: tuple
    n: int
    value: float
    lo: float
    hi: float
    k: int | None


def group(rows: Sequence[dict], by: Sequence[str], fn: Callable[[dict], Any], binary: bool | None = None) -> list[Cell]:
    """Aggregate a measure over groups of rows (failed rows and missing values are left out).

    Args:
        rows: result rows.
        by: grouping column names (may be empty: one group).
        fn: row → value (bool, number or None).
        binary: treat values as 0/1 outcomes; None: decide from the values (all bools).

    Returns:
        Cells sorted by key.
    """
    buckets: dict[tuple, list] = {}
    for r in rows:
        if not r.get("ok"):
            continue
        v = fn(r)
        if v is None:
            continue
        if not binary and not is_number(v):
            raise ValueError(f"trial {r.get('trial')}: the measure holds {type(v).__name__} {key_value(v)!r}, not a "
                             "number (column=value gives the rate of a value)")
        buckets.setdefault(tuple(key_value(r.get(c)) for c in by), []).append(v)
    if binary is None:
        binary = all(isinstance(v, bool) for vs in buckets.values() for v in vs)
    out = []
    for key in sorted(buckets, key=lambda k: tuple((0, x) if isinstance(x, (int, float)) else (1, str(x)) for x in k)):
        vs = buckets[key]
        n = len(vs)
        if binary:
            k = sum(1 for v in vs if v)
            lo, hi = wilson(k, n)
            out.append(Cell(key, n, k / n, lo, hi, k))
        else:
            xs = [float(v) for v in vs]
            mean = sum(xs) / n
            sd = math.sqrt(sum((x - mean) * (x - mean) for x in xs) / (n - 1)) if n > 1 else 0.0  # no OverflowError
            half = Z95 * sd / math.sqrt(n)
            out.append(Cell(key, n, mean, mean - half, mean + half, None))
    return out


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
