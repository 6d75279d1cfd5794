//! Bit masks as small sets (generals, blocks, regions): the set bits of a mask, ascending.

/// The set bits of `mask`, ascending.
pub fn bits(mask: u128) -> impl Iterator<Item = u8> {
    let mut m = mask;
    std::iter::from_fn(move || {
        if m == 0 {
            None
        } else {
            let i = m.trailing_zeros() as u8;
            m &= m - 1;
            Some(i)
        }
    })
}
