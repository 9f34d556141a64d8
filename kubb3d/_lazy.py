"""Names of a package loaded on first use (PEP 562): importing the package imports none of the
modules behind them (``import kubb3d`` stays light; a Dask scheduler that imports
:mod:`kubb3d.experiment` for a task's function imports nothing else)."""

from __future__ import annotations

import importlib
from typing import Any, Callable, Mapping


def lazy_names(
    package: str, table: Mapping[str, str | tuple[str, str]], namespace: dict[str, Any]
) -> tuple[Callable[[str], Any], Callable[[], list[str]]]:
    """``__getattr__`` and ``__dir__`` for a package.

    Args:
        package: the package's name (for the error message).
        table: name → the module that defines it, or (module, its name there).
        namespace: the package's ``globals()``; a name imported on first use is kept there.

    Raises (the returned ``__getattr__``):
        AttributeError: a name not in ``table``.
    """

    def getattr_(name: str) -> Any:
        entry = table.get(name)
        if entry is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        module, attr = entry if isinstance(entry, tuple) else (entry, name)
        value = getattr(importlib.import_module(module), attr)
        namespace[name] = value
        return value

    def dir_() -> list[str]:
        return sorted(set(namespace) | set(table))

    return getattr_, dir_
