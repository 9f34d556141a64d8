"""Physics: the PyBullet world (:class:`kubb3d.physics.world.World`) and its concerns, one module
each (docs/architecture.md): engine, terrain, poses, forces, stepping, rest, contact forces,
export; grounds and air drag."""
