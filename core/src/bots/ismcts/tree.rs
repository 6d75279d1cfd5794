//! One search tree of single-observer IS-MCTS (Cowling, Powley and Whitehouse 2012), grown
//! over determinizations of the searching seat's information set.
//!
//! A node is reached by a sequence of actions from the root (player actions and chance
//! outcomes). An iteration takes one determinization, walks down the tree choosing among the
//! actions legal in *that* determinization (so a node's children are the union over the
//! determinizations that reached it), adds one node, plays out with the game's rollout policy
//! and backs up the result. Selection is UCB1 with availability counts: a child's exploration
//! term uses the number of times it was available, not its parent's visits, since a child
//! missing from a determinization could not have been chosen there.

use crate::events::Events;
use crate::game::{ActionId, Game, Player, CHANCE, TERMINAL};
use crate::rng::Rng;

use std::collections::TryReserveError;

/// The tree's index of a node.
type NodeId = u32;

/// The nodes a tree reserves room for at first (then twice as many each time, up to its
/// budget).
const FIRST_NODES: usize = 1024;

/// A node: who chose the action into it, and its statistics.
#[derive(Clone, Debug)]
pub(super) struct Node {
    /// The seat that chose the action into the node, or [`CHANCE`].
    pub actor: Player,
    pub visits: u32,
    /// How often the node was among the choices when its parent was passed.
    pub avail: u32,
    /// Sum of the rewards (each in `[0, 1]`) of `actor` over the visits.
    pub value: f64,
    /// Children, sorted by action.
    children: Vec<(ActionId, NodeId)>,
}

impl Node {
    fn new(actor: Player) -> Node {
        Node { actor, visits: 0, avail: 0, value: 0.0, children: Vec::new() }
    }

    /// The node's statistics, without its children.
    fn clone_stats(&self) -> Node {
        Node { actor: self.actor, visits: self.visits, avail: self.avail, value: self.value, children: Vec::new() }
    }
}

/// Parameters of the tree walk.
#[derive(Clone, Copy, Debug)]
pub(super) struct Walk {
    /// UCB1's exploration constant (rewards are scaled to `[0, 1]`).
    pub exploration: f64,
    /// The returns' range, to scale rewards to `[0, 1]`.
    pub min: f64,
    pub span: f64,
    /// A cap on the actions of one iteration (tree walk and playout), against runaway games.
    pub max_steps: u32,
}

/// A tree and the scratch space of its iterations.
pub(super) struct Tree<G: Game> {
    pub nodes: Vec<Node>,
    /// The most nodes the tree may hold (its root included).
    max_nodes: usize,
    /// Whether an iteration found the tree at `max_nodes` and played on without a new node.
    pub full: bool,
    pub walk: Walk,
    path: Vec<NodeId>,
    legal: Vec<ActionId>,
    fresh: Vec<ActionId>,
    /// The children of the legal actions at the node being chosen from, in `legal`'s order.
    found: Vec<NodeId>,
    outcomes: Vec<(ActionId, f64)>,
    returns: Vec<f64>,
    _game: std::marker::PhantomData<fn() -> G>,
}

impl<G: Game> Tree<G> {
    /// A tree of its root alone that will hold at most `max_nodes` nodes (at least the root).
    /// Its memory is reserved fallibly: an allocation the system refuses is an error, never
    /// an abort.
    pub fn new(walk: Walk, players: usize, max_nodes: usize) -> Result<Self, TryReserveError> {
        let max_nodes = max_nodes.clamp(1, NodeId::MAX as usize);
        let mut nodes = Vec::new();
        nodes.try_reserve_exact(max_nodes.min(FIRST_NODES))?;
        nodes.push(Node::new(TERMINAL));
        Ok(Tree {
            nodes,
            max_nodes,
            full: false,
            walk,
            path: Vec::new(),
            legal: Vec::new(),
            fresh: Vec::new(),
            found: Vec::new(),
            outcomes: Vec::new(),
            returns: vec![0.0; players],
            _game: std::marker::PhantomData,
        })
    }

