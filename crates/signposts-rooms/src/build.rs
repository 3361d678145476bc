//! [`BuildRooms`]: the core's [`BuildOptions`] building rooms and exact indexes, so that every
//! long build of signposts runs with the same memory limit, progress reports, cancel token
//! and thread count.

use signposts::BuildOptions;

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
/// let exact = options.build_exact(&rooms)?; // the rooms' mesh, door states and links
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
