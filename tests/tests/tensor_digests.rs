//! Golden observation tensors: for every registered game, covered config
//! ([`kassen_core::covered_configs`]) and seed, a random game (the one
//! [`kassen_core::testing::random_playout`] plays) is observed by every seat and the spectator
//! at every state, and a 64-bit digest of the bit patterns of all those f32 values is compared
//! with tests/golden/tensors/digests.json, together with a digest of the observation layout.
//! Encoders may be rewritten for speed, but the tensors they write must stay bit-identical.
//!
//! `KASSEN_BLESS=1 cargo test -p kassen-tests golden` rewrites the file (review the diff: a
//! changed digest means a changed tensor).

use std::fmt::Write as _;
use std::path::PathBuf;

use kassen_core::rng::Rng;
use kassen_core::{covered_configs, games, load_game, testing, SPECTATOR};
use serde_json::Value;

const SEEDS: [u64; 8] = [1, 2, 3, 4, 5, 6, 7, 8];

fn path() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("golden").join("tensors").join("digests.json")
}

/// 64-bit FNV-1a: stable across platforms and releases (unlike `std`'s hashers).
struct Fnv(u64);

impl Fnv {
    fn new() -> Self {
        Fnv(0xcbf2_9ce4_8422_2325)
    }
    fn bytes(&mut self, b: &[u8]) {
        for &x in b {
            self.0 ^= u64::from(x);
            self.0 = self.0.wrapping_mul(0x0000_0100_0000_01b3);
        }
    }
    fn u64(&mut self, x: u64) {
        self.bytes(&x.to_le_bytes());
    }
    fn f32(&mut self, x: f32) {
        self.bytes(&x.to_bits().to_le_bytes());
    }
}

/// One line of the file: the digests of one game, config and seed.
fn entry(id: &str, config: &Value, seed: u64) -> Value {
    let game = load_game(id, Some(config)).unwrap_or_else(|e| panic!("{id} {config}: {e}"));
    let info = game.info().clone();
    let mut layout = Fnv::new();
    for &d in &info.observation_shape {
        layout.u64(d as u64);
    }
    for f in &info.observation_layout {
        layout.bytes(f.name.as_bytes());
        layout.u64(f.offset as u64);
        layout.u64(f.length as u64);
        layout.f32(f.low);
        layout.f32(f.high);
        layout.bytes(f.description.as_bytes());
    }
    // The same game as `testing::random_playout(seed)`, observed at every state.
    let mut rng = Rng::from_seed(seed ^ 0x5eed_1e55);
    let mut state = game.new_initial_state(seed);
    let mut legal = Vec::new();
    let mut buf = vec![0.0f32; info.observation_len()];
    let mut tensors = Fnv::new();
    let mut states = 0u64;
    loop {
        for p in SPECTATOR..info.num_players as i32 {
            // Poison the buffer: the digest must not depend on what it held before.
            buf.fill(f32::from_bits(0x7fc0_dead));
            state.observation_tensor_into(p, &mut buf).unwrap_or_else(|e| panic!("{id}: observation of {p}: {e}"));
            for &x in &buf {
                tensors.f32(x);
            }
        }
        states += 1;
        if state.is_terminal() {
            break;
        }
        legal.clear();
        state.legal_actions_into(&mut legal);
        let a = legal[rng.below(legal.len() as u32) as usize];
        state.apply_in_place(a).unwrap_or_else(|e| panic!("{id}: legal action {a} rejected: {e}"));
    }
    let (replayed, _) = testing::random_playout(&*game, seed);
    assert!(replayed == state, "{id} {config} seed {seed}: not the game random_playout plays");
    serde_json::json!({
        "game": id,
        "config": config,
        "seed": seed,
        "states": states,
        "observation_len": info.observation_len(),
        "layout": format!("{:016x}", layout.0),
        "tensors": format!("{:016x}", tensors.0),
    })
}

/// The file: a JSON array, one entry per line.
fn render(entries: &[Value]) -> String {
    let mut s = String::from("[\n");
    for (i, e) in entries.iter().enumerate() {
        let sep = if i + 1 < entries.len() { "," } else { "" };
        writeln!(s, "  {e}{sep}").unwrap();
    }
    s.push_str("]\n");
    s
}

#[test]
fn tensor_golden_digests_match_the_file() {
    let mut entries = Vec::new();
    for (id, _) in games() {
        for config in covered_configs(id) {
            for seed in SEEDS {
                entries.push(entry(id, &config, seed));
            }
        }
    }
    let text = render(&entries);
    let path = path();
    if std::env::var("KASSEN_BLESS").as_deref() == Ok("1") {
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, &text).unwrap_or_else(|e| panic!("write {}: {e}", path.display()));
        return;
    }
    let stored = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("read {}: {e}", path.display()));
    let stored: Vec<Value> = serde_json::from_str(&stored).unwrap_or_else(|e| panic!("parse {}: {e}", path.display()));
    let changed: Vec<String> = entries
        .iter()
        .zip(&stored)
        .filter(|(got, want)| got != want)
        .map(|(got, want)| format!("expected {want}\n     got {got}"))
        .collect();
    assert!(
        changed.is_empty() && stored.len() == entries.len(),
        "observation tensors changed ({} entries stored, {} generated):\n{}",
        stored.len(),
        entries.len(),
        changed.join("\n")
    );
}
