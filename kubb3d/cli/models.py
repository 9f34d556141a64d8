"""``kubb3d models``: build or check the meshes and URDF files in models/.

Wired into the main app by :func:`register`."""

from __future__ import annotations

from pathlib import Path
from typing import Optional

import typer

from kubb3d.cli.outputs import force_option, output_option
from kubb3d.ranges import counted

models_app = typer.Typer(help="Build or check the meshes and URDF files in models/.", no_args_is_help=True)


@models_app.command("build")
def models_build(
    out: Optional[Path] = output_option(
        "--out",
        "Folder to write to (required unless --in-place).",
        folder_files=("*.obj", "*.urdf", "manifest.json", "mass_properties.json"),
    ),
    in_place: bool = typer.Option(
        False,
        "--in-place",
        help="Rebuild the models folder kubb3d itself reads (the checkout's models/, or the installed package's).",
    ),
    force: bool = force_option(),
) -> None:
    """Generate every mesh (OBJ) and URDF file from the equipment sets, into --out, or with
    --in-place into the models folder kubb3d reads (never that folder without --in-place)."""
    from kubb3d.assets import models_dir, write_models
    from kubb3d.errors import UserError

    own = models_dir()
    if in_place and out is not None:
        raise UserError("--in-place rebuilds the models folder kubb3d reads; give it or --out FOLDER, not both")
    if out is None:
        if not in_place:
            raise UserError(
                f"--out: expected a folder to write to (or --in-place to rebuild {own}, which kubb3d reads)"
            )
        out = own
    elif out.is_dir() and own.is_dir() and out.samefile(own):
        raise UserError(f"--out: {out} is the models folder kubb3d reads; give --in-place to rebuild it")
    paths = write_models(out)
    typer.echo(f"wrote {counted(len(paths), 'file')} to {paths[0].parent}")


@models_app.command("check")
def models_check() -> None:
    """Check that the model files equal a fresh build (exit 1 if not)."""
    from kubb3d.assets import check_models, models_dir

    problems = check_models()
    if problems:
        for p in problems:
            typer.echo(p, err=True)
        verb = "differs" if len(problems) == 1 else "differ"
        typer.echo(
            f"{counted(len(problems), 'model file')} {verb} from a fresh build; run `kubb3d models build --in-place`",
            err=True,
        )
        raise typer.Exit(1)
    typer.echo(f"models in {models_dir()} match a fresh build")


def register(app: typer.Typer) -> None:
    """Add the ``models`` group (build, check) to ``app``."""
    app.add_typer(models_app, name="models")
