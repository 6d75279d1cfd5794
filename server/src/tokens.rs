//! Game ids and seat tokens: random, tokens kept only as SHA-256 and compared in constant time.

use sha2::{Digest, Sha256};
use subtle::ConstantTimeEq;

/// Random bytes from the operating system.
fn random<const N: usize>() -> [u8; N] {
    let mut b = [0u8; N];
    getrandom::fill(&mut b).expect("the operating system gives random bytes");
    b
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// A new game id: 16 hex characters (64 random bits).
pub fn game_id() -> String {
    hex(&random::<8>())
}

/// A new seat token: 40 hex characters (160 random bits).
pub fn seat_token() -> String {
    hex(&random::<20>())
}

/// A seed a browser can hold exactly: below 2^53.
pub fn seed() -> u64 {
    u64::from_le_bytes(random::<8>()) >> 11
}

/// The SHA-256 of a token, as stored.
pub fn hash(token: &str) -> [u8; 32] {
    Sha256::digest(token.as_bytes()).into()
}

pub fn hash_hex(token: &str) -> String {
    hex(&hash(token))
}

/// A stored hash back from its hex (None for a malformed one).
pub fn parse_hash(text: &str) -> Option<[u8; 32]> {
    if text.len() != 64 {
        return None;
    }
    let mut out = [0u8; 32];
    for (i, o) in out.iter_mut().enumerate() {
        *o = u8::from_str_radix(text.get(2 * i..2 * i + 2)?, 16).ok()?;
    }
    Some(out)
}

/// The seat whose stored hash is the hash of `token`, comparing every seat in constant time.
pub fn find_seat<'a>(token: &str, seats: impl IntoIterator<Item = (i32, Option<&'a [u8; 32]>)>) -> Option<i32> {
    let h = hash(token);
    let mut found = None;
    for (seat, stored) in seats {
        if let Some(stored) = stored {
            if bool::from(stored.ct_eq(&h)) && found.is_none() {
                found = Some(seat);
            }
        }
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_are_long_random_and_found_by_hash() {
        let a = seat_token();
        let b = seat_token();
        assert_eq!(a.len(), 40);
        assert_ne!(a, b);
        let ha = hash(&a);
        let hb = parse_hash(&hash_hex(&b)).unwrap();
        let seats = [(0, Some(&ha)), (1, None), (2, Some(&hb))];
        assert_eq!(find_seat(&a, seats), Some(0));
        assert_eq!(find_seat(&b, seats), Some(2));
        assert_eq!(find_seat("nope", seats), None);
        assert_eq!(parse_hash("zz"), None);
        assert!(seed() < 1 << 53);
    }
}
