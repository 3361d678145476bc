//! Triangles merged into convex regions (Hertel–Mehlhorn): a diagonal between two regions is
//! removed when the union stays convex at both of its ends. Diagonals are tried longest
//! first, which leaves fewer, rounder regions; the result has at most four times the fewest
//! convex regions possible (Hertel & Mehlhorn, 1983).

use super::triangulate::{NONE, Triangles};
use crate::Point;
use crate::geom::orient;

/// Convex regions: counter-clockwise vertex rings (with `y` up), for edge `i` (vertex `i` to
/// `i + 1`) the region across it or [`NONE`], and each region's area tag. Triangles of
/// different areas are never merged.
#[derive(Debug, Clone, Default)]
pub(crate) struct Regions {
    pub rings: Vec<Vec<u32>>,
    pub across: Vec<Vec<u32>>,
    pub areas: Vec<u8>,
}

/// Merges the triangles; vertices marked in `keep` stay corners of the regions around them.
pub(crate) fn merge(t: &Triangles, keep: &[bool]) -> Regions {
    let n = t.tris.len();
    let mut rings: Vec<Vec<u32>> = t.tris.iter().map(|v| v.to_vec()).collect();
    // Tags hold a triangle of the region across (resolved through `find`).
    let mut tags: Vec<Vec<u32>> = t.across.iter().map(|a| a.to_vec()).collect();
    let mut parent: Vec<u32> = (0..n as u32).collect();
    let find = |parent: &mut Vec<u32>, mut x: u32| {
        while parent[x as usize] != x {
            let up = parent[parent[x as usize] as usize];
            parent[x as usize] = up;
            x = up;
        }
        x
    };
    let mut diagonals: Vec<(f64, u32, u32)> = Vec::new();
    for (a, across) in t.across.iter().enumerate() {
        for (i, &b) in across.iter().enumerate() {
            if b != NONE && (a as u32) < b && t.areas[a] == t.areas[b as usize] {
                let (p, q) = (t.tris[a][i], t.tris[a][(i + 1) % 3]);
                diagonals.push((t.vertices[p as usize].distance(t.vertices[q as usize]), a as u32, b));
            }
        }
    }
    diagonals.sort_by(|x, y| y.0.total_cmp(&x.0).then((x.1, x.2).cmp(&(y.1, y.2))));
    for &(_, a, b) in &diagonals {
        let (ra, rb) = (find(&mut parent, a), find(&mut parent, b));
        if ra == rb {
            continue;
        }
        let resolve = |parent: &mut Vec<u32>, tags: &[u32]| -> Vec<u32> {
            tags.iter().map(|&x| if x == NONE { NONE } else { find(parent, x) }).collect()
        };
        let ta = resolve(&mut parent, &tags[ra as usize]);
        let tb = resolve(&mut parent, &tags[rb as usize]);
        if let Some((ring, tag)) =
            try_join(&t.vertices, (&rings[ra as usize], &ta, rb), (&rings[rb as usize], &tb, ra))
        {
            rings[ra as usize] = ring;
            tags[ra as usize] = tag;
            rings[rb as usize] = Vec::new();
            tags[rb as usize] = Vec::new();
            parent[rb as usize] = ra;
        }
    }
    // Renumber the surviving regions, drop collinear vertices inside one wall or one door.
    let mut id = vec![NONE; n];
    let mut out = Regions::default();
    for (r, slot) in id.iter_mut().enumerate() {
        if find(&mut parent, r as u32) == r as u32 {
            *slot = out.rings.len() as u32;
            out.rings.push(Vec::new());
        }
    }
    for (r, &new) in id.iter().enumerate() {
        if new == NONE {
            continue;
        }
        let tag: Vec<u32> = tags[r]
            .iter()
            .map(|&x| if x == NONE { NONE } else { id[find(&mut parent, x) as usize] })
            .collect();
        let (ring, tag) = drop_straight_vertices(&t.vertices, &rings[r], &tag, keep);
        // Surviving regions are met in the order of their new ids.
        out.rings[new as usize] = ring;
        out.across.push(tag);
        out.areas.push(t.areas[r]);
    }
    out
}

/// The union of region `a` and region `b` (rings and resolved tags, each naming the other by
/// id), when it is convex: every edge they share removed.
#[expect(clippy::many_single_char_names, reason = "points of a figure: a b c d p q")]
fn try_join(
    vertices: &[Point],
    a: (&[u32], &[u32], u32),
    b: (&[u32], &[u32], u32),
) -> Option<(Vec<u32>, Vec<u32>)> {
    let (ring_a, tag_a, id_b) = a;
    let (ring_b, tag_b, id_a) = b;
    let (va, ta) = rotate_shared_last(ring_a, tag_a, id_b)?;
    let (vb, tb) = rotate_shared_last(ring_b, tag_b, id_a)?;
    let k = ta.iter().filter(|&&x| x == id_b).count();
    let (m1, m2) = (va.len() - k, vb.len() - k);
    // `va` = [v, …, u, chain…]; `vb` = [u, …, v, chain…]: the shared chain runs u → v in `a`.
    let (u, v) = (va[m1], va[0]);
    if vb[0] != u || vb[m2] != v {
        return None; // not one contiguous chain on both sides: leave them apart
    }
    let p = |i: u32| vertices[i as usize];
    let convex_at_u = orient(p(va[m1 - 1]), p(u), p(vb[1])) >= 0.0;
    let convex_at_v = orient(p(vb[m2 - 1]), p(v), p(va[1])) >= 0.0;
    if !(convex_at_u && convex_at_v) {
        return None;
    }
    let mut ring = va[..=m1].to_vec();
    ring.extend_from_slice(&vb[1..m2]);
    let mut tag = ta[..m1].to_vec();
    tag.extend_from_slice(&tb[..m2]);
    Some((ring, tag))
}

/// The ring rotated so that its edges tagged `other` come last, as one run; `None` when none
/// are, or when they are not one contiguous run.
fn rotate_shared_last(ring: &[u32], tag: &[u32], other: u32) -> Option<(Vec<u32>, Vec<u32>)> {
    let n = ring.len();
    // Start at the first edge after the run: an edge not tagged `other` whose predecessor is.
    let start = (0..n).find(|&i| tag[i] != other && tag[(i + n - 1) % n] == other)?;
    let ring: Vec<u32> = (0..n).map(|i| ring[(start + i) % n]).collect();
    let tag: Vec<u32> = (0..n).map(|i| tag[(start + i) % n]).collect();
    let first_shared = tag.iter().position(|&x| x == other)?;
    if tag[first_shared..].iter().any(|&x| x != other) {
        return None;
    }
    Some((ring, tag))
}

/// Removes vertices where the ring goes straight on between two edges with the same tag (the
/// same neighbour, or wall on both sides): such a vertex bounds nothing.
fn drop_straight_vertices(
    vertices: &[Point],
    ring: &[u32],
    tag: &[u32],
    keep: &[bool],
) -> (Vec<u32>, Vec<u32>) {
    let (mut ring, mut tag) = (ring.to_vec(), tag.to_vec());
    let p = |i: u32| vertices[i as usize];
    let mut i = 0;
    while ring.len() > 3 && i < ring.len() {
        let n = ring.len();
        let (prev, here, next) = ((i + n - 1) % n, i, (i + 1) % n);
        if tag[prev] == tag[here]
            && !keep[ring[here] as usize]
            && orient(p(ring[prev]), p(ring[here]), p(ring[next])) == 0.0
        {
            ring.remove(here);
            tag.remove(here);
            i = i.saturating_sub(1);
        } else {
            i += 1;
        }
    }
    (ring, tag)
}
