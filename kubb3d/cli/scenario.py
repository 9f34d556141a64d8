"""``kubb3d scenario …``: the shipped judge scenarios and their file format.

``list`` names the shipped scenarios (``--json`` for data); ``schema`` prints the JSON
Schema of a scenario file, generated from the pydantic models in :mod:`kubb3d.scenario_spec`,
for editors that validate TOML against a schema; ``reference`` prints ``docs/scenarios.md``
(:mod:`kubb3d.scenario_doc`). Registered by :func:`register`.
"""

from __future__ import annotations

import json

import typer


def scenario_schema() -> dict:
    """The JSON Schema (draft 2020-12) of a scenario file, from :class:`kubb3d.scenario_spec.ScenarioSpec`."""
    from kubb3d.scenario import ScenarioSpec
    from kubb3d.scenario_doc import described_schema

    schema = described_schema(ScenarioSpec.model_json_schema(by_alias=True))
    schema["$schema"] = "https://json-schema.org/draft/2020-12/schema"
    schema["title"] = "kubb3d judge scenario"
    return schema


scenario_app = typer.Typer(help="The shipped judge scenarios and the scenario file format.", no_args_is_help=True)

@scenario_app.command("list")
def list_cmd(
    as_json: bool = typer.Option(False, "--json", help="Print a JSON list of {name, ruleset, event, title, path}."),
) -> None:
    """List the shipped scenarios: short name (usable as `kubb3d judge NAME`), ruleset, event and title."""
    from kubb3d.library import scenario_files
    from kubb3d.scenario import load

    rows = []
    for path in scenario_files():
        spec = load(path)
        rows.append(
            {
                "name": path.stem,
                "ruleset": spec.ruleset,
                "event": spec.event,
                "title": spec.title,
                "path": str(path),
            }
        )
    if as_json:
        typer.echo(json.dumps(rows, indent=2, ensure_ascii=False))
        return
    width = max(len(r["name"]) for r in rows)
    for r in rows:
        typer.echo(f"{r['name']:<{width}}  {r['ruleset']:<8}  {r['event']:<6}  {r['title']}")

@scenario_app.command("schema")
def schema_cmd() -> None:
    """Print the JSON Schema of a scenario file (the pydantic models behind `kubb3d judge`)."""
    typer.echo(json.dumps(scenario_schema(), indent=2, ensure_ascii=False))

@scenario_app.command("reference")
def reference_cmd() -> None:
    """Print the scenario file reference (Markdown: every field with type, default, unit and
    meaning, every placement with an example); docs/scenarios.md is this text."""
    from kubb3d.scenario_doc import reference_markdown

    typer.echo(reference_markdown())


def register(app: typer.Typer) -> None:
    """Add the ``scenario`` sub-app to the main ``kubb3d`` app."""
    app.add_typer(
        scenario_app,
        name="scenario",
        help="The shipped judge scenarios (list) and their file format (schema, reference).",
    )
