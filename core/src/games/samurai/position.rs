//! Constructed positions: what a `State` built by hand (without the history that led to it)
//! must satisfy, and the sample of its hidden parts from one seat's view.
//!
//! [`validate_position`] checks every value against the component data and every invariant
//! of the rules that a reachable state keeps: each seat's 20 tokens are each in exactly one
//! place (hand, stack, board, discarded exchange, or the token being re-placed), the figures
//! add up per type (supply + board + set aside + captured = per type, 2.1), settlements hold
//! no more than their slots, a surrounded settlement has been resolved (5.4) and a resolved
//! one is empty, hand sizes follow 4.2 and 5.5-5.6, and the game is over exactly when one of
//! its end conditions (6.1, 6.2, N9) holds. Each error names the field and the rule.
//!
//! [`sample_position`]: the hidden parts are the tokens behind other seats' screens (which of
//! a seat's unplayed tokens are in its hand rather than its stack, 4.2-4.3) and, with 3-4
//! players before the end, the types of other seats' captured figures (3.3). The sample deals
//! each hidden hand uniformly among the seat's unplayed tokens and draws the captured types
//! uniformly among the tables with the counts the view shows (RULES_NOTES.md N17). The
//! invariants the rulebook implies without stating them: RULES_NOTES.md N16.

use super::state::{cell_owner, cell_token, EndReason, Pending, Phase, State, Turn, EMPTY};
use super::{bits, HexKind, Samurai, TokenKind, HAND};
use crate::game::Player;
use crate::rng::Rng;

/// Checks a constructed position (see the module comment).
pub fn validate_position(g: &Samurai, s: &State) -> Result<(), String> {
    shape(g, s)?;
    let board = board_tokens(g, s)?;
    tokens(g, s, &board)?;
    figures(g, s)?;
    turn(g, s, &board)?;
    end(g, s)
}

/// Sizes, seats and indices in bounds.
fn shape(g: &Samurai, s: &State) -> Result<(), String> {
    let d = g.data();
    if s.cells.len() != d.hexes.len() {
        return Err(format!("cells: {} entries, the board has {} hexes (§1)", s.cells.len(), d.hexes.len()));
    }
    if s.figures.len() != d.settlements.len() {
        return Err(format!("figures: {} entries, the board has {} settlements (§1)", s.figures.len(), d.settlements.len()));
    }
    if s.seat as usize >= g.n {
        return Err(format!("seat: {} is not a seat of a {}-player game", s.seat, g.n));
    }
    for p in 0..4 {
        let in_game = p < g.n;
        if s.hands[p] & !g.all_tokens != 0 || (!in_game && s.hands[p] != 0) {
            return Err(format!("hands[{p}]: holds a token that does not exist (§2.1)"));
        }
        if s.stacks[p] & !g.all_tokens != 0 || (!in_game && s.stacks[p] != 0) {
            return Err(format!("stacks[{p}]: holds a token that does not exist (§2.1)"));
        }
        if !in_game && s.captured[p] != [0; 3] {
            return Err(format!("captured[{p}]: seat {p} is not in a {}-player game", g.n));
        }
    }
    let in_play: u64 = g.settlements.iter().fold(0, |m, &st| m | 1 << st);
    if let Some(st) = (0..64).find(|&st| s.resolved & !in_play & (1 << st) != 0) {
        return Err(format!("resolved: settlement {st} is not on the {}-player board (§1)", g.n));
    }
    for (st, &m) in s.figures.iter().enumerate() {
        if m & !0b111 != 0 {
            return Err(format!("figures[{st}]: {m:#b} names a figure type beyond the three (§2.1)"));
        }
        if m != 0 && in_play & (1 << st) == 0 {
            return Err(format!("figures[{st}]: a figure on a settlement that is not on the {}-player board (§4.4)", g.n));
        }
        let slots = d.settlements[st].kind.slots();
        if m.count_ones() as u8 > slots {
            return Err(format!("figures[{st}]: {} figures on a {} of {slots} (§4.4-4.7)", m.count_ones(), d.settlements[st].kind.name()));
        }
    }
    Ok(())
}

