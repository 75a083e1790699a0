"""Debug drawing of joints (``DrawFlags.JOINTS`` of ``debug_draw.draw_world``): the
anchors of every joint and what links them, through a drawer's primitives."""

from ..world.body_type import BodyType

__all__ = ["draw_joints"]


def draw_joints(world, drawer, color=(80, 200, 200)):
    """Draw every joint of ``world``: segments from each moving body's origin to its
    anchor and from anchor to anchor (a mouse joint: from its anchor to its target), and a dot at
    each anchor.

    Examples
    --------
    >>> from engine import World, Circle
    >>> from engine.draw.debug_draw import DebugDraw
    >>> class Recorder(DebugDraw):
    ...     def draw_segment(self, a, b, radius, color):
    ...         print(a, b)
    >>> world = World()
    >>> ground, bob = world.create_body("static"), world.create_body(position=(1, 0))
    >>> _ = bob.add_shape(Circle(0.1))
    >>> _ = world.create_revolute_joint(ground, bob, (0, 0))
    >>> draw_joints(world, Recorder())
    (1.0, 0.0) (0.0, 0.0)
    (0.0, 0.0) (0.0, 0.0)
    """
    for joint in world.joints:
        pa, pb = joint.anchor_a, joint.anchor_b
        target = getattr(joint, "target", None)
        if target is not None:  # a mouse joint: one body, pulled toward its target
            drawer.draw_segment(pb, tuple(target), 0.0, color)
        else:
            for body, anchor in ((joint.body_a, pa), (joint.body_b, pb)):
                if body.body_type != BodyType.STATIC:  # a static frame may be far away
                    drawer.draw_segment(body.position, anchor, 0.0, color)
            drawer.draw_segment(pa, pb, 0.0, color)
        drawer.draw_point(pb, 4, color)
