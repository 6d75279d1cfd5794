//! Hex geometry shared by hex games (Red Blob Games' conventions).
//!
//! Flat-top hexes in columns ("q" offset layouts). Offset coordinates `(col, row)` are
//! 0-based; `OddQ` shoves odd columns half a hex down, `EvenQ` even columns. Games keep
//! axial coordinates (or dense hex indices) inside and printed labels only at the edges.

/// The six hexside directions of a flat-top hex, clockwise from north.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Dir {
    N = 0,
    NE = 1,
    SE = 2,
    S = 3,
    SW = 4,
    NW = 5,
}

impl Dir {
    pub const ALL: [Dir; 6] = [Dir::N, Dir::NE, Dir::SE, Dir::S, Dir::SW, Dir::NW];
    pub const NAMES: [&'static str; 6] = ["N", "NE", "SE", "S", "SW", "NW"];

    pub fn from_index(i: usize) -> Option<Dir> {
        Dir::ALL.get(i).copied()
    }

    pub fn from_name(name: &str) -> Option<Dir> {
        Dir::NAMES.iter().position(|&n| n == name).map(|i| Dir::ALL[i])
    }

    pub fn name(self) -> &'static str {
        Dir::NAMES[self as usize]
    }

    /// The direction pointing back across the same hexside.
    pub fn opposite(self) -> Dir {
        Dir::ALL[(self as usize + 3) % 6]
    }
}

/// Axial coordinates `(q, r)`; the third cube coordinate is `s = -q - r`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Axial {
    pub q: i32,
    pub r: i32,
}

/// Axial steps of the six directions (flat-top).
const AXIAL_DIRS: [(i32, i32); 6] = [(0, -1), (1, -1), (1, 0), (0, 1), (-1, 1), (-1, 0)];

impl Axial {
    pub fn new(q: i32, r: i32) -> Axial {
        Axial { q, r }
    }

    pub fn s(self) -> i32 {
        -self.q - self.r
    }

    pub fn neighbour(self, d: Dir) -> Axial {
        let (dq, dr) = AXIAL_DIRS[d as usize];
        Axial { q: self.q + dq, r: self.r + dr }
    }

    /// Number of hex steps between two hexes.
    pub fn distance(self, o: Axial) -> u32 {
        let (dq, dr, ds) = (self.q - o.q, self.r - o.r, self.s() - o.s());
        ((dq.abs() + dr.abs() + ds.abs()) / 2) as u32
    }

    /// The direction from `self` to an adjacent hex `o`, if they are adjacent.
    pub fn direction_to(self, o: Axial) -> Option<Dir> {
        Dir::ALL.into_iter().find(|&d| self.neighbour(d) == o)
    }
}

/// Which columns of an offset grid are shoved half a hex down.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum OffsetLayout {
    /// Odd 0-based columns are shoved down.
    OddQ,
    /// Even 0-based columns are shoved down.
    EvenQ,
}

impl OffsetLayout {
    pub fn to_axial(self, col: i32, row: i32) -> Axial {
        let shift = match self {
            OffsetLayout::OddQ => (col - (col & 1)) / 2,
            OffsetLayout::EvenQ => (col + (col & 1)) / 2,
        };
        Axial { q: col, r: row - shift }
    }

    pub fn from_axial(self, a: Axial) -> (i32, i32) {
        let col = a.q;
        let shift = match self {
            OffsetLayout::OddQ => (col - (col & 1)) / 2,
            OffsetLayout::EvenQ => (col + (col & 1)) / 2,
        };
        (col, a.r + shift)
    }

    /// The offset neighbour of `(col, row)` in direction `d` (may lie off a bounded grid).
    pub fn neighbour(self, col: i32, row: i32, d: Dir) -> (i32, i32) {
        self.from_axial(self.to_axial(col, row).neighbour(d))
    }

    pub fn distance(self, a: (i32, i32), b: (i32, i32)) -> u32 {
        self.to_axial(a.0, a.1).distance(self.to_axial(b.0, b.1))
    }
}

