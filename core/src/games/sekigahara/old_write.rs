pub fn write_old(g: &Sekigahara, s: &State, player: Player, out: &mut [u8]) {
    let d = &g.data;
    let me: Option<u8> = (player != SPECTATOR).then_some(player as u8);
    let deployed = deployed_blocks(s);
    let mut w = Writer::new(out);
    w.u8(me.unwrap_or(2));
    // One pass over the blocks fills their places, their flags, the locations' counts and the
    // pools (the fields are adjacent in the layout).
    let (nb, nl) = (d.blocks.len(), d.locations.len());
    let (places, rest) = w.take(2 * nb + 6 * nl).split_at_mut(nb);
    let (flags, counts) = rest.split_at_mut(nb);
    let mut pools = [0u8; 7];
    for (i, (b, x)) in s.blocks.iter().zip(&d.blocks).enumerate() {
        // Its own blocks' places the observer knows even in the bag; their flags, and another
        // side's face-up blocks, once out of the bag.
        let own = me == Some(x.side);
        let shown = b.loc != BAG && (own || !face_down_given(s, i, &deployed));
        if own || shown {
            places[i] = b.loc + 1;
        }
        if shown {
            flags[i] = b.flags & (MOVED | MUSTERED | IN_CASTLE | SELECTED);
        }
        let side = x.side as usize;
        match b.loc {
            BAG => pools[side] += 1,
            BOX => pools[2 + side] += 1,
            DEAD => pools[4 + side] += 1,
            MORI_BOX => pools[6] += 1,
            l => {
                let c = &mut counts[l as usize * 6 + side * 3..][..3];
                c[0] += 1;
                c[1] += u8::from(b.flags & IN_CASTLE != 0);
                c[2] += u8::from(b.flags & MOVED != 0);
            }
        }
    }
    w.bits(d.disks.len(), s.disks.iter().enumerate().filter(|(_, &alive)| alive).map(|(k, _)| k));
    let side_byte = |v: u8| if v < 2 { v + 1 } else { 0 };
    for l in 0..nl {
        w.u8(side_byte(s.resource[l]));
    }
    for l in 0..nl {
        w.u8(side_byte(s.castle[l]));
    }
    w.take(7).copy_from_slice(&pools);
    for side in 0..2u8 {
        for pile in [&s.hand, &s.deck, &s.discard, &s.reinforce_discards] {
            w.u8(s.pile_size(g, pile, side) as u8);
        }
    }
    for pile in [&s.hand, &s.reinforce_discards] {
        let field = w.take(d.cards.len());
        if let Some(m) = me {
            for &c in &d.side_cards[m as usize] {
                field[c as usize] = pile[c as usize];
            }
        }
    }
    w.u8(me.map_or(0, |m| if s.bids[m as usize] == NONE { 0 } else { s.bids[m as usize] + 1 }));
    w.bits(2, (0..2).filter(|&x| s.bid_made[x]));
    let points = control::points(g, s);
    for p in points {
        w.u16(p.min(u16::MAX as u32) as u16);
    }
    for v in [s.week, s.turn, s.step, s.first, if s.is_over() { s.winner.saturating_add(1) } else { 0 }] {
        w.u8(v);
    }
    w.u8(s.mode as u8);
    w.u8(s.stacks_left);
    w.u8(s.muster_left as u8);
    w.mask(s.roads_used.into(), d.roads.len());
    w.record(PENDING, &(s.pending, s.due.any()));
    let group = (s.pending == Pending::Group).then(|| {
        let gr = &s.group;
        let size = s.blocks.iter().filter(|b| b.flags & SELECTED != 0).count() as u8;
        (gr.origin, gr.at, gr.steps, size, gr.command, gr.forced, gr.march_owed, gr.all_main)
    });
    w.record(GROUP, &group);
    let battle = s.battle.as_ref().map(|b| {
        let deploys: Vec<_> = b.deploys.iter().map(|x| (x.block, x.side, x.card, x.impact, x.special)).collect();
        (b.loc, b.attacker, b.siege, b.holder, b.impact, b.initiative, b.done, deploys, &b.used[..], b.hits, b.winner)
    });
    w.record(BATTLE, &battle);
}
