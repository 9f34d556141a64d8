"""The examples in docstrings run as written (``>>>`` lines, checked with doctest)."""

import doctest
import importlib
from pathlib import Path

import pytest

PKG = Path(__file__).resolve().parents[1] / "kubb3d"
WITH_EXAMPLES = sorted(
    ".".join(p.relative_to(PKG.parent).with_suffix("").parts).removesuffix(".__init__")
    for p in PKG.rglob("*.py")
    if ">>> " in p.read_text(encoding="utf-8")
)


def test_the_examples_are_found():
    assert "kubb3d.rules" in WITH_EXAMPLES


@pytest.mark.parametrize("name", WITH_EXAMPLES)
def test_docstring_examples(name):
    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0 and result.failed == 0, result