/// Per seat: the tokens on the board. Checks each occupied hex (5.3) and that no token is
/// there twice (2.1).
fn board_tokens(g: &Samurai, s: &State) -> Result<[u32; 4], String> {
    let d = g.data();
    let mut board = [0u32; 4];
    for (h, &c) in s.cells.iter().enumerate() {
        if c == EMPTY {
            continue;
        }
        let (p, t) = (cell_owner(c), cell_token(c));
        if p >= g.n || t as usize >= d.tokens.len() {
            return Err(format!("cells[{h}]: {c} is no token of a seat in this game (§2.1)"));
        }
        if !g.in_play[h] {
            return Err(format!("cells[{h}]: the hex is not on the {}-player board (§1)", g.n));
        }
        let token = &d.tokens[t as usize];
        let want = match token.kind {
            TokenKind::Ship => HexKind::Sea,
            TokenKind::FigureSwap => return Err(format!("cells[{h}]: the figure exchange token never stands on the board (§2.4)")),
            _ => HexKind::Land,
        };
        let kind = d.hexes[h].kind;
        if kind != want {
            return Err(format!("cells[{h}]: {} on a {} hex; ships go on sea, other tokens on land (§5.3)", token.name, kind.name()));
        }
        if board[p] & (1 << t) != 0 {
            return Err(format!("cells[{h}]: token {t} of seat {p} is on the board twice (§2.1)"));
        }
        board[p] |= 1 << t;
    }
    Ok(board)
}

/// Each seat's tokens: every one in exactly one place, hand sizes by phase.
fn tokens(g: &Samurai, s: &State, board: &[u32; 4]) -> Result<(), String> {
    let d = g.data();
    let setup = matches!(s.phase, Phase::ChooseTokens | Phase::PlaceFigures);
    if setup && board.iter().any(|&b| b != 0) {
        return Err("cells: tokens on the board before play begins (§4.8)".into());
    }
    for (p, &on_board) in board.iter().enumerate().take(g.n) {
        let (hand, stack) = (s.hands[p], s.stacks[p]);
        if hand & stack != 0 {
            return Err(format!("hands[{p}]: a token both behind the screen and in the stack (§4.3)"));
        }
        if (hand | stack) & on_board != 0 {
            return Err(format!("cells: a token of seat {p} is on the board and in its hand or stack (§2.1)"));
        }
        if hand.count_ones() > HAND {
            return Err(format!("hands[{p}]: {} tokens behind the screen, at most {HAND} (§4.2)", hand.count_ones()));
        }
        let kept = match s.phase {
            Phase::ChooseTokens => (p as u8) < s.seat,
            _ => true,
        };
        if s.phase == Phase::ChooseTokens && !kept {
            let ok = stack == 0 && if p as u8 == s.seat { hand.count_ones() < HAND } else { hand == 0 };
            if !ok {
                return Err(format!("hands[{p}]: seat {p} has not finished keeping its tokens (seat {} keeps now) (§4.2)", s.seat));
            }
            continue;
        }
        if setup && (hand.count_ones() != HAND || stack != g.all_tokens & !hand) {
            return Err(format!("stacks[{p}]: after keeping 5 tokens the other 15 form the stack (§4.2-4.3)"));
        }
        // Every token not in hand, stack or on the board has left the game: the figure exchange
        // (2.4), or the token the current seat picked up and is re-placing (2.4).
        let mut away = g.all_tokens & !(hand | stack | on_board);
        away &= !(1 << d.figure_swap);
        if let (Phase::Play, Pending::ReplaceToken { token }) = (s.phase, s.turn.pending) {
            if p == s.seat as usize && (token as usize) < d.tokens.len() {
                away &= !(1 << token);
            }
        }
        if let Some(t) = bits(away).next() {
            return Err(format!(
                "hands[{p}]: token {t} ({}) of seat {p} is nowhere: not in hand, stack or on the board (§2.1)",
                d.tokens[t as usize].name
            ));
        }
        if setup {
            continue;
        }
        // 5.5-5.6: a hand is refilled to 5 while the stack lasts.
        let short = hand.count_ones() < HAND && stack != 0;
        let current = p == s.seat as usize;
        match s.phase {
            Phase::Refill if current => {
                if !short {
                    return Err(format!("hands[{p}]: a refill with a full hand or an empty stack (§5.5)"));
                }
            }
            Phase::Play | Phase::Over if current => {
                let before = hand.count_ones() + s.turn.played as u32;
                if before > HAND || (before < HAND && stack != 0) {
                    return Err(format!(
                        "hands[{p}]: {} in hand and {} played this turn, the turn began with a hand refilled to {HAND} (§5.5)",
                        hand.count_ones(),
                        s.turn.played
                    ));
                }
            }
            _ => {
                if short {
                    return Err(format!("hands[{p}]: {} tokens behind the screen with tokens left in the stack (§5.5)", hand.count_ones()));
                }
            }
        }
    }
    Ok(())
}

