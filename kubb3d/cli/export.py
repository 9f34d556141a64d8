"""``kubb3d export``: a replay or a scenario as a self-contained web page or as glTF (docs/web.md)."""

from __future__ import annotations

from kubb3d.errors import message as error_message

from pathlib import Path
from typing import Callable, Optional

import typer

from kubb3d.cli.lang import lang_option, translator_for
from kubb3d.cli.outputs import force_option, output_option


def export_command(
    source: Path = typer.Argument(
        ..., help="A match replay (kubb3d match --replay), a scenario file or a shipped scenario's short name."
    ),
    html: Optional[Path] = output_option(
        "--html",
        "Write one HTML page (.html) that plays it in 3D, offline from disk (three.js inside).",
        suffixes=(".html", ".htm"),
        kind="an HTML page",
    ),
    gltf: Optional[Path] = output_option(
        "--gltf",
        "Write the scene where it ends as glTF binary (.glb) for any 3D tool.",
        suffixes=(".glb",),
        kind="glTF binary",
    ),
    force: bool = force_option(),
    lang: Optional[str] = lang_option(),
    as_json: bool = typer.Option(False, "--json", help="Print what was written as one JSON object."),
) -> None:
    """Export a replay or a scenario: a web page with the pitch and pieces in 3D, play and pause, a
    timeline and every ruling with its reason and citation (--html), or the scene as glTF (--gltf)."""
    import json

    from kubb3d.cli import UserError
    from kubb3d.errors import ReplayError
    from kubb3d.files import check_output, write_output
    from kubb3d.judge.messages import msg

    tr = translator_for(lang)
    if html is None and gltf is None:
        raise UserError("kubb3d export: expected --html OUT.html or --gltf OUT.glb (or both)")
    for option, path in (("--html", html), ("--gltf", gltf)):
        if path is not None:
            check_output(path, option, overwrite=force)  # (checked as the line was read, too)
    if html is not None and gltf is not None and html.resolve() == gltf.resolve():
        raise UserError("--gltf: the same file as --html; expected two files")
    outputs = []
    try:  # everything made before anything is written
        if html is not None:
            from kubb3d.web.page import replay_page

            outputs.append(("html", html, replay_page(source, tr).encode("utf-8")))
        if gltf is not None:
            from kubb3d.web.gltf import scene_glb

            outputs.append(("gltf", gltf, scene_glb(source)))
    except ReplayError as exc:
        raise UserError(error_message(exc)) from None
    for kind, path, blob in outputs:
        write_output(path, _writer(blob), f"--{kind}", overwrite=force)
    if as_json:
        typer.echo(json.dumps({kind: {"path": str(path), "bytes": len(blob)} for kind, path, blob in outputs}))
        return
    for _, path, blob in outputs:
        typer.echo(tr(msg("wrote {path} ({size:.2f} MB)", path=str(path), size=len(blob) / 1e6)))


def _writer(blob: bytes) -> Callable[[Path], object]:
    return lambda tmp: tmp.write_bytes(blob)


def register(app: typer.Typer) -> None:
    """Add the ``export`` command to the main ``kubb3d`` app."""
    app.command("export")(export_command)