    /// The root's children: `(action, visits, mean reward of the root's seat in [0, 1])`.
    pub fn root_stats(&self) -> impl Iterator<Item = (ActionId, u32, f64)> + '_ {
        self.nodes[0].children.iter().map(|&(a, id)| {
            let n = &self.nodes[id as usize];
            (a, n.visits, if n.visits > 0 { n.value / n.visits as f64 } else { 0.0 })
        })
    }

    /// For each child of the root, the actions that follow it on the tree's principal line
    /// while `seat` is still the one to act: at each node its most visited child (ties: the
    /// lower action), as long as that child was visited and `seat` chose it; at most `max`
    /// actions.
    pub fn root_lines(&self, seat: Player, max: usize) -> Vec<(ActionId, Vec<ActionId>)> {
        self.nodes[0]
            .children
            .iter()
            .map(|&(a, id)| {
                let mut line = Vec::new();
                let mut node = id;
                while line.len() < max {
                    let best = self.nodes[node as usize]
                        .children
                        .iter()
                        .max_by(|x, y| self.nodes[x.1 as usize].visits.cmp(&self.nodes[y.1 as usize].visits).then(y.0.cmp(&x.0)));
                    match best {
                        Some(&(b, c)) if self.nodes[c as usize].visits > 0 && self.nodes[c as usize].actor == seat => {
                            line.push(b);
                            node = c;
                        }
                        _ => break,
                    }
                }
                (a, line)
            })
            .collect()
    }

    /// The child of `node` by `a`, if the tree has it.
    pub fn child(&self, node: NodeId, a: ActionId) -> Option<NodeId> {
        let c = &self.nodes[node as usize].children;
        c.binary_search_by_key(&a, |x| x.0).ok().map(|i| c[i].1)
    }

    /// The node reached from the root by `actions`, if the tree has it.
    pub fn descend(&self, actions: &[ActionId]) -> Option<NodeId> {
        actions.iter().try_fold(0, |node, &a| self.child(node, a))
    }

    /// A new tree of the nodes under `top` (`top` its root, the statistics as they are, the
    /// root's own cleared: the next search walks down from it), holding at most `max_nodes`;
    /// `None` when the subtree has more nodes than that. Its memory is reserved fallibly.
    pub fn subtree(&self, top: NodeId, max_nodes: usize) -> Result<Option<Tree<G>>, TryReserveError> {
        let max_nodes = max_nodes.clamp(1, NodeId::MAX as usize);
        // Breadth first: a node's children get the next free ids in the order they are met.
        let mut order: Vec<NodeId> = vec![top];
        let mut nodes: Vec<Node> = Vec::new();
        let mut i = 0;
        while i < order.len() {
            let old = &self.nodes[order[i] as usize];
            if order.len() + old.children.len() > max_nodes {
                return Ok(None);
            }
            let mut children = Vec::new();
            children.try_reserve_exact(old.children.len())?;
            for &(a, c) in &old.children {
                children.push((a, order.len() as NodeId));
                order.push(c);
            }
            if nodes.len() == nodes.capacity() {
                let target = (nodes.capacity() * 2).max(FIRST_NODES).min(max_nodes);
                nodes.try_reserve_exact(target - nodes.len())?;
            }
            nodes.push(Node { children, ..old.clone_stats() });
            i += 1;
        }
        nodes[0] = Node { children: std::mem::take(&mut nodes[0].children), ..Node::new(TERMINAL) };
        Ok(Some(Tree {
            nodes,
            max_nodes,
            full: false,
            walk: self.walk,
            path: Vec::new(),
            legal: Vec::new(),
            fresh: Vec::new(),
            found: Vec::new(),
            outcomes: Vec::new(),
            returns: vec![0.0; self.returns.len()],
            _game: std::marker::PhantomData,
        }))
    }

    /// A new child of `node` by `a`; `None` when the tree holds `max_nodes` already. Both
    /// allocations are reserved before the tree changes, so a refused one leaves it whole.
    fn add_child(&mut self, node: NodeId, a: ActionId, actor: Player) -> Result<Option<NodeId>, TryReserveError> {
        if self.nodes.len() >= self.max_nodes {
            self.full = true;
            return Ok(None);
        }
        if self.nodes.len() == self.nodes.capacity() {
            // Doubling, but never past the budget.
            let target = (self.nodes.capacity() * 2).max(FIRST_NODES).min(self.max_nodes);
            self.nodes.try_reserve_exact(target - self.nodes.len())?;
        }
        self.nodes[node as usize].children.try_reserve(1)?;
        let id = self.nodes.len() as NodeId;
        self.nodes.push(Node::new(actor));
        let c = &mut self.nodes[node as usize].children;
        let at = c.binary_search_by_key(&a, |x| x.0).unwrap_err();
        c.insert(at, (a, id));
        Ok(Some(id))
    }

    #[cfg(test)]
    /// The bytes the tree holds on the heap for its nodes (their lists of children included;
    /// not the allocator's own overhead).
    pub fn heap_bytes(&self) -> usize {
        self.nodes.capacity() * std::mem::size_of::<Node>()
            + self.nodes.iter().map(|n| n.children.capacity() * std::mem::size_of::<(ActionId, NodeId)>()).sum::<usize>()
    }

    /// One iteration on `s`, a copy of a determinization of the root. A tree at its node
    /// budget is walked as it is: where the walk leaves it, the action chosen there is played
    /// and the playout goes on from it. Errors: the memory of a new node was refused.
    pub fn iterate(&mut self, rules: &G, mut s: G::State, rng: &mut Rng) -> Result<(), TryReserveError> {
        let mut node: NodeId = 0;
        self.path.clear();
        let mut steps = 0u32;
        let mut expanded = false;
        // Selection and expansion.
        loop {
            let actor = rules.current_player(&s);
            if actor == TERMINAL || steps >= self.walk.max_steps {
                break;
            }
            let a = if actor == CHANCE {
                self.outcomes.clear();
                rules.chance_outcomes(&s, &mut self.outcomes);
                sample(&self.outcomes, rng)
            } else {
                self.legal.clear();
                rules.legal_actions(&s, &mut self.legal);
                match self.choose(rules, &s, node, rng) {
                    Some(a) => a,
                    None => {
                        // Expansion: an action never tried from here, the one the playout
                        // policy prefers among them (a policy that answers outside the list
                        // it was given would revisit a tried action: a uniform pick then).
                        let a = rules.rollout_action(&s, &self.fresh, rng);
                        let a = crate::bots::policy::or_any(&self.fresh, a, rng);
                        expanded = true;
                        a
                    }
                }
            };
            node = match self.child(node, a) {
                Some(c) => c,
                None => match self.add_child(node, a, actor)? {
                    Some(c) => c,
                    None => {
                        rules.apply(&mut s, a, &mut Events::off());
                        steps += 1;
                        break;
                    }
                },
            };
            self.path.push(node);
            rules.apply(&mut s, a, &mut Events::off());
            steps += 1;
            if expanded {
                break;
            }
        }
        // Playout.
        self.play_out(rules, &mut s, rng, steps);
        // Backup.
        for &id in &self.path {
            let n = &mut self.nodes[id as usize];
            n.visits += 1;
            if n.actor >= 0 {
                n.value += self.returns[n.actor as usize];
            }
        }
        Ok(())
    }

    /// The UCB choice among `self.legal` at `node`, every one of them marked available; or
    /// `None` with the untried ones in `self.fresh`.
    fn choose(&mut self, _rules: &G, _s: &G::State, node: NodeId, _rng: &mut Rng) -> Option<ActionId> {
        self.fresh.clear();
        self.found.clear();
        // Both lists ascend: one merge walk finds every legal action's child.
        let mut k = 0;
        for i in 0..self.legal.len() {
            let a = self.legal[i];
            let children = &self.nodes[node as usize].children;
            while k < children.len() && children[k].0 < a {
                k += 1;
            }
            match children.get(k) {
                Some(&(b, c)) if b == a => {
                    self.found.push(c);
                    self.nodes[c as usize].avail += 1;
                }
                _ => self.fresh.push(a),
            }
        }
        if !self.fresh.is_empty() {
            return None;
        }
        let c = self.walk.exploration;
        let mut best = (f64::NEG_INFINITY, self.legal[0]);
        for (&a, &id) in self.legal.iter().zip(&self.found) {
            let n = &self.nodes[id as usize];
            let visits = n.visits.max(1) as f64;
            let ucb = n.value / visits + c * ((n.avail.max(1) as f64).ln() / visits).sqrt();
            if ucb > best.0 {
                best = (ucb, a);
            }
        }
        Some(best.1)
    }

    /// Plays `s` on with the game's rollout policy (chance by probability) until the end, or
    /// until the game's playout depth when it evaluates; leaves the rewards in `self.returns`.
    fn play_out(&mut self, rules: &G, s: &mut G::State, rng: &mut Rng, mut steps: u32) {
        let depth = rules.playout_depth();
        let mut played = 0u32;
        loop {
            let actor = rules.current_player(s);
            if actor == TERMINAL {
                let r = rules.returns(s);
                self.returns.copy_from_slice(&r);
                break;
            }
            if (played >= depth || steps >= self.walk.max_steps) && rules.evaluate(s, &mut self.returns) {
                break;
            }
            if steps >= self.walk.max_steps {
                // No evaluation and no end in sight: a draw for everyone.
                let mid = self.walk.min + self.walk.span / 2.0;
                self.returns.iter_mut().for_each(|r| *r = mid);
                break;
            }
            let a = if actor == CHANCE {
                self.outcomes.clear();
                rules.chance_outcomes(s, &mut self.outcomes);
                sample(&self.outcomes, rng)
            } else {
                self.legal.clear();
                rules.legal_actions(s, &mut self.legal);
                rules.rollout_action(s, &self.legal, rng)
            };
            rules.apply(s, a, &mut Events::off());
            played += 1;
            steps += 1;
        }
        let (min, span) = (self.walk.min, self.walk.span);
        for r in &mut self.returns {
            *r = ((*r - min) / span).clamp(0.0, 1.0);
        }
    }
}

/// Draws an outcome by its probability.
fn sample(outcomes: &[(ActionId, f64)], rng: &mut Rng) -> ActionId {
    let x = rng.unit_f64();
    let mut acc = 0.0;
    for &(a, p) in outcomes {
        acc += p;
        if x < acc {
            return a;
        }
    }
    outcomes.last().expect("a chance node has outcomes").0
}
