"""What a process loads to run one command: a user's ``kubb3d match`` pays for its own modules
only (issue #16, the default DM match's wall time; docs/speed.md "DM turns")."""

import math
import subprocess
import sys

from kubb3d.cli import _SUBAPP_MODULES


def _modules_after(code: str) -> set[str]:
    """The modules loaded by ``code`` in a fresh interpreter (printed on its last stderr line)."""
    tail = "\nimport sys as _s\nprint('MODULES', *sorted(_s.modules), file=_s.stderr)\n"
    r = subprocess.run([sys.executable, "-c", code + tail], capture_output=True, text=True, timeout=120)
    last = r.stderr.strip().splitlines()[-1]
    assert last.startswith("MODULES "), r.stderr
    return set(last.split()[1:])


def test_one_command_registers_only_its_module():
    code = (
        "import sys\nsys.argv = ['kubb3d', 'match', '--sets', '0']\nfrom kubb3d.cli import main\n"
        "try:\n    main()\nexcept SystemExit as e:\n    assert e.code == 2, e.code\n"
    )
    mods = _modules_after(code)
    assert "kubb3d.cli.match" in mods
    others = {m for m in _SUBAPP_MODULES.values() if m != "kubb3d.cli.match"}
    assert not others & mods, sorted(others & mods)


def test_help_and_unknown_commands_still_see_every_command(cli):
    r = cli("--help")
    assert r.returncode == 0
    for name in _SUBAPP_MODULES:
        assert name in r.stdout, name
    r = cli("matc")
    assert r.returncode == 2 and "match" in r.stderr


def test_a_match_does_not_load_the_replay_reader():
    mods = _modules_after("import kubb3d.match")
    assert "kubb3d.replay" not in mods


def test_a_match_builds_no_mesh():
    # the pieces' mass properties come from models/mass_properties.json: no trimesh in a match
    code = (
        "from kubb3d.match import Match, MatchConfig\n"
        "m = Match(MatchConfig(seed=3, round_cap=3))\nm.run()\n"
        "from kubb3d.equipment import get_set\nget_set('standard').king.tipping_angle\n"
    )
    mods = _modules_after(code)
    assert "kubb3d.match" in mods and "trimesh" not in mods and "kubb3d.assets" not in mods
    # nor numpy.ma, which np.median imports at its first call (≈ 50 ms)
    assert "numpy.ma" not in mods


def test_stored_mass_properties_are_the_meshes_and_other_pieces_are_built():
    from dataclasses import replace

    from kubb3d import assets, model_files
    from kubb3d.equipment import EQUIPMENT_SETS

    shipped = 0
    for eq in EQUIPMENT_SETS.values():
        for kind in assets.PIECE_KINDS:
            piece = getattr(eq, kind)
            if piece is None:
                continue
            shipped += model_files.piece_key(piece) in model_files._stored()
            assert math.isclose(model_files.mesh_volume(piece), assets.mesh_volume(piece), rel_tol=1e-12)
            for a, b in zip(model_files.mesh_com(piece), assets.mesh_com(piece)):
                assert math.isclose(a, b, rel_tol=1e-12, abs_tol=1e-15)
    assert shipped == sum(getattr(eq, k) is not None for eq in EQUIPMENT_SETS.values() for k in assets.PIECE_KINDS)
    king = EQUIPMENT_SETS["standard"].king
    taller = replace(king, height=king.height + 0.05)
    assert model_files.piece_key(taller) not in model_files._stored()
    assert model_files.king_com_height(taller) == assets.mesh_com(taller)[2] != model_files.king_com_height(king)


def test_median_of_a_trajectory_record_is_numpys():
    import numpy as np

    from kubb3d.match.records import _median

    rng = np.random.default_rng(2)
    for n in range(1, 40):
        v = rng.choice([1 / 30, 1 / 960, 0.0333, rng.uniform()], size=n).tolist()
        assert _median(v) == float(np.median(np.array(v)))
