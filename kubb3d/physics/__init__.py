"""Physics: the PyBullet world, grounds and air drag."""
