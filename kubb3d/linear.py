"""Products of 3-vectors and 3×3 matrices that give the same bits on every x86-64 machine.

numpy's ``@`` and ``np.linalg.norm`` of a vector hand these products to OpenBLAS, which picks its
kernels by the CPU at run time; the kernels sum in different orders and with or without fused
multiply-adds, so the last bits of a pose, and through the physics a whole match, differed from
one machine to another (docs/reliability.md, "The same bits on every machine"). Here every
product is written out as separate multiplications and additions in a fixed order: IEEE 754
makes each of them exact to the bit wherever it runs.
"""

from __future__ import annotations

import math
from typing import Sequence, Union

import numpy as np

Vector = Union[Sequence[float], np.ndarray]
"""A 3-vector: a sequence of three numbers or an array of shape (3,)."""


def mat_vec(m: np.ndarray, v: Vector) -> np.ndarray:
    """``m @ v`` for a matrix of shape (n, 3) (a rotation: n = 3) and a 3-vector, shape (n,)."""
    m = np.asarray(m, dtype=float)
    return m[:, 0] * float(v[0]) + m[:, 1] * float(v[1]) + m[:, 2] * float(v[2])


def rows_by(points: np.ndarray, m: np.ndarray) -> np.ndarray:
    """``points @ m`` for points of shape (n, 3) and a (3, 3) matrix, shape (n, 3): with ``m``
    a rotation's transpose, the points turned by it."""
    points = np.asarray(points, dtype=float)
    m = np.asarray(m, dtype=float)
    return points[:, 0:1] * m[0] + points[:, 1:2] * m[1] + points[:, 2:3] * m[2]


def dot3(a: Vector, b: Vector) -> float:
    """The dot product of two 3-vectors."""
    return float(a[0]) * float(b[0]) + float(a[1]) * float(b[1]) + float(a[2]) * float(b[2])


def norm3(v: Vector) -> float:
    """The length of a 3-vector."""
    return math.sqrt(dot3(v, v))


def plane_fit(dx: Sequence[float], dy: Sequence[float], z: Sequence[float]) -> tuple[float, float, float]:
    """The least-squares plane ``z ≈ gx·dx + gy·dy + z0`` through points (``dx``, ``dy``, ``z``)
    (at least three, not on one line): ``(gx, gy, z0)``. Solved from its normal equations with
    correctly rounded sums (:func:`math.fsum`) and Cramer's rule, not LAPACK's (whose kernels
    differ between machines like BLAS's).

    Raises:
        ValueError: the points lie on one line (no single plane fits).
    """
    xs = [float(v) for v in dx]
    ys = [float(v) for v in dy]
    zs = [float(v) for v in z]
    n = float(len(xs))
    sx, sy, sz = math.fsum(xs), math.fsum(ys), math.fsum(zs)
    sxx = math.fsum(a * a for a in xs)
    syy = math.fsum(b * b for b in ys)
    sxy = math.fsum(a * b for a, b in zip(xs, ys))
    sxz = math.fsum(a * c for a, c in zip(xs, zs))
    syz = math.fsum(b * c for b, c in zip(ys, zs))
    rows = ((sxx, sxy, sx), (sxy, syy, sy), (sx, sy, n))
    rhs = (sxz, syz, sz)
    det = _det3(rows)
    if det == 0.0:
        raise ValueError("the points lie on one line: no single plane fits them")
    solution = []
    for col in range(3):
        swapped = tuple(tuple(rhs[r] if c == col else rows[r][c] for c in range(3)) for r in range(3))
        solution.append(_det3(swapped) / det)
    return solution[0], solution[1], solution[2]


def _det3(m: Sequence[Sequence[float]]) -> float:
    return (m[0][0] * (m[1][1] * m[2][2] - m[1][2] * m[2][1])
            - m[0][1] * (m[1][0] * m[2][2] - m[1][2] * m[2][0])
            + m[0][2] * (m[1][0] * m[2][1] - m[1][1] * m[2][0]))
