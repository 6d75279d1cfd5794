//! The compact observation: what a seat may know, as bytes in the narrowest exact type.
//!
//! Where the float tensor ([`crate::layout`]) normalizes everything into `[0, 1]` and repeats
//! the static map, the compact observation writes each fact once, exactly: planes of bits for
//! yes/no facts per board place, bytes or little-endian 16-bit words for counts, tracks and
//! ids, entity lists where a board is sparse, and a few small records (the pending decision,
//! a battle) in the record encoding of [`record`]. Its layout is a list of [`CompactField`]s
//! that tile the byte vector in order; each game declares it beside its encoder
//! (`games/<id>/compact.rs`) and documents it field by field in `docs/rules/<id>.md`.
//!
//! Two promises, checked by the conformance suite (`testing::compact`): it is secret (a
//! seat's compact observation equals that of every determinization for it) and complete (two
//! states whose views differ for a seat give it different compact observations).

use serde::{Deserialize, Serialize};

pub mod record;

/// How the values of a field are stored.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Dtype {
    /// One bit per value, packed 8 to a byte from the least significant bit, the last byte
    /// padded with zeros (`numpy.unpackbits(..., bitorder="little")`).
    Bits,
    /// One byte per value.
    Uint8,
    /// Two bytes per value, little-endian.
    Uint16,
    /// Two bytes per value, little-endian two's complement.
    Int16,
    /// A record ([`record`]): a self-delimiting sequence of small integers, padded with
    /// zeros to the field's size. `shape` is its size in bytes.
    Record,
}

/// One named field: bytes `offset..offset + bytes`, holding `shape`'s product of values
/// stored as `dtype`, each in `[low, high]` (records: bytes in `[0, 255]`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CompactField {
    pub name: String,
    pub offset: usize,
    pub bytes: usize,
    pub dtype: Dtype,
    pub shape: Vec<usize>,
    pub low: i64,
    pub high: i64,
    /// What the values mean.
    pub description: String,
}

impl CompactField {
    /// The number of values (bits, bytes or words) of the field.
    pub fn count(&self) -> usize {
        self.shape.iter().product()
    }
}

/// Builds a compact layout in byte order: each field starts where the previous one ended.
#[derive(Clone, Debug, Default)]
pub struct CompactBuilder {
    fields: Vec<CompactField>,
    next: usize,
}

impl CompactBuilder {
    pub fn new() -> Self {
        Self::default()
    }

    fn push(mut self, name: &str, dtype: Dtype, shape: &[usize], (low, high): (i64, i64), description: &str) -> Self {
        let count: usize = shape.iter().product();
        let bytes = match dtype {
            Dtype::Bits => count.div_ceil(8),
            Dtype::Uint8 | Dtype::Record => count,
            Dtype::Uint16 | Dtype::Int16 => 2 * count,
        };
        self.fields.push(CompactField {
            name: name.into(),
            offset: self.next,
            bytes,
            dtype,
            shape: shape.to_vec(),
            low,
            high,
            description: description.into(),
        });
        self.next += bytes;
        self
    }

    /// A field of yes/no values, one bit each.
    pub fn bits(self, name: &str, shape: &[usize], description: &str) -> Self {
        self.push(name, Dtype::Bits, shape, (0, 1), description)
    }

    /// A field of bytes, each in `[0, high]`.
    pub fn u8(self, name: &str, shape: &[usize], high: u8, description: &str) -> Self {
        self.push(name, Dtype::Uint8, shape, (0, high.into()), description)
    }

    /// A field of little-endian 16-bit words, each in `[0, high]`.
    pub fn u16(self, name: &str, shape: &[usize], high: u16, description: &str) -> Self {
        self.push(name, Dtype::Uint16, shape, (0, high.into()), description)
    }

    /// A field of little-endian signed 16-bit words, each in `[low, high]`.
    pub fn i16(self, name: &str, shape: &[usize], low: i16, high: i16, description: &str) -> Self {
        self.push(name, Dtype::Int16, shape, (low.into(), high.into()), description)
    }

