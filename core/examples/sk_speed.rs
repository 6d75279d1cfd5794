use kassen_core::events::Events;
use kassen_core::game::Game;
use kassen_core::games::sekigahara::Sekigahara;
use kassen_core::rng::Rng;
fn main() {
    let g = <Sekigahara as Game>::setup(&Default::default()).unwrap();
    let mut rng = Rng::from_seed(7);
    let mut legal = Vec::new();
    let t = std::time::Instant::now();
    let (mut steps, mut games) = (0u64, 0u64);
    while t.elapsed().as_secs_f64() < 3.0 {
        let mut s = g.new_initial_state(games);
        while !g.is_terminal(&s) {
            if g.current_player(&s) == -1 {
                let a = g.sample_chance(&mut s);
                g.apply(&mut s, a, &mut Events::off());
                steps += 1;
                continue;
            }
            legal.clear();
            g.legal_actions(&s, &mut legal);
            let a = legal[rng.below(legal.len() as u32) as usize];
            g.apply(&mut s, a, &mut Events::off());
            steps += 1;
        }
        games += 1;
    }
    let e = t.elapsed().as_secs_f64();
    println!("{:.0} steps/s, {:.1} us/game, {} steps/game", steps as f64 / e, e * 1e6 / games as f64, steps / games);
}
