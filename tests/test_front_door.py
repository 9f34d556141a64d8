"""The usual front door in the checkout: --version, python -m kubb3d, shell completion,
short names of shipped scenarios and specs."""

import os

from cli_process import run_kubb3d, run_python

import kubb3d


def test_version_and_module_entry(root):
    r = run_kubb3d("--version", timeout=60, cwd=root)
    assert (r.returncode, r.stdout) == (0, f"kubb3d {kubb3d.__version__}\n")
    r = run_kubb3d("--help", timeout=60, cwd=root)
    assert r.returncode == 0 and "Usage: kubb3d" in r.stdout and "--install-completion" in r.stdout


def test_shell_completion_knows_the_subcommands(root):
    for words, expected in (("kubb3d exp", ["export", "experiment"]), ("kubb3d expe", ["experiment"])):
        env = {**os.environ, "_KUBB3D_COMPLETE": "complete_bash", "COMP_WORDS": words, "COMP_CWORD": "1"}
        r = run_python(["-c", "from kubb3d.cli import main; main(prog_name='kubb3d')"], timeout=60, env=env)
        assert r.stdout.split() == expected, words


def test_short_names_of_shipped_files(cli, tmp_path):
    r = cli("judge", "dm_king_felled_early", "--json")
    assert r.returncode == 0, r.stderr
    assert '"title"' in r.stdout
    r = cli("judge", "no_such_scenario")
    assert r.returncode == 2 and r.stderr.startswith("error: no_such_scenario: no such file")
    r = cli("experiment", "run", "no-such-spec", "-o", str(tmp_path / "x.sqlite"))
    assert r.returncode == 2 and "no-such-spec: no such file" in r.stderr
