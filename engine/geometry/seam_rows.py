"""The seam row of a piece vertex: the columns of the geometry pool's ``ghost`` rows.

A concave polygon is split into convex pieces; each piece vertex carries a seam row saying
whether the edge leaving it is an interior cut and what the outline's normal cone is there.
``shapes.py`` builds the rows, ``collision/seams.py`` holds the rules that read them.
"""

# Per-vertex seam data, rows of the ``ghost`` pool parallel to the vertices (built by
# ``shapes.py`` from ``decompose.interior_edges`` and ``decompose.outline_cones``).
G_CUT = 0  # 1.0 when the edge leaving this vertex is an interior cut of a concave polygon
G_AX = 1  # the outline's outward normal cone at this vertex runs from a (the normal of
G_AY = 2  # the outline edge arriving here) counter-clockwise to b (the one leaving); a
G_BX = 3  # point inside an outline edge has a == b, a reflex corner a clockwise pair, a
#           point inside the polygon (a split cut ending on a cut) zeros
G_BY = 4
G_CONCAVE = 5  # 1.0 on every row of a piece that has a cut: one load tells a convex piece
GHOST_SIZE = 6
CONE_TOL = 1e-6  # sine: a corner turning less than this is straight
# Sine: a normal this close to a cone's bounding normal, on either side, is admitted
# there. Box2D's chain segments admit 0.1 (b2CollideChainSegmentAndPolygon); 1e-6 here
# rejected a letter resting on the terrain 1.8e-4 rad off level, and the snap that
# followed made a 0.24 m deep contact of a near-touch.
ADMIT_TOL = 0.01
