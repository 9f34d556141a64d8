"""``python -m kubb3d``: the same command line as the ``kubb3d`` script."""

from kubb3d.cli import main

if __name__ == "__main__":
    main(prog_name="kubb3d")
