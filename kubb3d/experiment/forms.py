"""The value forms of an experiment spec (docs/experiments.md): a field holds a fixed value, a
factor's grid or linspace (every value is run), or a random draw (uniform, normal, choice) made
per trial from the trial's own :class:`numpy.random.Generator`; :class:`Range` bounds a number
field's every possible value at load time. :class:`SpecModel` is the base of every spec section:
unknown fields, inf and nan refused, numbers strict. The sections are :mod:`kubb3d.experiment.spec`'s.
"""

from __future__ import annotations

import math
from typing import Any, Union

import numpy as np
from pydantic import BaseModel, ConfigDict, Field, StrictFloat, StrictInt, ValidationInfo, field_validator

from kubb3d.judge.messages import msg
from kubb3d.ranges import Range as Range  # (the class lives with the range words; its home before)


def form_values(v: Any) -> list:
    """The values of a fixed value or form that :class:`Range` checks (module doc)."""
    if isinstance(v, Grid):
        return list(v.grid)
    if isinstance(v, Choice):
        return list(v.choice)
    if isinstance(v, Uniform):
        return list(v.uniform)
    if isinstance(v, Linspace):
        return list(v.linspace[:2])
    if isinstance(v, Normal):
        return [v.normal[0]]
    return [v]


class SpecModel(BaseModel):
    # no inf or nan anywhere (they end in math errors or silent nonsense); numbers are
    # strict: ``true`` or ``"10"`` where a number is expected is refused, not converted
    model_config = ConfigDict(extra="forbid", frozen=True, allow_inf_nan=False)

    @field_validator("*")
    @classmethod
    def _in_range(cls, v: Any, info: ValidationInfo) -> Any:
        name = info.field_name
        rng = None if name is None else next((m for m in cls.model_fields[name].metadata if isinstance(m, Range)), None)
        if rng is None or v is None:
            return v
        for x in form_values(v):
            if isinstance(x, (int, float)) and not isinstance(x, bool) and not rng.ok(x):
                from kubb3d.ranges import range_words

                raise ValueError(msg("expected {what}, got {got}", what=range_words(rng.text), got=repr(x)))
        return v


class Grid(SpecModel):
    grid: list[Union[StrictFloat, str]] = Field(min_length=1)

    @field_validator("grid")
    @classmethod
    def _finite(cls, v):
        for x in v:
            if isinstance(x, float) and not math.isfinite(x):
                raise ValueError(msg("grid values must be finite"))
        if len(set(map(repr, v))) != len(v):
            raise ValueError(msg("grid values must be unique"))
        return v

    def values(self) -> list:
        return list(self.grid)


class Linspace(SpecModel):
    linspace: tuple[StrictFloat, StrictFloat, StrictInt]

    @field_validator("linspace")
    @classmethod
    def _check(cls, v):
        if not (math.isfinite(v[0]) and math.isfinite(v[1])):
            raise ValueError(msg("start and stop must be finite"))
        if not 1 <= v[2] <= 10_000:
            raise ValueError(msg("the number of values must be between 1 and 10000, got {got}", got=str(v[2])))
        return v

    def values(self) -> list:
        a, b, n = self.linspace
        return [float(x) for x in np.linspace(a, b, n)]


class Uniform(SpecModel):
    uniform: tuple[StrictFloat, StrictFloat]

    @field_validator("uniform")
    @classmethod
    def _check(cls, v):
        if not (math.isfinite(v[0]) and math.isfinite(v[1])) or v[0] > v[1]:
            raise ValueError(msg("expected [lo, hi] with finite lo <= hi, got {got}", got=str(list(v))))
        return v

    def draw(self, rng: np.random.Generator) -> float:
        return float(rng.uniform(*self.uniform))


class Normal(SpecModel):
    normal: tuple[StrictFloat, StrictFloat]

    @field_validator("normal")
    @classmethod
    def _check(cls, v):
        if not (math.isfinite(v[0]) and math.isfinite(v[1])) or v[1] < 0:
            raise ValueError(msg("expected [mean, sd] with finite mean and sd >= 0, got {got}", got=str(list(v))))
        return v

    def draw(self, rng: np.random.Generator) -> float:
        return float(rng.normal(*self.normal))


class Choice(SpecModel):
    choice: list[Union[StrictFloat, str]] = Field(min_length=1)

    def draw(self, rng: np.random.Generator):
        return self.choice[int(rng.integers(len(self.choice)))]


class IntGrid(Grid):
    """A grid of whole numbers (kept as integers: a :class:`Grid` would make ``3`` ``3.0``)."""

    grid: list[StrictInt] = Field(min_length=1)  # type: ignore[assignment]


class IntChoice(Choice):
    """A choice among whole numbers (kept as integers)."""

    choice: list[StrictInt] = Field(min_length=1)  # type: ignore[assignment]


Num = Union[StrictFloat, Grid, Linspace, Uniform, Normal, Choice]
Name = Union[str, Grid, Choice]
Whole = Union[StrictInt, IntGrid, IntChoice]
"""A whole number, fixed, a factor's grid or drawn by choice (``[match] sets``)."""
FACTOR_FORMS = (Grid, Linspace)
RANDOM_FORMS = (Uniform, Normal, Choice)
