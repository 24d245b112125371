//! The search: iterative deepening with aspiration windows over a principal-variation
//! alpha-beta search with quiescence, a transposition table, null-move, reverse futility,
//! futility and late-move pruning where they are sound, late-move reductions and check
//! extensions.
//!
//! Guarantees:
//! - A search runs on the caller's thread and ends at its depth limit, node limit, deadline,
//!   or when the stop flag is set; it then returns the best move of the deepest finished
//!   iteration (or, stopped before any finished, the first move it ordered), unless the
//!   iteration it stopped in had already searched to the end a move that beat the first one
//!   (the finished iteration's best): that move is better at the deeper depth, so it is
//!   returned with its exact score. It returns no move only when the root has none (the game
//!   is over there).
//! - Every move it returns is legal in the root position.
//! - Draws by repetition (a position met before since the last capture or pawn move, in the
//!   game or on the search path) and by the fifty-move rule score as draws inside the search.
//! - Null-move pruning runs only in Chess, Golem, Werewolf and Unicorn Great Chess, never in
//!   check, never without a piece besides pawns: Ghost King Chess has no check and is prone to
//!   zugzwang (a Ghost King must move), and a Grolman turn is a whole chain whose forced
//!   followers make passing unlike any real turn. Reverse futility pruning, which trusts the
//!   static score as passing does, runs in the same variants, never in check. Futility and
//!   late-move pruning, which trust only that a quiet move near the horizon seldom lifts the
//!   score far, run there and in Grolman Chess, never in check.
//! - Ghost King Chess: a position where the side to move can take the enemy Ghost King scores
//!   as a mate in one; one whose own Ghost King is gone as lost. Grolman Chess: a position
//!   where the side not to move left its own king attacked scores as won for the side to move.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use rules::{Move, Position, Role, Variant};

use crate::eval::Evaluator;
use crate::order::{self, MoveKey, HISTORY_SIZE};
use crate::rng::Rng;
use crate::tt::{Bound, Entry, Table};
use crate::zobrist;

/// A won position's score, less the plies to the win.
pub const MATE: i32 = 30_000;
const INFINITY: i32 = 31_000;
/// The deepest a search goes (plies from the root).
pub const MAX_PLY: usize = 96;
const MAX_DEPTH: u32 = 64;
/// Reverse futility pruning: the deepest remaining depth it applies at, and its margin per ply.
const RFP_DEPTH: i32 = 5;
const RFP_MARGIN: i32 = 90;
/// Futility pruning: the deepest remaining depth it applies at, and its margin per ply.
const FUTILITY_DEPTH: i32 = 2;
const FUTILITY_MARGIN: i32 = 150;
/// Late-move pruning: the deepest remaining depth it applies at. At depth `d` the quiet moves
/// after the first `LMP_BASE + d * d` are skipped.
const LMP_DEPTH: i32 = 3;
const LMP_BASE: i32 = 3;
/// Aspiration windows: from this depth on, an iteration first searches this far either side
/// of the score before it, widening the side that fails (twice as far each time).
const ASPIRATION_DEPTH: u32 = 4;
const ASPIRATION_WINDOW: i32 = 30;

/// A score as UCI reports it.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum Score {
    Centipawns(i32),
    /// Mate in this many moves (negative: the side to move is mated).
    Mate(i32),
}

impl Score {
    pub fn from_raw(raw: i32) -> Score {
        if raw >= MATE - MAX_PLY as i32 {
            Score::Mate((MATE - raw + 1) / 2)
        } else if raw <= -MATE + MAX_PLY as i32 {
            Score::Mate(-((MATE + raw) / 2))
        } else {
            Score::Centipawns(raw)
        }
    }
}

/// Mistakes made on purpose by the weak levels: every root move is scored, a random spread
/// of up to `amplitude` centipawns is added, and one time in `blunder_percent` a random move is
/// played instead.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Noise {
    pub amplitude: i32,
    pub blunder_percent: u32,
    pub seed: u64,
}

