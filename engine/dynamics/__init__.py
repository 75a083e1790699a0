"""Dynamics: the soft step (integration, colouring, contact solver passes) and continuous
collision of fast bodies."""
