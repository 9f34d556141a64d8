"""docs/physics.md "Material and ground parameters" is the table of the parameters the code uses
(issue 29): each value as the code has it, inside its plausible range, every ground field covered."""

import dataclasses
from pathlib import Path

from kubb3d.physics import ground as ground_module
from kubb3d.physics.ground import GROUNDS
from kubb3d.physics.parameters import GROUND_FIELDS, PARAMETERS, UNMEASURED, markdown_table

DOC = Path(__file__).parents[1] / "docs" / "physics.md"


def test_the_page_holds_the_table_the_code_makes():
    assert markdown_table() in DOC.read_text(encoding="utf-8"), (
        "docs/physics.md 'Material and ground parameters' is stale: paste kubb3d.physics.parameters.markdown_table()"
    )


def test_every_ground_field_and_material_constant_has_a_row():
    codes = [p.code for p in PARAMETERS]
    assert len(codes) == len(set(codes))
    wanted = {f"ground:{g}.{f}" for g in GROUNDS for f in GROUND_FIELDS}
    wanted |= {"WOOD_ON_WOOD_FRICTION", "WOOD_ON_WOOD_RESTITUTION", "RUBBERWOOD_DENSITY", "BEECH_DENSITY"}
    assert wanted <= set(codes), sorted(wanted - set(codes))
    # the ground fields named are the Ground's own (a renamed field fails here)
    names = {f.name for f in dataclasses.fields(ground_module.Ground)}
    assert set(GROUND_FIELDS) <= names


def test_every_value_lies_in_its_range_and_says_where_it_comes_from():
    for p in PARAMETERS:
        assert p.low <= p.value() <= p.high, (p.name, p.applies_to, p.value(), p.low, p.high)
        assert p.source
    # the wood's friction is measured; the lawn's are not and say so
    wood = next(p for p in PARAMETERS if p.code == "WOOD_ON_WOOD_FRICTION")
    assert wood.source.startswith("measured") and "doi" in wood.source
    assert next(p for p in PARAMETERS if p.code == "ground:grass.restitution").source.startswith(UNMEASURED)


def test_the_table_reads_the_values_the_code_uses(monkeypatch):
    before = markdown_table()
    grass = GROUNDS["grass"]
    monkeypatch.setitem(GROUNDS, "grass", dataclasses.replace(grass, friction=0.4))
    after = markdown_table()
    assert before != after
    row = next(line for line in after.splitlines() if "| wood on grass |" in line and "sliding friction" in line)
    assert "| 0.4 |" in row
    # and a value moved out of its range is caught
    broken = next(p for p in PARAMETERS if p.code == "ground:grass.friction")
    monkeypatch.setitem(GROUNDS, "grass", dataclasses.replace(grass, friction=0.9))
    assert not broken.low <= broken.value() <= broken.high
