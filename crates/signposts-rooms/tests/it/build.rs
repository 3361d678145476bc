//! Building through the core's `BuildOptions` (`BuildRooms`): progress reported up to the
//! whole, a build cancelled from its first report stops with `Error::Cancelled`, a thread
//! count or a memory limit changes how it runs, never what it builds.

use std::sync::atomic::{AtomicUsize, Ordering};

use signposts::grid::{Grid, parse_map};
use signposts::{BuildOptions, Cancel};
use signposts_rooms::{BuildRooms, Error, ExactRooms, NavMesh, Point, Rooms, Tier};

fn den312d() -> NavMesh {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../maps/den312d.map");
    NavMesh::from_grid(&parse_map(&std::fs::read(path).unwrap()).unwrap()).unwrap()
}

fn saved(rooms: &Rooms) -> Vec<u8> {
    let mut bytes = Vec::new();
    rooms.save(&mut bytes).unwrap();
    bytes
}

/// The reports of one build: how many, whether one said the whole was done, and whether
/// `done` ever went past `total` or a fraction outside 0..=1 was seen.
#[derive(Default)]
struct Reports {
    calls: AtomicUsize,
    whole: AtomicUsize,
    over: AtomicUsize,
}

impl Reports {
    fn see(&self, p: signposts::Progress) {
        self.calls.fetch_add(1, Ordering::Relaxed);
        if p.done > p.total || !(0.0..=1.0).contains(&p.fraction()) {
            self.over.fetch_add(1, Ordering::Relaxed);
        }
        if p.done == p.total {
            self.whole.fetch_add(1, Ordering::Relaxed);
        }
    }
}

#[test]
fn progress_reaches_the_whole_and_the_builds_match_the_plain_ones() {
    let mesh = den312d();
    let (rooms_reports, exact_reports) = (Reports::default(), Reports::default());
    let rooms =
        BuildOptions::new().progress(|p| rooms_reports.see(p)).build_rooms(&Rooms::builder(&mesh)).unwrap();
    assert!(rooms_reports.calls.load(Ordering::Relaxed) > 1);
    assert_eq!(rooms_reports.whole.load(Ordering::Relaxed), 1);
    assert_eq!(rooms_reports.over.load(Ordering::Relaxed), 0);
    assert_eq!(saved(&rooms), saved(&Rooms::build(&mesh).unwrap()));

    let exact = BuildOptions::new().progress(|p| exact_reports.see(p)).build_exact(&rooms).unwrap();
    assert!(exact_reports.calls.load(Ordering::Relaxed) > 100); // about 200: both stages
    assert_eq!(exact_reports.whole.load(Ordering::Relaxed), 1);
    assert_eq!(exact_reports.over.load(Ordering::Relaxed), 0);
    let plain = ExactRooms::build(&mesh).unwrap();
    assert_eq!(
        (exact.corners_len(), exact.edges_len(), exact.tier()),
        (plain.corners_len(), plain.edges_len(), plain.tier())
    );
    let (a, b) = (Point::new(3.5, 10.5), Point::new(55.5, 70.5));
    assert_eq!(exact.distance(a, b), plain.distance(a, b));
}

#[test]
fn a_build_cancelled_at_its_first_report_stops() {
    let mesh = den312d();
    for exact in [false, true] {
        let (token, calls) = (Cancel::new(), AtomicUsize::new(0));
        let mut options = BuildOptions::new();
        options.cancel(&token).progress(|_| {
            calls.fetch_add(1, Ordering::Relaxed);
            token.cancel();
        });
        let result = if exact {
            options.build_exact(&mesh).map(|_| ())
        } else {
            options.build_rooms(&Rooms::builder(&mesh)).map(|_| ())
        };
        assert_eq!(result, Err(Error::Cancelled), "exact: {exact}");
        assert!(calls.load(Ordering::Relaxed) >= 1, "exact: {exact}");
        // Cancelled before it starts: nothing reported.
        let calls = AtomicUsize::new(0);
        let mut options = BuildOptions::new();
        options.cancel(&token).progress(|_| {
            calls.fetch_add(1, Ordering::Relaxed);
        });
        let result = if exact {
            options.build_exact(&mesh).map(|_| ())
        } else {
            options.build_rooms(&Rooms::builder(&mesh)).map(|_| ())
        };
        assert_eq!(result, Err(Error::Cancelled), "exact: {exact}");
        assert_eq!(calls.load(Ordering::Relaxed), 0, "exact: {exact}");
    }
}

#[test]
fn threads_and_memory_limits_change_how_not_what() {
    let mesh =
        NavMesh::from_grid(&Grid::from_ascii("........\n.@@..@@.\n........\n..@@@@..\n........").unwrap())
            .unwrap();
    let one = BuildOptions::new().threads(1).build_rooms(&Rooms::builder(&mesh)).unwrap();
    assert_eq!(saved(&one), saved(&Rooms::build(&mesh).unwrap()));
    let exact = ExactRooms::build(&mesh).unwrap();
    let single = BuildOptions::new().threads(1).build_exact(&mesh).unwrap();
    assert_eq!((single.corners_len(), single.tier()), (exact.corners_len(), exact.tier()));

    // The rooms' table over the limit: refused before it is allocated.
    let refused = BuildOptions::new().memory_limit(64).build_rooms(&Rooms::builder(&mesh)).unwrap_err();
    assert!(
        matches!(refused, Error::Core(signposts::Error::OverMemoryLimit { limit: 64, .. })),
        "{refused:?}"
    );
    // The exact index: a limit below the labels lowers the tier; below every tier, refused.
    assert_eq!(exact.tier(), Tier::Labels);
    let limited =
        BuildOptions::new().memory_limit(exact.memory_bytes() as u64 - 1).build_exact(&mesh).unwrap();
    assert_eq!(limited.tier(), Tier::CompactLabels);
    assert!(limited.memory_bytes() < exact.memory_bytes());
    let refused = BuildOptions::new().memory_limit(16).build_exact(&mesh).unwrap_err();
    assert!(
        matches!(refused, Error::Core(signposts::Error::OverMemoryLimit { limit: 16, .. })),
        "{refused:?}"
    );
    // A builder's own budget below the limit is its budget.
    let budget = ExactRooms::builder(&mesh).memory_budget(16);
    assert!(matches!(
        BuildOptions::new().memory_limit(1 << 30).build_exact(&budget),
        Err(Error::OverBudget { budget: 16, .. })
    ));
}
