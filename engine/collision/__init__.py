"""Collision of one pair of shapes, no world: SAT manifolds (``collide_<a>_<b>``), clipping,
seam rules, time of impact; the public ``collide``, ``overlaps`` and ``time_of_impact``."""