/// When a search stops. All limits apply together; the first one reached ends it. With none,
/// only the stop flag (or the maximum depth) ends it.
#[derive(Clone, Debug, Default)]
pub struct Limits {
    pub depth: Option<u32>,
    pub nodes: Option<u64>,
    /// The hard limit: the search is abandoned at this time.
    pub movetime: Option<Duration>,
    /// No new iteration starts after this time, unless [`min_depth`](Limits::min_depth) is
    /// not yet done.
    pub soft_time: Option<Duration>,
    /// Iterations up to this depth start whatever the soft time says (the hard limits still
    /// end them): a level that thinks briefly still looks as deep as the level below it.
    pub min_depth: u32,
    /// Iterations up to this depth run to their end whatever [`nodes`](Limits::nodes) says
    /// (the time limits and the stop flag still end them): a level with a small node budget
    /// still completes the depth of the level below it. 0: the node limit ends any iteration.
    pub nodes_min_depth: u32,
    pub noise: Option<Noise>,
    /// Root moves left out of the search: the second-best move is the best once the best is
    /// excluded (a puzzle's uniqueness test, UCI's MultiPV). Excluding every move leaves none.
    pub excluded: Vec<Move>,
}

/// One finished iteration, as UCI's `info` line reports it.
#[derive(Clone, Debug)]
pub struct Info {
    pub depth: u32,
    pub seldepth: u32,
    pub score: Score,
    pub nodes: u64,
    pub elapsed: Duration,
    pub pv: Vec<Move>,
}

#[derive(Clone, Debug)]
pub struct SearchResult {
    pub best: Option<Move>,
    /// The score for the side to move, in centipawns (mates near ±[`MATE`]).
    pub score: i32,
    pub depth: u32,
    pub nodes: u64,
    pub elapsed: Duration,
    pub pv: Vec<Move>,
}

/// A searcher for one variant: its evaluation, transposition table and ordering tables. Keep
/// one per game (or per UCI session) so the table helps from move to move.
pub struct Searcher {
    eval: Evaluator,
    tt: Table,
    killers: Vec<[MoveKey; 2]>,
    history: Vec<i32>,
}

impl Searcher {
    /// A searcher whose transposition table takes about `hash_mb` MiB.
    pub fn new(variant: Variant, hash_mb: usize) -> Searcher {
        Searcher::with_evaluator(Evaluator::new(variant), hash_mb)
    }

    pub fn with_evaluator(eval: Evaluator, hash_mb: usize) -> Searcher {
        Searcher {
            eval,
            tt: Table::new(hash_mb),
            killers: vec![[MoveKey::NONE; 2]; MAX_PLY + 2],
            history: vec![0; HISTORY_SIZE],
        }
    }

    pub fn variant(&self) -> Variant {
        self.eval.variant()
    }

    pub fn evaluator(&self) -> &Evaluator {
        &self.eval
    }

    /// Bytes this searcher keeps between searches (its tables).
    pub fn memory(&self) -> usize {
        self.tt.bytes()
            + self.history.len() * std::mem::size_of::<i32>()
            + self.killers.len() * std::mem::size_of::<[MoveKey; 2]>()
            + std::mem::size_of::<Searcher>()
    }

    /// Forgets everything learnt (a new game).
    pub fn clear(&mut self) {
        self.tt.clear();
        self.history.iter_mut().for_each(|h| *h = 0);
        self.killers.iter_mut().for_each(|k| *k = [MoveKey::NONE; 2]);
    }

    /// Searches the last of `positions` (the game so far, its start first: the earlier ones
    /// count for repetitions) within `limits`, until `stop` is set. `report` hears every
    /// finished iteration.
    ///
    /// # Panics
    /// If `positions` is empty or holds a position of another variant.
    pub fn search(
        &mut self,
        positions: &[Position],
        limits: &Limits,
        stop: &AtomicBool,
        report: &mut dyn FnMut(&Info),
    ) -> SearchResult {
        let root = positions.last().expect("a position to search").clone();
        assert_eq!(root.variant(), self.variant(), "a searcher searches its own variant");
        let path: Vec<u64> = positions[..positions.len() - 1].iter().map(zobrist::hash).collect();
        for h in self.history.iter_mut() {
            *h /= 8;
        }
        let lists = (0..=MAX_PLY).map(|_| List::default()).collect();
        let mut run = Run {
            s: self,
            stop,
            limits,
            start: Instant::now(),
            nodes: 0,
            seldepth: 0,
            depth: 0,
            aborted: false,
            partial: None,
            path,
            lists,
        };
        run.iterate(&root, report)
    }
}

