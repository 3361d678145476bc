//! [`BuildRooms`]: the core's [`BuildOptions`] building rooms and exact indexes, so that every
//! long build of signposts runs with the same memory limit, progress reports, cancel token
//! and thread count.

use std::sync::{Mutex, OnceLock};

use signposts::{BuildOptions, GraphBuilder, Progress};

use crate::{Error, ExactBuilder, ExactRooms, Rooms, RoomsBuilder};

mod sealed {
    pub trait Sealed {}
    impl Sealed for signposts::BuildOptions<'_> {}
}

/// Builds [`Rooms`] and [`ExactRooms`] with the core's [`BuildOptions`]: what is built comes
/// from the builder ([`RoomsBuilder`]: door states, links, areas; [`ExactBuilder`]: door
/// states, the budget), how the build runs from the options.
///
/// | option | [`build_rooms`](BuildRooms::build_rooms) | [`build_exact`](BuildRooms::build_exact) |
/// | --- | --- | --- |
/// | [`memory_limit`](BuildOptions::memory_limit) | the oracle's table: [`Error::Core`] with the core's `OverMemoryLimit` before it is allocated | lowers the budget (a smaller tier); [`Error::Core`] with `OverMemoryLimit` when even the smallest tier is over |
/// | [`progress`](BuildOptions::progress) | the core's, per batch of the table's searches | `done` of `2 · corners` steps: each corner's sweep, then each table row |
/// | [`cancel`](BuildOptions::cancel) | [`Error::Cancelled`], no batch started after it | [`Error::Cancelled`], no sweep or row started after it |
/// | [`threads`](BuildOptions::threads) | the table's searches | the sweeps and the table |
///
/// Sealed: implemented for [`BuildOptions`] only.
///
/// ```
/// use std::sync::atomic::{AtomicUsize, Ordering};
/// use signposts::{BuildOptions, Cancel};
/// use signposts::grid::Grid;
/// use signposts_rooms::{BuildRooms, NavMesh, Point, Rooms};
///
/// let mesh = NavMesh::from_grid(&Grid::from_ascii("....\n.@@.\n....")?)?;
/// let (reports, token) = (AtomicUsize::new(0), Cancel::new());
/// let mut options = BuildOptions::new();
/// options.memory_limit(1 << 20).progress(|_| { reports.fetch_add(1, Ordering::Relaxed); }).cancel(&token);
/// let rooms = options.build_rooms(&Rooms::builder(&mesh))?;
/// let exact = options.build_exact(&rooms)?; // the rooms' mesh and door states
/// let (a, b) = (Point::new(0.5, 1.5), Point::new(3.5, 1.5));
/// assert!(exact.distance(a, b).unwrap() <= rooms.distance(a, b).unwrap());
/// assert!(reports.load(Ordering::Relaxed) >= 2); // both builds reported
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub trait BuildRooms: sealed::Sealed {
    /// The rooms `builder` describes and their oracle.
    ///
    /// # Errors
    /// As [`RoomsBuilder::build`]; [`Error::Cancelled`] when the options' token is cancelled
    /// (before or during the build); [`Error::Core`] when the table is over the options'
    /// memory limit (the core's `OverMemoryLimit`, before it is allocated) or their thread
    /// pool cannot start.
    ///
    /// ```
    /// use signposts::BuildOptions;
    /// use signposts::grid::Grid;
    /// use signposts_rooms::{BuildRooms, Error, NavMesh, Rooms};
    /// let mesh = NavMesh::from_grid(&Grid::from_ascii("...\n@@.\n...")?)?;
    /// let refused = BuildOptions::new().memory_limit(16).build_rooms(&Rooms::builder(&mesh));
    /// assert!(matches!(refused, Err(Error::Core(signposts::Error::OverMemoryLimit { .. }))));
    /// let rooms = BuildOptions::new().memory_limit(1 << 20).build_rooms(&Rooms::builder(&mesh))?;
    /// assert!(rooms.table().memory_bytes() <= 1 << 20);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    fn build_rooms(&self, builder: &RoomsBuilder<'_>) -> Result<Rooms, Error>;

    /// The exact index of `exact`: an [`ExactBuilder`] (or a reference to one), [`Rooms`]
    /// (their mesh and door states) or a [`NavMesh`](crate::NavMesh) (every door open), with
    /// the default budget unless the builder sets one.
    ///
    /// # Errors
    /// As [`ExactBuilder::build`]; [`Error::Cancelled`] when the options' token is cancelled;
    /// [`Error::Core`] with the core's `OverMemoryLimit` when even the smallest tier is over
    /// the options' memory limit.
    ///
    /// ```
    /// use signposts::{BuildOptions, Cancel};
    /// use signposts::grid::Grid;
    /// use signposts_rooms::{BuildRooms, Error, ExactRooms, NavMesh};
    /// let mesh = NavMesh::from_grid(&Grid::from_ascii("....\n.@@.\n....")?)?;
    /// let token = Cancel::new();
    /// token.cancel(); // a game leaving the level
    /// let stopped = BuildOptions::new().cancel(&token).build_exact(&mesh);
    /// assert_eq!(stopped.unwrap_err(), Error::Cancelled);
    /// let builder = ExactRooms::builder(&mesh).memory_budget(1 << 20);
    /// let exact = BuildOptions::new().threads(1).build_exact(&builder)?;
    /// assert!(exact.memory_bytes() <= 1 << 20);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    fn build_exact<'m>(&self, exact: impl Into<ExactBuilder<'m>>) -> Result<ExactRooms, Error>;
}

impl BuildRooms for BuildOptions<'_> {
    fn build_rooms(&self, builder: &RoomsBuilder<'_>) -> Result<Rooms, Error> {
        self.check_cancelled()?;
        let mut rooms = builder.skeleton()?;
        let graph = rooms.oracle_graph()?;
        rooms.table = self.build(&graph)?;
        Ok(rooms)
    }

    fn build_exact<'m>(&self, exact: impl Into<ExactBuilder<'m>>) -> Result<ExactRooms, Error> {
        let exact = exact.into();
        self.install(|| Ok(exact.build_by(self)))?
    }
}

/// A [`Progress`] of `done` of `total` steps, for the options' callback; `None` when no
/// value could be made.
///
/// The core's `Progress` is `#[non_exhaustive]` with no constructor, so a crate built on it
/// cannot write one: one reported by a build of a one-node graph is kept and its (public)
/// fields set. (To go once the core offers a constructor.)
pub(crate) fn progress(done: usize, total: usize) -> Option<Progress> {
    static TEMPLATE: OnceLock<Option<Progress>> = OnceLock::new();
    let template = TEMPLATE.get_or_init(|| {
        let seen = Mutex::new(None);
        let graph = GraphBuilder::new(1);
        let built = BuildOptions::new()
            .progress(|p| {
                if let Ok(mut seen) = seen.lock() {
                    *seen = Some(p);
                }
            })
            .build(&graph);
        built.ok().and_then(|_| seen.into_inner().ok().flatten())
    });
    template.map(|mut p| {
        p.done = done;
        p.total = total;
        p
    })
}

#[cfg(test)]
mod tests {
    #[test]
    fn progress_values_can_be_made() {
        let p = super::progress(3, 4).expect("the core reports a one-node build");
        assert_eq!((p.done, p.total, p.fraction()), (3, 4, 0.75));
    }
}
