"""The scenario format reference cannot drift: docs/scenarios.md is the generated text, every
model field is described, the JSON Schema accepts every shipped scenario and refuses bad ones,
and the examples of placements no shipped file uses build in physics."""

import json
import tomllib

import jsonschema
import pytest

from kubb3d import scenario as sc
from kubb3d import scenario_doc as doc
from kubb3d.library import scenario_files
from kubb3d.cli.scenario import scenario_schema


def test_docs_scenarios_md_is_the_generated_reference(root):
    text = (root / "docs" / "scenarios.md").read_text(encoding="utf-8")
    assert text == doc.reference_markdown() + "\n", "run `kubb3d scenario reference > docs/scenarios.md`"


def test_every_field_of_every_model_is_described():
    assert doc.missing_descriptions() == [], "describe the field in FIELDS of kubb3d/scenario_doc.py"
    assert set(doc.PLACEMENTS) == set(sc.PieceSpec.model_fields["place"].annotation.__args__)
    assert set(doc.placement_examples()) == set(doc.PLACEMENTS)


def test_the_json_schema_accepts_the_library_and_refuses_bad_files():
    schema = scenario_schema()
    jsonschema.Draft202012Validator.check_schema(schema)
    validator = jsonschema.Draft202012Validator(schema)
    files = scenario_files()
    assert len(files) >= 60
    for path in files:
        errors = list(validator.iter_errors(tomllib.loads(path.read_text(encoding="utf-8"))))
        assert errors == [], f"{path.name}: {errors[0].message}"
    good = tomllib.loads(files[0].read_text(encoding="utf-8"))
    assert not validator.is_valid({**good, "ruleset": "chess"})
    assert not validator.is_valid({**good, "unknown_field": 1})
    assert schema["properties"]["ruleset"]["description"].startswith("whose rules")
    assert schema["$defs"]["PieceSpec"]["properties"]["tilt_deg"]["description"].endswith("(deg)")


@pytest.mark.parametrize("place", sorted(doc.OWN_EXAMPLES))
def test_own_placement_examples_build(place, tmp_path):
    piece = doc.OWN_EXAMPLES[place]
    lines = ['schema = 1', 'title = "example"', 'ruleset = "dm"', 'event = "throw"', "", "[[pieces]]"]
    lines += [f"{k} = {json.dumps(v)}" for k, v in piece.items()]
    lines += ["", "[[expect]]", f'piece = "{piece["id"]}"']
    path = tmp_path / "example.toml"
    path.write_text("\n".join(lines) + "\n")
    built = sc.build(path)
    try:
        assert piece["id"] in built.snapshot.pieces
    finally:
        built.close()


def test_scenario_cli_reference_and_schema(cli):
    r = cli("scenario", "reference")
    assert r.returncode == 0 and r.stdout.startswith("# Scenario files")
    r = cli("scenario", "schema")
    assert json.loads(r.stdout)["title"] == "kubb3d judge scenario"
    r = cli("scenario", "list", "--json")
    rows = json.loads(r.stdout)
    assert len(rows) >= 60 and {"name", "ruleset", "event", "title", "path"} == set(rows[0])