struct Run<'a> {
    s: &'a mut Searcher,
    stop: &'a AtomicBool,
    limits: &'a Limits,
    start: Instant,
    nodes: u64,
    seldepth: u32,
    /// The iteration under way.
    depth: u32,
    aborted: bool,
    /// Left by a stopped iteration: the exact score and index of a root move searched to the
    /// end that beat the first move, the best so far.
    partial: Option<(i32, usize)>,
    /// Keys of the game's earlier positions and of the search path above the current node.
    path: Vec<u64>,
    /// One move list per ply, taken by the node at that ply and put back as it returns, so
    /// that a search allocates lists only for its first nodes, not at every node. (Not arrays
    /// on the stack: a move, with its room for a Grolman chain, takes 70 bytes, and the 80 and
    /// more moves of Ghost King or Unicorn Great positions would put kilobytes per ply on the
    /// caller's thread stack.)
    lists: Vec<List>,
}

/// A node's moves and their ordering scores, index for index.
#[derive(Default)]
struct List {
    moves: Vec<Move>,
    scores: Vec<i32>,
}

fn to_tt(score: i32, ply: usize) -> i32 {
    if score >= MATE - MAX_PLY as i32 {
        score + ply as i32
    } else if score <= -MATE + MAX_PLY as i32 {
        score - ply as i32
    } else {
        score
    }
}

fn from_tt(score: i32, ply: usize) -> i32 {
    if score >= MATE - MAX_PLY as i32 {
        score - ply as i32
    } else if score <= -MATE + MAX_PLY as i32 {
        score + ply as i32
    } else {
        score
    }
}

/// Null-move pruning skips positions in check; without a check rule (Ghost King, Grolman) a
/// royal piece left attacked is a lost game that passing would hide.
fn null_move_sound(variant: Variant) -> bool {
    variant.has_check_rule()
}

/// Futility and late-move pruning skip quiet moves near the horizon, never in check: they
/// trust only that a quiet move seldom lifts the score far, not that the side to move could pass.
/// That holds in Grolman Chess too: a forced chain often makes moving worse than passing, so the
/// static score there errs high, which only raises the ceiling a pruned move is given. Not in
/// Ghost King Chess: tried there, with an attacked Ghost King (no check, and its escape is
/// quiet) left out, they lost their SPRT (docs/engine.md, "Selective search").
fn quiet_pruning_sound(variant: Variant) -> bool {
    null_move_sound(variant) || variant == Variant::Grolman
}

/// Whether a royal piece under attack is a check to extend and to answer: where the royal
/// piece is a king (a Ghost King under attack may simply be left there).
fn has_check(variant: Variant) -> bool {
    variant.royal() == Role::King
}

