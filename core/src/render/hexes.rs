//! Flat-top hex drawing over the shared hex geometry ([`crate::hex`]).

use crate::hex::Axial;

/// Pixel centre of an axial hex for flat-top hexes of circumradius `size`.
pub fn centre(a: Axial, size: f64) -> (f64, f64) {
    let x = size * 1.5 * a.q as f64;
    let y = size * 3f64.sqrt() * (a.r as f64 + a.q as f64 / 2.0);
    (x, y)
}

/// The six corners of the flat-top hex centred on `(x, y)`.
pub fn corners(x: f64, y: f64, size: f64) -> Vec<(f64, f64)> {
    (0..6)
        .map(|i| {
            let angle = std::f64::consts::PI / 3.0 * i as f64;
            (x + size * angle.cos(), y + size * angle.sin())
        })
        .collect()
}

/// The bounding box `(min_x, min_y, max_x, max_y)` of hexes centred on `centres`.
pub fn bounds(centres: impl Iterator<Item = (f64, f64)>, size: f64) -> (f64, f64, f64, f64) {
    let mut b = (f64::MAX, f64::MAX, f64::MIN, f64::MIN);
    for (x, y) in centres {
        b = (b.0.min(x - size), b.1.min(y - size), b.2.max(x + size), b.3.max(y + size));
    }
    if b.0 > b.2 {
        (0.0, 0.0, 0.0, 0.0)
    } else {
        b
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::hex::Dir;

    #[test]
    fn neighbours_are_one_hex_width_apart() {
        let o = Axial::new(2, 3);
        let (x0, y0) = centre(o, 10.0);
        for d in Dir::ALL {
            let (x, y) = centre(o.neighbour(d), 10.0);
            let dist = ((x - x0).powi(2) + (y - y0).powi(2)).sqrt();
            assert!((dist - 10.0 * 3f64.sqrt()).abs() < 1e-9, "{d:?}: {dist}");
        }
        assert_eq!(corners(0.0, 0.0, 1.0).len(), 6);
    }
}
