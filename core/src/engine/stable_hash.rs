//! Hashes that give the same value on every run and platform.

use std::hash::Hasher;

/// Folds `bytes` (an event's [`crate::events::Event::encode_key`]) into the information-state hash `h`,
/// eight bytes at a time: a multiply folded to 64 bits per word, the zero-padded tail and
/// the length last. Stable like [`StableHasher`], several times faster than its byte-wise FNV.
pub(super) fn fold_bytes(mut h: u64, bytes: &[u8]) -> u64 {
    const K: u64 = 0x9e37_79b9_7f4a_7c15;
    let mix = |x: u64| {
        let m = u128::from(x) * u128::from(K);
        (m as u64) ^ ((m >> 64) as u64)
    };
    let mut words = bytes.chunks_exact(8);
    for w in &mut words {
        h = mix(h ^ u64::from_le_bytes(w.try_into().expect("8 bytes")));
    }
    let mut tail = [0u8; 8];
    tail[..words.remainder().len()].copy_from_slice(words.remainder());
    h = mix(h ^ u64::from_le_bytes(tail));
    mix(h ^ bytes.len() as u64)
}

/// FNV-1a over the bytes `Hash` feeds it (integers little-endian), so hashes are stable.
#[derive(Clone, Copy)]
pub struct StableHasher(pub(super) u64);

impl Default for StableHasher {
    fn default() -> Self {
        StableHasher(0xcbf2_9ce4_8422_2325)
    }
}

impl Hasher for StableHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 ^= b as u64;
            self.0 = self.0.wrapping_mul(0x0100_0000_01b3);
        }
    }
    fn write_usize(&mut self, i: usize) {
        self.write(&(i as u64).to_le_bytes());
    }
    fn write_isize(&mut self, i: isize) {
        self.write(&(i as i64).to_le_bytes());
    }
}

#[cfg(test)]
mod tests {
    use super::fold_bytes;

    #[test]
    fn fold_bytes_tells_apart_tails_and_lengths() {
        let inputs: [&[u8]; 6] = [b"", b"\0", b"ab", b"ab\0", b"abcdefgh", b"abcdefgh\0"];
        let keys: Vec<u64> = inputs.iter().map(|b| fold_bytes(0, b)).collect();
        for i in 0..keys.len() {
            for j in 0..i {
                assert_ne!(keys[i], keys[j], "{:?} and {:?}", inputs[i], inputs[j]);
            }
        }
        assert_ne!(fold_bytes(1, b"ab"), fold_bytes(2, b"ab"));
        // Pinned: the keys must be the same on every platform and release.
        assert_eq!(fold_bytes(0xcbf2_9ce4_8422_2325, b"{\"kind\":\"x\"}"), PINNED);
    }

    const PINNED: u64 = 5_538_125_167_850_533_363;
}
