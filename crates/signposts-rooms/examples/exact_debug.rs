use signposts::grid::Grid;
use signposts_rooms::{ExactRooms, NavMesh, Point, RegionId};
fn main() {
    let args: Vec<String> = std::env::args().collect();
    let grid = Grid::from_ascii(&args[1].replace('/', "\n")).unwrap();
    let p: Vec<f64> = args[2..6].iter().map(|s| s.parse().unwrap()).collect();
    let mesh = NavMesh::from_grid(&grid).unwrap();
    for r in 0..mesh.regions_len() as u32 {
        println!("region {r}: {:?}", mesh.polygon(RegionId(r)).map(|p| (p.x, p.y)).collect::<Vec<_>>());
    }
    for d in mesh.doors() {
        println!("door {:?} {:?}", d.regions, d.ends);
    }
    let mut exact = ExactRooms::build(&mesh).unwrap();
    for d in args
        .get(6)
        .map(|s| {
            s.split(',').filter(|x| !x.is_empty()).map(|x| x.parse::<u32>().unwrap()).collect::<Vec<_>>()
        })
        .unwrap_or_default()
    {
        exact.set_door_open(signposts_rooms::DoorId(d), false).unwrap();
    }
    println!(
        "corners {:?} kinds {:?} edges {}",
        exact.corners().map(|p| (p.x, p.y)).collect::<Vec<_>>(),
        exact.corner_kinds(),
        exact.edges_len()
    );
    let (s, t) = (Point::new(p[0], p[1]), Point::new(p[2], p[3]));
    println!("region s {:?} t {:?}", mesh.region_at(s), mesh.region_at(t));
    println!("counts {:?}", exact.query_counts(s, t));
    println!("distance {:?} path {:?}", exact.distance(s, t), exact.path(s, t).map(|p| p.points().to_vec()));
}
