"""Export a results file to CSV or Parquet: one row per trial, one column per field.

Cell values: numbers and strings as they are; booleans ``true``/``false`` in CSV (a Parquet
bool column); lists and tables (``felled``, ``rest_positions`` …) as JSON text; missing
values (a failed trial has no measures) empty in CSV, null in Parquet. Floats are written
with ``repr`` so that ``float(cell)`` gives back the stored number exactly. ``wall_s`` (the
seconds the trial took on its worker) is the last column.

Provenance: the results file's ``meta`` table (the spec as JSON with its seed, its hash, the
versions of kubb3d, PyBullet, numpy and Python) goes into a Parquet file's schema metadata
(``pyarrow.parquet.read_schema(path).metadata``, keys and values UTF-8 bytes); CSV has no place
for it, so :func:`export` with ``meta=True`` writes it beside the CSV as ``OUT.meta.json``.
"""

from __future__ import annotations

import csv
import json
from pathlib import Path

from kubb3d.errors import FileSafetyError, UnknownNameError
from kubb3d.experiment.store import open_results
from kubb3d.files import write_output
from kubb3d.ranges import did_you_mean, listed

FORMATS = ("csv", "parquet")
LEADING = ("trial", "point", "rep", "seed_entropy", "spawn_key", "ok", "error")


def columns(rows: list[dict]) -> list[str]:
    """Column names: the bookkeeping columns, then every other field in first-seen order, ``wall_s`` last."""
    seen: dict[str, None] = {c: None for c in LEADING}
    for r in rows:
        for k in r:
            seen.setdefault(k, None)
    seen.pop("wall_s", None)
    return list(seen) + ["wall_s"]


def _cell(v) -> str:
    if v is None:
        return ""
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, float):
        return repr(v)
    if isinstance(v, (list, dict)):
        return json.dumps(v, separators=(",", ":"), sort_keys=True)
    return str(v)


def _plain(v):
    return json.dumps(v, separators=(",", ":"), sort_keys=True) if isinstance(v, (list, dict)) else v


def meta_path(out: str | Path) -> Path:
    """Where a CSV export's provenance goes: ``OUT.meta.json`` beside it."""
    out = Path(out)
    return out.with_name(out.name + ".meta.json")


def export(
    results: str | Path, fmt: str, out: str | Path | None = None, *, timing: bool = True, meta: bool = False
) -> Path:
    """Write every row of ``results`` as ``fmt`` (``csv`` or ``parquet``).

    Args:
        results: the SQLite results file.
        fmt: output format.
        out: output path (default: ``results`` with the suffix ``.csv`` / ``.parquet``).
        timing: keep the ``wall_s`` column; without it the exports of two runs of one spec
            are byte-identical (the wall time is the only thing that differs).
        meta: with CSV, also write the results file's meta table to :func:`meta_path` (JSON
            object, key → value); Parquet always carries it in its schema metadata.

    Returns:
        The written path.

    Raises:
        UnknownNameError: unknown format. FileSafetyError: ``out`` is the results file.
        StoreError: not a results file.
        RuntimeError: Parquet without pyarrow installed.
    """
    if fmt not in FORMATS:
        raise UnknownNameError(f"unknown format {fmt!r}"
            f"{did_you_mean(fmt, list(FORMATS))}; expected one of {listed(list(FORMATS))}")
    results = Path(results)
    out = Path(out) if out is not None else results.with_suffix("." + fmt)
    if out.resolve() == results.resolve() or (out.exists() and results.exists() and out.samefile(results)):
        raise FileSafetyError(f"{out}: the export would overwrite the results file itself; choose another --out")
    with open_results(results) as store:
        rows = list(store.rows())
        provenance = store.meta()
    cols = columns(rows)
    if not timing:
        cols = [c for c in cols if c != "wall_s"]
    if fmt == "parquet":
        try:
            import pyarrow as pa
            import pyarrow.parquet as pq
        except ImportError:
            raise RuntimeError("Parquet export needs pyarrow: pip install 'kubb3d[parquet]'") from None

    def write(tmp: Path) -> None:
        if fmt == "csv":
            with open(tmp, "w", newline="", encoding="utf-8") as fh:
                w = csv.writer(fh)
                w.writerow(cols)
                for r in rows:
                    w.writerow([_cell(r.get(c)) for c in cols])
            return
        data = {}
        for c in cols:
            vals = [_plain(r.get(c)) for r in rows]
            kinds = {type(v) for v in vals if v is not None}
            if kinds == {int, float}:
                vals = [None if v is None else float(v) for v in vals]
            elif len(kinds) > 1:
                vals = [None if v is None else _cell(v) for v in vals]
            data[c] = vals
        table = pa.table(data)
        table = table.replace_schema_metadata({k.encode(): v.encode() for k, v in sorted(provenance.items())})
        pq.write_table(table, str(tmp))

    # the output rule (kubb3d.files): no symlink or device followed, parent folder must exist
    written = write_output(out, write, "--out")
    if meta and fmt == "csv":
        def write_meta(tmp: Path) -> None:
            tmp.write_text(json.dumps(provenance, indent=1, sort_keys=True, ensure_ascii=False) + "\n",
                           encoding="utf-8")

        write_output(meta_path(out), write_meta, "--meta")
    return written
