"""Generated meshes and URDF files (built by ``kubb3d models build``)."""
