use kassen_core::*;
use std::time::Instant;
fn main() {
    let g = load_game("samurai", Some(&serde_json::json!({"players": 2}))).unwrap();
    let t = Instant::now(); let mut steps = 0u64; let mut legal = Vec::new();
    let mut r = kassen_core::rng::Rng::from_seed(1);
    for seed in 0..3000 { let mut s = g.new_initial_state(seed);
        while !s.is_terminal() { legal.clear(); s.legal_actions_into(&mut legal); let a = legal[r.below(legal.len() as u32) as usize]; s.apply_in_place(a).unwrap(); steps += 1; }
        steps += 0; }
    let e = t.elapsed().as_secs_f64(); println!("{} steps/s, {} games/s", steps as f64 / e, 3000.0/e);
}
