"""kubb3d."""
