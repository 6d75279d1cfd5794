//! Complete games, the shared conformance suite (plain and explicit_chance) on every covered
//! configuration, determinism.

use kassen_core::game::Game;
use kassen_core::games::three_kingdoms_redux::Tkr;
use serde_json::Value;

use super::common::*;

#[test]
fn random_games_end_in_every_covered_config() {
    for cfg in cfg_all() {
        let g = game(cfg.clone());
        for seed in 0..6 {
            let (s, n) = random_game(&g, seed);
            assert!(s.is_over(), "{cfg}: not over");
            assert!(n > 100, "{cfg}: suspiciously short game ({n} steps)");
            let r = g.returns(&s);
            assert!((r.iter().sum::<f64>()).abs() < 1e-9);
            assert_eq!(r.iter().filter(|&&x| x == 1.0).count(), 1);
        }
    }
}

#[test]
fn conformance_suite_every_covered_config() {
    // covered_configs(id) also lists the last config with explicit_chance
    let mut configs = kassen_core::covered_configs(Tkr::ID);
    for c in Tkr::covered_configs() {
        let mut e = c.as_object().unwrap().clone();
        e.insert("explicit_chance".into(), Value::Bool(true));
        configs.push(Value::Object(e));
    }
    kassen_core::testing::on_every_core(&configs, |cfg| {
        let g = kassen_core::load_game(Tkr::ID, Some(cfg)).unwrap();
        let seeds: &[u64] = if cfg.as_object().is_some_and(|m| m.len() <= 1) { &[1, 2] } else { &[3] };
        let report = g.conformance(seeds).unwrap_or_else(|e| panic!("{cfg}: {e}"));
        assert_eq!(report.games as usize, seeds.len());
        assert!(report.hidden_variants > 0, "{cfg}: determinizations never varied");
    });
}