/// Figures: per-type totals, settlement contents by phase, resolution.
fn figures(g: &Samurai, s: &State) -> Result<(), String> {
    let d = g.data();
    for f in 0..3 {
        let standing = s.figures.iter().filter(|&&m| m & (1 << f) != 0).count() as u32;
        if standing != s.on_board[f] as u32 {
            return Err(format!(
                "on_board[{f}]: {} but {standing} {} figures stand on settlements (§2.1)",
                s.on_board[f],
                super::FIGURE_TYPES[f]
            ));
        }
        let captured: u32 = s.captured.iter().map(|c| c[f] as u32).sum();
        let total = s.supply[f] as u32 + s.on_board[f] as u32 + s.set_aside[f] as u32 + captured;
        if total != g.per_type as u32 {
            return Err(format!(
                "supply[{f}]: supply + board + set aside + captured = {total} {} figures, the game has {} (§2.1)",
                super::FIGURE_TYPES[f],
                g.per_type
            ));
        }
    }
    let edo = g.settlements.iter().copied().find(|&st| d.settlements[st as usize].kind == HexKind::Edo).expect("checked at setup") as usize;
    if !s.is_resolved(edo) && s.figures[edo] != 0b111 {
        return Err(format!("figures[{edo}]: Edo holds one figure of each type until it is surrounded (§4.4, N3)"));
    }
    let surrounded = |st: usize| {
        let land = &d.settlements[st].land;
        !land.is_empty() && land.iter().all(|&l| s.cells[l as usize] != EMPTY)
    };
    match s.phase {
        Phase::ChooseTokens | Phase::PlaceFigures => {
            if s.resolved != 0 || s.set_aside != [0; 3] || s.captured != [[0; 3]; 4] {
                return Err("resolved: nothing is captured or set aside before play begins (§4.8)".into());
            }
            if s.phase == Phase::ChooseTokens && s.on_board != [1; 3] {
                return Err("on_board: only Edo's figures stand while tokens are kept (§4.4-4.5)".into());
            }
            if s.phase == Phase::PlaceFigures {
                if s.supply == [0; 3] {
                    return Err("supply: empty, so play has begun (§4.8)".into());
                }
                // N1: cities are filled before any village.
                let cities_full = g.cities.iter().all(|&c| s.figures[c as usize].count_ones() == 2);
                if !cities_full && g.villages.iter().any(|&v| s.figures[v as usize] != 0) {
                    return Err("figures: a village holds a figure while a city has room (§4.5-4.7, N1)".into());
                }
                let placed: u32 = s.on_board.iter().map(|&x| x as u32).sum::<u32>() - 3;
                if placed % g.n as u32 != s.seat as u32 {
                    return Err(format!(
                        "seat: {placed} figures placed, so seat {} places next, not {} (§4.5)",
                        placed % g.n as u32,
                        s.seat
                    ));
                }
            }
        }
        Phase::Play | Phase::Refill | Phase::Over => {
            if s.supply != [0; 3] {
                return Err("supply: figures left to place after play began (§4.8)".into());
            }
            let exact =
                g.settlements.iter().map(|&st| d.settlements[st as usize].kind.slots() as u32).sum::<u32>() == 3 * g.per_type as u32;
            let mut freed = 0u32;
            for &st in &g.settlements {
                let st = st as usize;
                let slots = d.settlements[st].kind.slots();
                if s.is_resolved(st) {
                    if s.figures[st] != 0 {
                        return Err(format!("figures[{st}]: a resolved settlement still holds figures (§3.3-3.4)"));
                    }
                    if !surrounded(st) {
                        return Err(format!("resolved: settlement {st} is resolved but not surrounded (§3.1)"));
                    }
                    freed += slots as u32;
                } else {
                    if surrounded(st) {
                        return Err(format!("resolved: settlement {st} is surrounded but not resolved (§5.4)"));
                    }
                    // 4.4-4.7 fill every settlement when the figures match the slots; exchanges
                    // (2.4) keep each settlement's count.
                    if exact && s.figures[st].count_ones() as u8 != slots {
                        return Err(format!(
                            "figures[{st}]: {} figures on a {} of {slots} slots (§4.4-4.7, §2.4)",
                            s.figures[st].count_ones(),
                            d.settlements[st].kind.name()
                        ));
                    }
                }
            }
            let gone: u32 =
                s.set_aside.iter().map(|&x| x as u32).sum::<u32>() + s.captured.iter().flatten().map(|&x| x as u32).sum::<u32>();
            if exact && gone != freed {
                return Err(format!("captured: {gone} figures captured or set aside, the resolved settlements held {freed} (§3.3-3.4)"));
            }
        }
    }
    Ok(())
}

