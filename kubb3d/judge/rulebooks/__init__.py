"""The built-in rule books, one module each (see :mod:`kubb3d.judge.rulebook`); importing this
package registers them in this order."""

from kubb3d.judge.rulebooks import dm, wikinger, kubbuteo  # noqa: F401  (registration order)
