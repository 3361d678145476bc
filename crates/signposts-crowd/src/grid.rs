//! Grid walkers with cell capacity.