/// The turn record and the half-made decision.
fn turn(g: &Samurai, s: &State, board: &[u32; 4]) -> Result<(), String> {
    let d = g.data();
    let seat = s.seat as usize;
    let t = s.turn;
    match s.phase {
        Phase::ChooseTokens | Phase::PlaceFigures => {
            if t != Turn::NEW || s.passes != 0 {
                return Err("turn: no turn is under way during setup (§4)".into());
            }
            return Ok(());
        }
        Phase::Refill | Phase::Over => {
            if t.pending != Pending::None {
                return Err("turn.pending: only the player to act has a half-made decision (§2.4)".into());
            }
        }
        Phase::Play => {}
    }
    if t.played as usize > d.tokens.len() {
        return Err(format!("turn.played: {} tokens, a seat has {} (§2.1)", t.played, d.tokens.len()));
    }
    if t.normal_used && t.played == 0 {
        return Err("turn.normal_used: set before any token was played (§5.2)".into());
    }
    match t.pending {
        Pending::None => {}
        Pending::SwapFigure { settlement, figure } => {
            let st = settlement as usize;
            if figure > 2 || st >= s.figures.len() || s.figures[st] & (1 << figure) == 0 {
                return Err(format!(
                    "turn.pending: the first figure of the exchange ({figure} at settlement {settlement}) is not on the board (§2.4)"
                ));
            }
            if t.played == 0 || (s.hands[seat] | s.stacks[seat]) & (1 << d.figure_swap) != 0 {
                return Err("turn.pending: a figure exchange under way but the exchange token was not played (§2.4)".into());
            }
        }
        Pending::ReplaceToken { token } => {
            let ok_token = d.tokens.get(token as usize).is_some_and(|x| x.exchangeable());
            if !ok_token || (s.hands[seat] | s.stacks[seat] | board[seat]) & (1 << token) != 0 {
                return Err(format!("turn.pending: token {token} is not a picked-up token of seat {seat} (§2.4, N4)"));
            }
            if !t.normal_used || board[seat] & (1 << d.token_swap) == 0 {
                return Err("turn.pending: a token is re-placed but the token exchange is not on the board (§2.4, N4)".into());
            }
        }
    }
    if s.passes as usize > g.n {
        return Err(format!("passes: {} consecutive passes in a {}-player game (N9)", s.passes, g.n));
    }
    Ok(())
}

/// The end: over exactly when an end condition holds, with that reason.
fn end(g: &Samurai, s: &State) -> Result<(), String> {
    let setup = matches!(s.phase, Phase::ChooseTokens | Phase::PlaceFigures);
    let exhausted = (0..3u8).find(|&f| s.on_board[f as usize] == 0);
    let set_aside: u32 = s.set_aside.iter().map(|&x| x as u32).sum();
    let four = set_aside >= super::scoring::SET_ASIDE_LIMIT as u32;
    let passes = s.passes as usize >= g.n;
    if s.phase != Phase::Over {
        if s.end.is_some() {
            return Err("end: set while the game is not over (§6)".into());
        }
        if setup {
            return Ok(());
        }
        if let Some(f) = exhausted {
            return Err(format!("on_board[{f}]: no {} figure is left, so the game is over (§6.1)", super::FIGURE_TYPES[f as usize]));
        }
        if four {
            return Err(format!("set_aside: {set_aside} figures set aside, so the game is over (§6.2)"));
        }
        if passes {
            return Err("passes: a whole round of passes, so the game is over (N9)".into());
        }
        return Ok(());
    }
    let ok = match s.end {
        None => return Err("end: the game is over without a reason (§6)".into()),
        Some(EndReason::TypeExhausted(f)) => exhausted == Some(f) && !passes,
        Some(EndReason::FourSetAside) => exhausted.is_none() && four && !passes,
        Some(EndReason::NobodyCanPlay) => exhausted.is_none() && !four && s.passes as usize == g.n && s.turn.played == 0,
    };
    if !ok {
        return Err(format!("end: {:?} does not match the board and the figures (§6.1-6.2, N9)", s.end.expect("some")));
    }
    Ok(())
}

