//! Continuous agents with reciprocal avoidance (ORCA).