    /// A record of at most `bytes` bytes ([`record`]).
    pub fn record(self, name: &str, bytes: usize, description: &str) -> Self {
        self.push(name, Dtype::Record, &[bytes], (0, 255), description)
    }

    /// The bytes covered so far.
    pub fn len(&self) -> usize {
        self.next
    }

    pub fn is_empty(&self) -> bool {
        self.next == 0
    }

    pub fn build(self) -> Vec<CompactField> {
        self.fields
    }
}

/// The number of bytes a layout covers.
pub fn layout_len(layout: &[CompactField]) -> usize {
    layout.last().map_or(0, |f| f.offset + f.bytes)
}

/// Writes a compact observation in layout order. The buffer is cleared first (every field
/// starts at zero), so an encoder only writes what is set.
pub struct Writer<'a> {
    out: &'a mut [u8],
    at: usize,
}

impl<'a> Writer<'a> {
    /// Clears `out` and starts writing at its first byte.
    pub fn new(out: &'a mut [u8]) -> Self {
        out.fill(0);
        Writer { out, at: 0 }
    }

    pub fn u8(&mut self, v: u8) {
        self.out[self.at] = v;
        self.at += 1;
    }

    /// A signed word, saturated into 16 bits.
    pub fn i16(&mut self, v: i32) {
        let v = v.clamp(i16::MIN.into(), i16::MAX.into()) as i16;
        self.out[self.at..self.at + 2].copy_from_slice(&v.to_le_bytes());
        self.at += 2;
    }

    pub fn u16(&mut self, v: u16) {
        self.out[self.at..self.at + 2].copy_from_slice(&v.to_le_bytes());
        self.at += 2;
    }

    /// `n` bits, the low `n` bits of `mask` (a whole number of bytes: `ceil(n / 8)`).
    pub fn mask(&mut self, mask: u128, n: usize) {
        let bytes = n.div_ceil(8);
        let m = if n >= 128 { mask } else { mask & ((1u128 << n) - 1) };
        self.out[self.at..self.at + bytes].copy_from_slice(&m.to_le_bytes()[..bytes]);
        self.at += bytes;
    }

    /// A field of `n` bits, with a bit set at each index that `set` yields (each below `n`).
    pub fn bits(&mut self, n: usize, set: impl IntoIterator<Item = usize>) {
        for i in set {
            self.out[self.at + i / 8] |= 1 << (i % 8);
        }
        self.at += n.div_ceil(8);
    }

    /// The next `n` bytes, to fill in any order (they start at zero).
    pub fn take(&mut self, n: usize) -> &mut [u8] {
        let s = &mut self.out[self.at..self.at + n];
        self.at += n;
        s
    }

    /// A record field of `bytes` bytes holding `value` ([`record`]). A value that does not
    /// fit is cut (the conformance suite checks that none is).
    pub fn record<T: Serialize + ?Sized>(&mut self, bytes: usize, value: &T) {
        let field = &mut self.out[self.at..self.at + bytes];
        let n = record::write(value, field);
        debug_assert!(n <= bytes, "a record of {n} bytes in a field of {bytes} (at byte {})", self.at);
        self.at += bytes;
    }

    /// Skips `n` bytes (left at zero).
    pub fn skip(&mut self, n: usize) {
        self.at += n;
    }

    /// The number of bytes written or skipped so far.
    pub fn position(&self) -> usize {
        self.at
    }
}

/// The layout tiles a vector of `len` bytes: named fields in order, without gaps, with sizes
/// that fit their dtype and shape.
pub fn check_tiles(layout: &[CompactField], len: usize) -> Result<(), String> {
    let mut next = 0;
    let mut names = std::collections::HashSet::new();
    for f in layout {
        if f.name.is_empty() || !names.insert(f.name.as_str()) {
            return Err(format!("compact field name {:?} is empty or repeated", f.name));
        }
        if f.offset != next || f.bytes == 0 {
            return Err(format!("compact field {} at {}+{} does not start at {next} or is empty", f.name, f.offset, f.bytes));
        }
        let need = match f.dtype {
            Dtype::Bits => f.count().div_ceil(8),
            Dtype::Uint8 | Dtype::Record => f.count(),
            Dtype::Uint16 | Dtype::Int16 => 2 * f.count(),
        };
        if need != f.bytes || f.low > f.high {
            return Err(format!("compact field {} has {} bytes for {:?} of shape {:?}", f.name, f.bytes, f.dtype, f.shape));
        }
        next += f.bytes;
    }
    if next != len {
        return Err(format!("the compact layout covers {next} bytes of an observation of {len}"));
    }
    Ok(())
}

