"""Joints: constraints between two bodies, solved inside the soft step (``docs/joints.md``)."""