/// A bounded rectangular offset grid whose hexes are numbered densely, row-major.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Grid {
    pub cols: i32,
    pub rows: i32,
    pub layout: OffsetLayout,
}

impl Grid {
    pub fn len(&self) -> usize {
        (self.cols * self.rows) as usize
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    pub fn index(&self, col: i32, row: i32) -> Option<usize> {
        ((0..self.cols).contains(&col) && (0..self.rows).contains(&row)).then(|| (row * self.cols + col) as usize)
    }

    pub fn coords(&self, i: usize) -> (i32, i32) {
        (i as i32 % self.cols, i as i32 / self.cols)
    }

    /// The neighbour of hex `i` in direction `d`, if it lies on the grid.
    pub fn neighbour(&self, i: usize, d: Dir) -> Option<usize> {
        let (c, r) = self.coords(i);
        let (nc, nr) = self.layout.neighbour(c, r, d);
        self.index(nc, nr)
    }

    pub fn distance(&self, a: usize, b: usize) -> u32 {
        self.layout.distance(self.coords(a), self.coords(b))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn odd_q_neighbours_match_red_blob() {
        // Even (unshoved) column 2, row 2.
        let l = OffsetLayout::OddQ;
        let got: Vec<_> = Dir::ALL.iter().map(|&d| l.neighbour(2, 2, d)).collect();
        assert_eq!(got, vec![(2, 1), (3, 1), (3, 2), (2, 3), (1, 2), (1, 1)]);
        // Odd (shoved) column 3, row 2.
        let got: Vec<_> = Dir::ALL.iter().map(|&d| l.neighbour(3, 2, d)).collect();
        assert_eq!(got, vec![(3, 1), (4, 2), (4, 3), (3, 3), (2, 3), (2, 2)]);
    }

    #[test]
    fn even_q_is_the_mirror() {
        let l = OffsetLayout::EvenQ;
        let got: Vec<_> = Dir::ALL.iter().map(|&d| l.neighbour(2, 2, d)).collect();
        assert_eq!(got, vec![(2, 1), (3, 2), (3, 3), (2, 3), (1, 3), (1, 2)]);
    }

    #[test]
    fn axial_round_trip_and_distance() {
        for layout in [OffsetLayout::OddQ, OffsetLayout::EvenQ] {
            for c in -3..8 {
                for r in -3..8 {
                    assert_eq!(layout.from_axial(layout.to_axial(c, r)), (c, r));
                    for d in Dir::ALL {
                        let n = layout.neighbour(c, r, d);
                        assert_eq!(layout.distance((c, r), n), 1);
                        assert_eq!(layout.neighbour(n.0, n.1, d.opposite()), (c, r));
                    }
                }
            }
            assert_eq!(layout.distance((0, 0), (0, 5)), 5);
            assert_eq!(layout.distance((0, 0), (4, 0)), 4);
        }
        assert_eq!(Axial::new(0, 0).distance(Axial::new(3, -1)), 3);
        assert_eq!(Axial::new(0, 0).direction_to(Axial::new(1, 0)), Some(Dir::SE));
        assert_eq!(Axial::new(0, 0).direction_to(Axial::new(2, 0)), None);
    }

    #[test]
    fn grid_bounds_and_names() {
        let g = Grid { cols: 4, rows: 3, layout: OffsetLayout::OddQ };
        assert_eq!(g.len(), 12);
        assert_eq!(g.index(4, 0), None);
        assert_eq!(g.coords(g.index(3, 2).unwrap()), (3, 2));
        assert_eq!(g.neighbour(0, Dir::N), None);
        assert_eq!(g.neighbour(0, Dir::S), Some(4));
        assert_eq!(g.distance(0, 11), 4);
        assert_eq!(Dir::from_name("SW"), Some(Dir::SW));
        assert_eq!(Dir::SW.name(), "SW");
        assert_eq!(Dir::from_index(6), None);
    }
}
