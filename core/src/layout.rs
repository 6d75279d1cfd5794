//! The observation layout: named feature ranges that tile a game's flat observation tensor
//! in order (contiguous, no gaps, no overlaps), each with the bounds its values lie in.
//!
//! Every registered game normalizes its tensor into `[0, 1]`: indicators are 0 or 1, counts
//! are divided by their largest possible value, and a value with no hard maximum is divided
//! by a documented cap and clamped. Each game declares its layout next to its tensor encoder;
//! the conformance suite checks the tiling and every value of every observer at every step.

use serde::{Deserialize, Serialize};

/// One named range of the observation tensor: `offset..offset + length`, every value in
/// `[low, high]`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Feature {
    pub name: String,
    pub offset: usize,
    pub length: usize,
    pub low: f32,
    pub high: f32,
    /// What the values mean (the order of interleaved entries, the divisor of a count).
    pub description: String,
}

/// Builds a layout in tensor order: each feature starts where the previous one ended.
#[derive(Clone, Debug, Default)]
pub struct LayoutBuilder {
    features: Vec<Feature>,
    next: usize,
}

impl LayoutBuilder {
    pub fn new() -> Self {
        Self::default()
    }

    /// Appends a feature of `length` values in `[0, 1]`.
    pub fn unit(mut self, name: impl Into<String>, length: usize, description: impl Into<String>) -> Self {
        let (name, description) = (name.into(), description.into());
        self.features.push(Feature { name, offset: self.next, length, low: 0.0, high: 1.0, description });
        self.next += length;
        self
    }

    /// The number of tensor values covered so far.
    pub fn len(&self) -> usize {
        self.next
    }

    pub fn is_empty(&self) -> bool {
        self.next == 0
    }

    pub fn build(self) -> Vec<Feature> {
        self.features
    }
}

/// The layout tiles a tensor of `len` values: non-empty features in order, each starting
/// where the previous one ended, the last ending at `len`; unique non-empty names; bounds
/// `[0, 1]` (the normalization every game keeps; the uint8 batch observation relies on it).
pub fn check_tiles(layout: &[Feature], len: usize) -> Result<(), String> {
    let mut next = 0;
    let mut names = std::collections::HashSet::new();
    for f in layout {
        if f.name.is_empty() || !names.insert(f.name.as_str()) {
            return Err(format!("observation feature name {:?} is empty or repeated", f.name));
        }
        if f.offset != next || f.length == 0 {
            return Err(format!("observation feature {} at {}+{} does not start at {next} or is empty", f.name, f.offset, f.length));
        }
        if f.low != 0.0 || f.high != 1.0 {
            return Err(format!("observation feature {} has bounds [{}, {}], not [0, 1]", f.name, f.low, f.high));
        }
        next += f.length;
    }
    if next != len {
        return Err(format!("the observation layout covers {next} values of a tensor of {len}"));
    }
    Ok(())
}

/// Every value of `tensor` is finite and within its feature's bounds (the layout is assumed
/// to tile it, see [`check_tiles`]).
pub fn check_values(layout: &[Feature], tensor: &[f32]) -> Result<(), String> {
    for f in layout {
        let values =
            tensor.get(f.offset..f.offset + f.length).ok_or_else(|| format!("observation feature {} is outside the tensor", f.name))?;
        if let Some((i, v)) = values.iter().enumerate().find(|(_, v)| !(v.is_finite() && **v >= f.low && **v <= f.high)) {
            return Err(format!(
                "observation feature {}[{i}] (tensor index {}) is {v}, outside [{}, {}]",
                f.name,
                f.offset + i,
                f.low,
                f.high
            ));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn two() -> Vec<Feature> {
        LayoutBuilder::new().unit("a", 2, "first").unit("b", 3, "second").build()
    }

    #[test]
    fn builder_places_features_end_to_end() {
        let l = two();
        assert_eq!((l[0].offset, l[0].length, l[1].offset, l[1].length), (0, 2, 2, 3));
        assert_eq!(check_tiles(&l, 5), Ok(()));
        assert!(check_tiles(&l, 6).is_err());
    }

    #[test]
    fn gaps_overlaps_and_repeated_names_are_rejected() {
        let mut gap = two();
        gap[1].offset = 3;
        assert!(check_tiles(&gap, 6).is_err());
        let mut overlap = two();
        overlap[1].offset = 1;
        assert!(check_tiles(&overlap, 4).is_err());
        let mut same = two();
        same[1].name = "a".into();
        assert!(check_tiles(&same, 5).unwrap_err().contains("repeated"));
        let mut wide = two();
        wide[0].low = -1.0;
        assert!(check_tiles(&wide, 5).unwrap_err().contains("not [0, 1]"));
    }

    #[test]
    fn values_outside_bounds_or_not_finite_are_rejected() {
        let l = two();
        assert_eq!(check_values(&l, &[0.0, 1.0, 0.5, 0.0, 1.0]), Ok(()));
        assert!(check_values(&l, &[0.0, 1.0, 0.5, 1.5, 1.0]).unwrap_err().contains("b[1]"));
        assert!(check_values(&l, &[f32::NAN, 1.0, 0.5, 0.0, 1.0]).is_err());
        assert!(check_values(&l, &[-0.1, 1.0, 0.5, 0.0, 1.0]).is_err());
    }
}