// === Sampling the hidden parts from a view ===

/// A position that `observer` cannot tell from `s` (the same view), with the hidden parts
/// drawn uniformly from `rng` (see the module comment), and a generator drawn from `rng`.
pub fn sample_position(g: &Samurai, s: &State, observer: Player, rng: &mut Rng) -> State {
    let mut t = s.clone();
    let setup = matches!(s.phase, Phase::ChooseTokens | Phase::PlaceFigures);
    for p in 0..g.n {
        if p as Player == observer || s.phase == Phase::Over {
            // A seat sees its own hand and stack; at the end every hand is shown (7.1) and the
            // stack is then what is neither shown nor used.
            continue;
        }
        // The view shows the used tokens (played or discarded) and the hand size, so the
        // unplayed tokens are known as a set, never which of them are in the hand.
        let pool = if setup { g.all_tokens } else { s.hands[p] | s.stacks[p] };
        let hand = choose(pool, s.hands[p].count_ones(), rng);
        t.hands[p] = hand;
        t.stacks[p] = if s.stacks[p] == 0 && setup { 0 } else { pool & !hand };
    }
    if g.n > 2 && s.phase != Phase::Over {
        deal_captured(g, s, &mut t, observer, rng);
    }
    t.rng = Rng::from_seed(rng.next_u64());
    t
}

/// `k` tokens of `pool`, uniformly.
fn choose(pool: u32, k: u32, rng: &mut Rng) -> u32 {
    let mut left = pool;
    let mut out = 0;
    for _ in 0..k {
        let t = bits(left).nth(rng.below(left.count_ones()) as usize).expect("k <= popcount");
        out |= 1 << t;
        left &= !(1 << t);
    }
    out
}

/// 3.3 with 3-4 players: the types of other seats' captured figures, uniformly among the
/// tables whose seat totals (shown) and type totals (what is neither on the board, set aside
/// nor the observer's) match.
fn deal_captured(g: &Samurai, s: &State, t: &mut State, observer: Player, rng: &mut Rng) {
    let hidden: Vec<usize> = (0..g.n).filter(|&p| p as Player != observer).collect();
    let rows: Vec<u32> = hidden.iter().map(|&p| s.captured[p].iter().map(|&x| x as u32).sum()).collect();
    let cols: [u32; 3] = std::array::from_fn(|f| hidden.iter().map(|&p| s.captured[p][f] as u32).sum());
    let mut tables = Vec::new();
    fill(&rows, cols, &mut Vec::new(), &mut tables);
    let pick = &tables[rng.below(tables.len() as u32) as usize];
    for (i, &p) in hidden.iter().enumerate() {
        t.captured[p] = pick[i].map(|x| x as u8);
    }
}

/// Every table of rows (one per hidden seat) with these row and column sums.
fn fill(rows: &[u32], cols: [u32; 3], done: &mut Vec<[u32; 3]>, out: &mut Vec<Vec<[u32; 3]>>) {
    let Some((&r, rest)) = rows.split_first() else {
        if cols == [0; 3] {
            out.push(done.clone());
        }
        return;
    };
    for a in 0..=r.min(cols[0]) {
        for b in 0..=(r - a).min(cols[1]) {
            let c = r - a - b;
            if c > cols[2] {
                continue;
            }
            done.push([a, b, c]);
            fill(rest, [cols[0] - a, cols[1] - b, cols[2] - c], done, out);
            done.pop();
        }
    }
}

#[cfg(test)]
#[path = "position_tests.rs"]
mod tests;
