use kassen_core::load_game;
use kassen_core::rng::Rng;
fn main() {
    let args: Vec<String> = std::env::args().collect();
    let id = &args[1];
    let steps: usize = args[2].parse().unwrap();
    let obs: i32 = args[3].parse().unwrap();
    let g = load_game(id, None).unwrap();
    let mut s = g.new_initial_state(1);
    let mut rng = Rng::from_seed(7);
    for _ in 0..steps {
        if s.is_terminal() {
            break;
        }
        let l = s.legal_actions();
        s.apply_in_place(l[rng.below(l.len() as u32) as usize]).unwrap();
    }
    print!("{}", s.render_svg(obs).unwrap());
}
