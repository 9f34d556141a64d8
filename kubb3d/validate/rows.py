"""The row model of ``kubb3d validate`` (:mod:`kubb3d.validate`): one :class:`Row` a validated
quantity with its reference, source, tolerance and verdict, its kind (:data:`KINDS`), and the
:class:`Report` of a run. :func:`rel_row` makes a row that passes within a relative (or absolute)
tolerance, :func:`half_step_row` the same quantity again at half the step."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field

from kubb3d.physics.world import DT

KINDS = {
    "check": "against a reference independent of the parameter it checks",
    "plumbing": "the engine against kubb3d's own inputs (does it apply what it was given)",
    "tuned": "a figure against the band a parameter was tuned to",
}
"""Row kinds (:mod:`kubb3d.validate`), in the order they are listed."""


@dataclass(frozen=True)
class Row:
    """One validated quantity.

    Attributes:
        group: see the table of :mod:`kubb3d.validate`.
        quantity: what is measured, with its set-up.
        reference: the expected value as text (formula or measured range).
        source: where the reference comes from.
        expected: the reference value (or the middle of a range), in ``unit``.
        simulated: the simulator's value, in ``unit``.
        unit: unit of ``expected`` and ``simulated``.
        tolerance: the allowed deviation as text.
        passed: within tolerance.
        kind: ``check``, ``plumbing`` or ``tuned`` (:data:`KINDS`).
    """

    group: str
    quantity: str
    reference: str
    source: str
    expected: float
    simulated: float
    unit: str
    tolerance: str
    passed: bool
    kind: str = "check"

    def __post_init__(self) -> None:
        # plain Python values (numpy scalars do not go into JSON)
        object.__setattr__(self, "expected", float(self.expected))
        object.__setattr__(self, "simulated", float(self.simulated))
        object.__setattr__(self, "passed", bool(self.passed))
        if self.kind not in KINDS:
            raise ValueError(f"row kind must be one of {', '.join(KINDS)}, got {self.kind!r}")


@dataclass
class Report:
    """All rows, plus the per-dt series for the figure."""

    rows: list[Row] = field(default_factory=list)
    felled_vs_dt: list[tuple[float, float, float, int]] = field(default_factory=list)
    """(dt s, felled per baton, 95 % half-width, throws)."""

    @property
    def passed(self) -> bool:
        return all(r.passed for r in self.rows)

    def to_json(self) -> dict:
        """``passed``, ``rows`` (each with its ``kind``) and ``felled_vs_dt``."""
        return {
            "passed": self.passed,
            "rows": [asdict(r) for r in self.rows],
            "felled_vs_dt": [list(x) for x in self.felled_vs_dt],
        }


def tolerance_text(rel: float, abs_tol: float = 0.0, unit: str = "") -> str:
    """A tolerance as the tables print it: ``±1.5 %``, ``±0.0667 s`` or ``±2 % or ±0.0001 m``.

    ``rel`` is a fraction of the expected value, ``abs_tol`` an amount in ``unit``; each to three
    significant digits, a zero part left out (both zero: ``exact``)."""
    parts = [f"±{rel * 100:.3g} %" if rel else "", f"±{abs_tol:.3g} {unit}".rstrip() if abs_tol else ""]
    return " or ".join(p for p in parts if p) or "exact"


def rel_row(group, quantity, reference, source, expected, simulated, unit, rel, abs_tol=0.0, kind="check") -> Row:
    ok = abs(simulated - expected) <= max(rel * abs(expected), abs_tol)
    tol = tolerance_text(rel, abs_tol, unit)
    return Row(group, quantity, reference, source, float(expected), float(simulated), unit, tol, bool(ok), kind)


def half_step_row(row: Row, at_half: float, rel: float) -> Row:
    """The quantity of ``row`` (simulated at the default step) simulated again at half the step:
    a check against the default step's value within ``rel``."""
    return rel_row(
        row.group,
        f"{row.quantity}, dt = 1/{round(2 / DT)} s",
        f"the same at dt = 1/{round(1 / DT)} s",
        "convergence: halving the step must not move a result",
        row.simulated,
        at_half,
        row.unit,
        rel,
    )