impl Run<'_> {
    fn iterate(&mut self, root: &Position, report: &mut dyn FnMut(&Info)) -> SearchResult {
        let mut moves = root.legal_moves();
        moves.retain(|m| !self.limits.excluded.contains(m));
        let done = |run: &Run, best: Option<Move>, score, depth, pv| SearchResult {
            best,
            score,
            depth,
            nodes: run.nodes,
            elapsed: run.start.elapsed(),
            pv,
        };
        if moves.is_empty() || root.is_decided() {
            return done(self, None, 0, 0, Vec::new());
        }
        let key = zobrist::hash(root);
        let hash_move = self.s.tt.probe(key).map_or(MoveKey::NONE, |e| e.best);
        let mut scores = Vec::new();
        let params = &self.s.eval.params;
        order::score_moves(root, params, &moves, hash_move, &[MoveKey::NONE; 2], &self.s.history, &mut scores);
        for i in 0..moves.len() {
            order::pick(&mut moves, &mut scores, i);
        }
        let noise = self.limits.noise;
        let max_depth = self.limits.depth.unwrap_or(MAX_DEPTH).clamp(1, MAX_DEPTH);
        let mut best = moves[0];
        let mut best_score = 0;
        let mut finished_depth = 0;
        let mut pv = vec![best];
        let mut root_scores = vec![0; moves.len()];
        for depth in 1..=max_depth {
            self.seldepth = 0;
            self.depth = depth;
            let found = if noise.is_some() {
                self.score_all(root, &moves, depth, &mut root_scores)
            } else {
                self.aspirated(root, &moves, depth, best_score)
            };
            let Some((score, index)) = found else {
                // Stopped: the time an unfinished iteration took is not all lost when it has
                // already proved a better move than the last finished one.
                if let Some((score, index)) = self.partial.take() {
                    best = moves[index];
                    best_score = score;
                    pv = vec![best];
                }
                break;
            };
            let m = moves.remove(index);
            moves.insert(0, m);
            let s = root_scores.remove(index);
            root_scores.insert(0, s);
            best = m;
            best_score = score;
            finished_depth = depth;
            self.s.tt.store(Entry {
                key,
                best: MoveKey::of(&m),
                score: to_tt(score, 0),
                depth: depth as i16,
                bound: Bound::Exact,
            });
            pv = self.principal_variation(root, depth as usize);
            report(&Info {
                depth,
                seldepth: self.seldepth.max(depth),
                score: Score::from_raw(score),
                nodes: self.nodes,
                elapsed: self.start.elapsed(),
                pv: pv.clone(),
            });
            if depth >= self.limits.min_depth && self.limits.soft_time.is_some_and(|t| self.start.elapsed() >= t) {
                break;
            }
            // A forced mate found within the horizon will not change with more depth.
            if noise.is_none() && score.abs() >= MATE - MAX_PLY as i32 && depth as i32 > MATE - score.abs() + 1 {
                break;
            }
        }
        if let Some(noise) = noise {
            if finished_depth > 0 {
                let mut rng = Rng::new(noise.seed ^ zobrist::hash(root));
                let chosen = if noise.blunder_percent > 0 && rng.below(100) < u64::from(noise.blunder_percent) {
                    rng.below(moves.len() as u64) as usize
                } else {
                    (0..moves.len())
                        .max_by_key(|&i| {
                            let s = root_scores[i];
                            // Never blur a mate: a weak player still takes a king it sees.
                            if s.abs() >= MATE - MAX_PLY as i32 {
                                s
                            } else {
                                s + rng.spread(noise.amplitude)
                            }
                        })
                        .unwrap_or(0)
                };
                best = moves[chosen];
                best_score = root_scores[chosen];
                pv = vec![best];
            }
        }
        done(self, Some(best), best_score, finished_depth, pv)
    }

    /// One iteration in a window around the score of the one before (`previous`): a narrow
    /// window cuts more, and a score outside it is searched again with that side widened.
    /// `None` when the search was stopped before it finished.
    fn aspirated(&mut self, root: &Position, moves: &[Move], depth: u32, previous: i32) -> Option<(i32, usize)> {
        let mate_near = |score: i32| score.abs() >= MATE - MAX_PLY as i32;
        if depth < ASPIRATION_DEPTH || mate_near(previous) {
            return self.root(root, moves, depth, -INFINITY, INFINITY);
        }
        let mut delta = ASPIRATION_WINDOW;
        let (mut alpha, mut beta) = (previous - delta, previous + delta);
        loop {
            let (score, best) = self.root(root, moves, depth, alpha, beta)?;
            delta *= 2;
            if score <= alpha {
                alpha = if mate_near(score) { -INFINITY } else { (score - delta).max(-INFINITY) };
            } else if score >= beta {
                beta = if mate_near(score) { INFINITY } else { (score + delta).min(INFINITY) };
            } else {
                return Some((score, best));
            }
        }
    }

    /// One iteration at the root within (`alpha`, `beta`): the best score and its move's
    /// index, or `alpha` and 0 when every move fails low. `None` when the search was stopped
    /// before it finished.
    fn root(&mut self, root: &Position, moves: &[Move], depth: u32, mut alpha: i32, beta: i32) -> Option<(i32, usize)> {
        let mut best = 0;
        let key = zobrist::hash(root);
        self.path.push(key);
        for (i, m) in moves.iter().enumerate() {
            let child = root.after(m);
            let child_key = zobrist::update(key, root, &child);
            let d = depth as i32 - 1;
            let mut score;
            if i == 0 {
                score = -self.negamax(&child, child_key, d, -beta, -alpha, 1, true);
            } else {
                score = -self.negamax(&child, child_key, d, -alpha - 1, -alpha, 1, true);
                if score > alpha && score < beta && !self.aborted {
                    score = -self.negamax(&child, child_key, d, -beta, -alpha, 1, true);
                }
            }
            if self.aborted {
                self.path.pop();
                // Alpha rises only on a move searched to the end, so a later move that raised
                // it beat the first (the last iteration's best) at this depth.
                if best > 0 {
                    self.partial = Some((alpha, best));
                }
                return None;
            }
            if score > alpha {
                alpha = score;
                best = i;
                if alpha >= beta {
                    break;
                }
            }
        }
        self.path.pop();
        Some((alpha, best))
    }

    /// Every root move's exact score at `depth` (for the levels that blur them).
    fn score_all(&mut self, root: &Position, moves: &[Move], depth: u32, scores: &mut [i32]) -> Option<(i32, usize)> {
        let key = zobrist::hash(root);
        self.path.push(key);
        for (i, m) in moves.iter().enumerate() {
            let child = root.after(m);
            let child_key = zobrist::update(key, root, &child);
            let score = -self.negamax(&child, child_key, depth as i32 - 1, -INFINITY, INFINITY, 1, true);
            if self.aborted {
                self.path.pop();
                return None;
            }
            scores[i] = score;
        }
        self.path.pop();
        let best = (0..moves.len()).max_by_key(|&i| scores[i]).unwrap_or(0);
        Some((scores[best], best))
    }

    fn principal_variation(&self, root: &Position, max: usize) -> Vec<Move> {
        let mut pv = Vec::new();
        let mut pos = root.clone();
        let mut seen = vec![zobrist::hash(root)];
        while pv.len() < max.max(1) {
            let Some(entry) = self.s.tt.probe(*seen.last().expect("a key")) else { break };
            let Some(m) = pos.legal_moves().into_iter().find(|m| MoveKey::of(m) == entry.best) else { break };
            pos.play_unchecked(&m);
            pv.push(m);
            let key = zobrist::hash(&pos);
            if seen.contains(&key) || pos.is_decided() {
                break;
            }
            seen.push(key);
        }
        pv
    }

    fn check_abort(&mut self) {
        if self.nodes & 1023 == 0
            && (self.stop.load(Ordering::Relaxed) || self.limits.movetime.is_some_and(|t| self.start.elapsed() >= t))
        {
            self.aborted = true;
        }
        if self.depth > self.limits.nodes_min_depth && self.limits.nodes.is_some_and(|n| self.nodes >= n) {
            self.aborted = true;
        }
    }

    /// What the variant's rules decide at this node before any move: a win or loss score.
    fn decided(&self, pos: &Position, ply: usize) -> Option<i32> {
        if let Some(outcome) = pos.decided_outcome() {
            let won = outcome.winner() == Some(pos.turn());
            return Some(if won { MATE - ply as i32 } else { -MATE + ply as i32 });
        }
        // Without a check rule, an enemy royal piece we attack is ours to take next ply.
        (!pos.variant().has_check_rule() && pos.royal_attacked(!pos.turn())).then_some(MATE - ply as i32 - 1)
    }

    fn repeated(&self, key: u64, halfmoves: u32) -> bool {
        let len = self.path.len();
        let mut d = 2;
        while d <= halfmoves as usize && d <= len {
            if self.path[len - d] == key {
                return true;
            }
            d += 2;
        }
        false
    }

    /// `key` is `pos`'s Zobrist key, updated from the parent's.
    #[allow(clippy::too_many_arguments)]
    fn negamax(
        &mut self,
        pos: &Position,
        key: u64,
        mut depth: i32,
        mut alpha: i32,
        beta: i32,
        ply: usize,
        allow_null: bool,
    ) -> i32 {
        self.nodes += 1;
        self.check_abort();
        if self.aborted {
            return 0;
        }
        self.seldepth = self.seldepth.max(ply as u32);
        debug_assert_eq!(key, zobrist::hash(pos), "the updated key is the position's key");
        if let Some(score) = self.decided(pos, ply) {
            return score;
        }
        if pos.halfmoves() >= 100 || self.repeated(key, pos.halfmoves()) || pos.is_insufficient_material() {
            return 0;
        }
        if ply >= MAX_PLY {
            return self.s.eval.evaluate(pos);
        }
        let variant = pos.variant();
        let in_check = has_check(variant) && pos.is_check();
        if in_check && ply < MAX_PLY / 2 {
            depth += 1;
        }
        if depth <= 0 {
            return self.quiesce(pos, key, alpha, beta, ply, 0);
        }
        let pv_node = beta - alpha > 1;
        let entry = self.s.tt.probe(key);
        let hash_move = entry.map_or(MoveKey::NONE, |e| e.best);
        if let Some(e) = entry {
            if !pv_node && i32::from(e.depth) >= depth {
                let score = from_tt(e.score, ply);
                let cut = match e.bound {
                    Bound::Exact => true,
                    Bound::Lower => score >= beta,
                    Bound::Upper => score <= alpha,
                };
                if cut {
                    return score;
                }
            }
        }
        // No pruning below runs at a PV node, in check or near a mate.
        let quiet_prunable =
            !pv_node && !in_check && beta.abs() < MATE - MAX_PLY as i32 && quiet_pruning_sound(variant);
        // The static score, evaluated only where something below reads it: where passing is
        // sound, reverse futility and the null move; elsewhere futility alone, near the horizon.
        let static_eval = (quiet_prunable && (null_move_sound(variant) || depth <= FUTILITY_DEPTH))
            .then(|| self.s.eval.evaluate(pos));
        // Where passing is sound (below), so is trusting the static score to stand: what the
        // side to move stands on is at least what it can get.
        let standing_eval = static_eval.filter(|_| null_move_sound(variant));
        // Reverse futility: a few plies from the horizon, a static score that beats beta by
        // a margin per ply left is taken to hold.
        if let Some(eval) = standing_eval.filter(|_| depth <= RFP_DEPTH) {
            if eval - RFP_MARGIN * depth >= beta {
                return eval;
            }
        }
        if let Some(eval) = standing_eval.filter(|_| allow_null && depth >= 3) {
            let us = pos.board().by_color(pos.turn());
            let pawns_and_royal = pos.board().by_role(Role::Pawn) | pos.board().by_role(variant.royal());
            if (us - pawns_and_royal).any() && eval >= beta {
                let r = 2 + depth / 4;
                self.path.push(key);
                let passed = pos.null_move();
                let passed_key = zobrist::update(key, pos, &passed);
                let score = -self.negamax(&passed, passed_key, depth - 1 - r, -beta, -beta + 1, ply + 1, false);
                self.path.pop();
                if self.aborted {
                    return 0;
                }
                if score >= beta {
                    return beta;
                }
            }
        }
        // Futility: so near the horizon, a quiet move is taken not to lift a static score this
        // far below alpha; this is the most it is trusted to reach.
        let futility_ceiling = static_eval
            .filter(|_| depth <= FUTILITY_DEPTH)
            .map(|eval| eval + FUTILITY_MARGIN * depth)
            .filter(|&ceiling| ceiling <= alpha);
        // Late-move pruning, on the same grounds: near the horizon, quiet moves this late in
        // the order seldom refute anything.
        let late_moves = (quiet_prunable && depth <= LMP_DEPTH).then_some((LMP_BASE + depth * depth) as usize);
        let mut list = std::mem::take(&mut self.lists[ply]);
        pos.legal_moves_into(&mut list.moves);
        if list.moves.is_empty() {
            self.lists[ply] = list;
            return if pos.is_check() { -MATE + ply as i32 } else { 0 };
        }
        let killers = self.s.killers[ply];
        order::score_moves(
            pos,
            &self.s.eval.params,
            &list.moves,
            hash_move,
            &killers,
            &self.s.history,
            &mut list.scores,
        );
        let List { moves, scores } = &mut list;
        let original_alpha = alpha;
        let mut best_score = -INFINITY;
        let mut best_key = MoveKey::NONE;
        self.path.push(key);
        for i in 0..moves.len() {
            order::pick(moves, scores, i);
            let m = moves[i];
            let child = pos.after(&m);
            let child_key = zobrist::update(key, pos, &child);
            let quiet = !m.is_noisy();
            let late = late_moves.is_some_and(|n| i >= n);
            if (futility_ceiling.is_some() || late) && i > 0 && quiet && !child.is_check() {
                if let Some(ceiling) = futility_ceiling {
                    best_score = best_score.max(ceiling);
                }
                continue;
            }
            let mut score;
            if i == 0 {
                score = -self.negamax(&child, child_key, depth - 1, -beta, -alpha, ply + 1, true);
            } else {
                let reduce = if quiet && !in_check && depth >= 3 && i >= 3 && scores[i] < 1_000_000 {
                    1 + i32::from(i >= 8 && depth >= 6)
                } else {
                    0
                };
                score = -self.negamax(&child, child_key, depth - 1 - reduce, -alpha - 1, -alpha, ply + 1, true);
                if score > alpha && reduce > 0 && !self.aborted {
                    score = -self.negamax(&child, child_key, depth - 1, -alpha - 1, -alpha, ply + 1, true);
                }
                if score > alpha && score < beta && !self.aborted {
                    score = -self.negamax(&child, child_key, depth - 1, -beta, -alpha, ply + 1, true);
                }
            }
            if self.aborted {
                self.path.pop();
                self.lists[ply] = list;
                return 0;
            }
            if score > best_score {
                best_score = score;
                best_key = MoveKey::of(&m);
            }
            if score > alpha {
                alpha = score;
            }
            if alpha >= beta {
                if quiet {
                    let k = &mut self.s.killers[ply];
                    if k[0] != best_key {
                        k[1] = k[0];
                        k[0] = best_key;
                    }
                    let h = &mut self.s.history[order::history_index(pos.turn().index(), &m)];
                    *h = (*h + depth * depth).min(900_000);
                }
                break;
            }
        }
        self.path.pop();
        self.lists[ply] = list;
        let bound = if best_score >= beta {
            Bound::Lower
        } else if best_score > original_alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        self.s.tt.store(Entry { key, best: best_key, score: to_tt(best_score, ply), depth: depth as i16, bound });
        best_score
    }

    /// `key` is `pos`'s Zobrist key, updated from the parent's.
    fn quiesce(&mut self, pos: &Position, key: u64, mut alpha: i32, beta: i32, ply: usize, qply: u32) -> i32 {
        self.nodes += 1;
        self.check_abort();
        if self.aborted {
            return 0;
        }
        self.seldepth = self.seldepth.max(ply as u32);
        if let Some(score) = self.decided(pos, ply) {
            return score;
        }
        if ply >= MAX_PLY {
            return self.s.eval.evaluate(pos);
        }
        let params = &self.s.eval.params;
        let in_check = has_check(pos.variant()) && pos.is_check();
        let mut list = std::mem::take(&mut self.lists[ply]);
        let stand = if in_check && qply < 4 {
            pos.legal_moves_into(&mut list.moves);
            if list.moves.is_empty() {
                self.lists[ply] = list;
                return -MATE + ply as i32;
            }
            -INFINITY
        } else {
            let stand = self.s.eval.evaluate(pos);
            if stand >= beta {
                self.lists[ply] = list;
                return stand;
            }
            alpha = alpha.max(stand);
            pos.noisy_moves_into(&mut list.moves);
            stand
        };
        let List { moves, scores } = &mut list;
        scores.clear();
        scores.extend(moves.iter().map(|m| order::see(pos, params, m)));
        let mut best = stand;
        self.path.push(key);
        for i in 0..moves.len() {
            order::pick(moves, scores, i);
            if stand > -INFINITY {
                // Losing captures and captures that cannot lift the score to alpha are skipped.
                if scores[i] < 0 || stand + scores[i] + 200 <= alpha {
                    continue;
                }
            }
            let child = pos.after(&moves[i]);
            let score = -self.quiesce(&child, zobrist::update(key, pos, &child), -beta, -alpha, ply + 1, qply + 1);
            if self.aborted {
                self.path.pop();
                self.lists[ply] = list;
                return 0;
            }
            if score > best {
                best = score;
                if score > alpha {
                    alpha = score;
                    if alpha >= beta {
                        break;
                    }
                }
            }
        }
        self.path.pop();
        self.lists[ply] = list;
        best
    }
}