/// Every value of `obs` lies in its field's `[low, high]`, and the padding bits of bit fields
/// are zero.
pub fn check_values(layout: &[CompactField], obs: &[u8]) -> Result<(), String> {
    for f in layout {
        let b = obs.get(f.offset..f.offset + f.bytes).ok_or_else(|| format!("compact field {} is outside the observation", f.name))?;
        let bad = match f.dtype {
            Dtype::Bits => {
                let pad = f.bytes * 8 - f.count();
                (pad > 0 && b[f.bytes - 1] >> (8 - pad) != 0).then(|| "padding bits set".to_string())
            }
            Dtype::Uint8 => outside(f, b.iter().map(|&v| i64::from(v))),
            Dtype::Uint16 => outside(f, b.chunks(2).map(|w| i64::from(u16::from_le_bytes([w[0], w[1]])))),
            Dtype::Int16 => outside(f, b.chunks(2).map(|w| i64::from(i16::from_le_bytes([w[0], w[1]])))),
            Dtype::Record => None,
        };
        if let Some(why) = bad {
            return Err(format!("compact field {}: {why}", f.name));
        }
    }
    Ok(())
}

fn outside(f: &CompactField, values: impl Iterator<Item = i64>) -> Option<String> {
    values.enumerate().find(|&(_, v)| v < f.low || v > f.high).map(|(i, v)| format!("[{i}] = {v} outside [{}, {}]", f.low, f.high))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn builder_places_fields_end_to_end_and_writer_fills_them() {
        let l = CompactBuilder::new()
            .bits("a", &[10], "ten flags")
            .u8("b", &[2, 3], 7, "bytes")
            .u16("c", &[1], 300, "a word")
            .record("d", 4, "a record")
            .build();
        assert_eq!(l.iter().map(|f| (f.offset, f.bytes)).collect::<Vec<_>>(), vec![(0, 2), (2, 6), (8, 2), (10, 4)]);
        assert_eq!(layout_len(&l), 14);
        assert_eq!(check_tiles(&l, 14), Ok(()));
        assert!(check_tiles(&l, 15).is_err());
        let mut out = vec![0xAA; 14];
        let mut w = Writer::new(&mut out);
        w.bits(10, [0, 9]);
        w.take(6)[5] = 7;
        w.u16(300);
        w.record(4, &(Some(3u8), 2u16));
        assert_eq!(w.position(), 14);
        assert_eq!(out, vec![1, 2, 0, 0, 0, 0, 0, 7, 44, 1, 1, 3, 2, 0]);
        assert_eq!(check_values(&l, &out), Ok(()));
        out[1] = 4;
        assert!(check_values(&l, &out).unwrap_err().contains("padding"));
        out[1] = 2;
        out[7] = 8;
        assert!(check_values(&l, &out).unwrap_err().contains("b: [5] = 8 outside [0, 7]"));
    }

    #[test]
    fn masks_keep_their_low_bits() {
        let mut out = vec![0; 3];
        let mut w = Writer::new(&mut out);
        w.mask(0x1_FFFF, 12);
        w.mask(u128::MAX, 3);
        assert_eq!(out, vec![0xFF, 0x0F, 0x07]);
    }

    #[test]
    fn repeated_names_and_bad_sizes_are_rejected() {
        let mut l = CompactBuilder::new().u8("a", &[2], 1, "").u8("b", &[2], 1, "").build();
        l[1].name = "a".into();
        assert!(check_tiles(&l, 4).unwrap_err().contains("repeated"));
        let mut l = CompactBuilder::new().u16("a", &[2], 1, "").build();
        l[0].bytes = 2;
        assert!(check_tiles(&l, 2).is_err());
    }
}
