"""Imported first by the fork server of ``experiment run`` (kubb3d/experiment/runner.py
``_mp_context``), before it forks any worker: see :func:`kubb3d.workers.quiet_start_failures`.
Importing it changes the importing process's ``sys.excepthook``: only the fork server does."""

from kubb3d.workers import quiet_start_failures

quiet_start_failures()
