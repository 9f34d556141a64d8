"""``kubb3d bench``: full throws per second against a bare PyBullet loop, or the viewer's frame rate.

Wired into the main app by :func:`register`."""

from __future__ import annotations

import json

import typer

from kubb3d.errors import UserError
from kubb3d.ranges import counted


def bench(
    throws: int = typer.Option(200, min=1, max=100_000, help="Throws to time."),
    memory_throws: int = typer.Option(
        0, min=0, max=1_000_000, help="Also run this many throws in one process and report memory growth (e.g. 10000)."
    ),
    seed: int = typer.Option(0, min=0, help="Seed of the throw variations."),
    viewer: bool = typer.Option(
        False, "--viewer",
        help="Instead: frames per second of the headless 3D renderer at 1280x720 (pitch and Kubbuteo board).",
    ),
    frames: int = typer.Option(200, min=1, max=100_000, help="Frames to render with --viewer."),
    as_json: bool = typer.Option(False, "--json", help="Print the figures as one JSON document."),
    check: bool = typer.Option(
        True,
        "--check/--no-check",
        help="Also check the results: a bit-identical re-run, and the felled-per-baton rate against plain stepping at "
             "the fine step throughout.",
    ),
) -> None:
    """Measure full throws per second (release to rest, one core) against a bare PyBullet loop,
    check that the speed work leaves results unchanged, or with --viewer the frame rate of the
    headless renderer."""
    if viewer:
        try:
            from kubb3d.viewer.bench import viewer_fps
        except ModuleNotFoundError as exc:
            raise UserError(f"the 3D viewer is not available: {exc}") from None
        fps = viewer_fps(1280, 720, frames)
        board = viewer_fps(1280, 720, frames, equipment="kubbuteo")
        if as_json:
            typer.echo(json.dumps({"frames_per_s": fps, "kubbuteo_frames_per_s": board, "width": 1280, "height": 720,
                                   "frames": frames}))
        else:
            typer.echo(f"headless renderer: {fps:.1f} frames/s on the pitch, {board:.1f} on the Kubbuteo board, at "
                       f"1280x720 over {counted(frames, 'frame')}")
        return
    from kubb3d.bench import run_bench

    figures = run_bench(throws, memory_throws, seed, show=not as_json, check=check)
    if as_json:
        typer.echo(json.dumps(figures))


def register(app: typer.Typer) -> None:
    """Add the ``bench`` command to ``app``."""
    app.command()(bench)
