//! Polygon text moved and scaled: the world of `exact_text`, translated by an offset from 0 to
//! 1e24 and scaled by a power of two from 2^-20 to 2^40 (the first two bytes pick them; the
//! rest is the text), answers as it does at home wherever every coordinate stays exact in
//! `f64`: the same reachability between the mesh's corners (and the midpoints of pairs of
//! them), and distances times the scale, within a relative 1e-9 and the ulps of the moved
//! coordinates (crossing points and capsules round to the `f64` spacing there).
#![no_main]

use libfuzzer_sys::fuzz_target;
use signposts_fuzz::{OFFSETS, exact_sum, moved_text};
use signposts_rooms::{ExactRooms, NavMeshBuilder, Point};

fuzz_target!(|data: &[u8]| {
    let [pick, power, rest @ ..] = data else { return };
    let offset = OFFSETS[usize::from(*pick) % OFFSETS.len()];
    let k = i32::from(*power) % 61 - 20;
    let scale = f64::from(k).exp2();
    let text = String::from_utf8_lossy(rest);
    let Some(moved) = moved_text(&text, offset, scale) else { return };
    let (Ok(home), Ok(away)) = (NavMeshBuilder::from_text(&text), NavMeshBuilder::from_text(&moved)) else {
        return;
    };
    let (Ok(home), Ok(away)) = (home.build(), away.build()) else { return };
    assert_eq!(away.check(), Ok(()), "{moved}");
    if home.regions_len() > 200 || away.regions_len() > 400 {
        return;
    }
    let budget = 16 << 20;
    let (Ok(exact_home), Ok(exact_away)) = (
        ExactRooms::builder(&home).memory_budget(budget).build(),
        ExactRooms::builder(&away).memory_budget(budget).build(),
    ) else {
        return;
    };
    let place = |p: Point| {
        (exact_sum(offset, p.x * scale) && exact_sum(offset, p.y * scale))
            .then(|| Point::new(offset + p.x * scale, offset + p.y * scale))
    };
    let corners: Vec<Point> = home.vertices().iter().take(8).copied().collect();
    let mut points: Vec<Point> = corners.clone();
    for (i, &a) in corners.iter().enumerate() {
        points.extend(corners[i + 1..].iter().map(|&b| Point::new(a.x.midpoint(b.x), a.y.midpoint(b.y))));
    }
    let ulp = |x: f64| f64::from_bits(x.abs().to_bits() + 1) - x.abs();
    for &s in &points {
        for &t in points.iter().take(12) {
            let (Some(s2), Some(t2)) = (place(s), place(t)) else { continue };
            // Only points walkable in both (a rounding may put a corner a hair outside).
            if home.region_at(s).is_none()
                || home.region_at(t).is_none()
                || away.region_at(s2).is_none()
                || away.region_at(t2).is_none()
            {
                continue;
            }
            let (near, far) = (exact_home.path(s, t), exact_away.path(s2, t2));
            assert_eq!(
                near.is_some(),
                far.is_some(),
                "{s} → {t} reachable {} at home, {} moved\n{moved}",
                near.is_some(),
                far.is_some()
            );
            let (Some(near), Some(far)) = (near, far) else { continue };
            let expected = near.walked() * scale;
            let turns = (near.points().len() + far.points().len()) as f64;
            let slack = 1e-9 * expected
                + 64.0 * turns * ulp(s2.x.abs().max(s2.y.abs()).max(t2.x.abs()).max(t2.y.abs()));
            assert!(
                (far.walked() - expected).abs() <= slack,
                "{s} → {t}: {} moved, {expected} expected\n{moved}",
                far.walked()
            );
        }
    }
});
