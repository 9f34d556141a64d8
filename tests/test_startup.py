"""What a process loads to run one command: a user's ``kubb3d match`` pays for its own modules
only (issue #16, the default DM match's wall time; docs/speed.md "DM turns")."""

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
