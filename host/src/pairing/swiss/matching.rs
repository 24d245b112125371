//! Whether a set of players can all be paired: maximum matching in a general graph by Edmonds'
//! blossom algorithm. Swiss pairing asks this before every choice it makes, so a choice that
//! would strand someone later in the round is never taken, and "no legal pairing" is a proof.

use std::collections::VecDeque;

const NONE: usize = usize::MAX;

/// True when `vertices` can be split into pairs, every pair `compatible`.
pub(super) fn has_perfect_matching(vertices: &[usize], compatible: impl Fn(usize, usize) -> bool) -> bool {
    let n = vertices.len();
    if !n.is_multiple_of(2) {
        return false;
    }
    let adj: Vec<Vec<usize>> =
        (0..n).map(|i| (0..n).filter(|&j| j != i && compatible(vertices[i], vertices[j])).collect()).collect();
    if adj.iter().any(Vec::is_empty) {
        return false;
    }
    Blossom::new(&adj).max_matching() * 2 == n
}

struct Blossom<'a> {
    adj: &'a [Vec<usize>],
    mate: Vec<usize>,
    parent: Vec<usize>,
    base: Vec<usize>,
    used: Vec<bool>,
    in_blossom: Vec<bool>,
    queue: VecDeque<usize>,
}

impl<'a> Blossom<'a> {
    fn new(adj: &'a [Vec<usize>]) -> Blossom<'a> {
        let n = adj.len();
        Blossom {
            adj,
            mate: vec![NONE; n],
            parent: vec![NONE; n],
            base: (0..n).collect(),
            used: vec![false; n],
            in_blossom: vec![false; n],
            queue: VecDeque::new(),
        }
    }

    fn max_matching(mut self) -> usize {
        let n = self.adj.len();
        // A greedy start leaves the augmenting searches little to do.
        for v in 0..n {
            if self.mate[v] == NONE {
                if let Some(&u) = self.adj[v].iter().find(|&&u| self.mate[u] == NONE) {
                    self.mate[v] = u;
                    self.mate[u] = v;
                }
            }
        }
        for root in 0..n {
            if self.mate[root] != NONE {
                continue;
            }
            let mut v = self.augmenting_path(root);
            while v != NONE {
                let pv = self.parent[v];
                let next = self.mate[pv];
                self.mate[v] = pv;
                self.mate[pv] = v;
                v = next;
            }
        }
        self.mate.iter().filter(|&&m| m != NONE).count() / 2
    }

    /// The lowest common ancestor of two vertices' blossom bases in the alternating tree.
    fn common_ancestor(&self, mut a: usize, mut b: usize) -> usize {
        let mut seen = vec![false; self.adj.len()];
        loop {
            a = self.base[a];
            seen[a] = true;
            if self.mate[a] == NONE {
                break;
            }
            a = self.parent[self.mate[a]];
        }
        loop {
            b = self.base[b];
            if seen[b] {
                return b;
            }
            b = self.parent[self.mate[b]];
        }
    }

    fn mark_path(&mut self, mut v: usize, base: usize, mut child: usize) {
        while self.base[v] != base {
            self.in_blossom[self.base[v]] = true;
            self.in_blossom[self.base[self.mate[v]]] = true;
            self.parent[v] = child;
            child = self.mate[v];
            v = self.parent[self.mate[v]];
        }
    }

    /// Searches an augmenting path from the free vertex `root`; returns its free end or NONE.
    fn augmenting_path(&mut self, root: usize) -> usize {
        let n = self.adj.len();
        self.used.iter_mut().for_each(|u| *u = false);
        self.parent.iter_mut().for_each(|p| *p = NONE);
        for (i, b) in self.base.iter_mut().enumerate() {
            *b = i;
        }
        self.used[root] = true;
        self.queue.clear();
        self.queue.push_back(root);
        while let Some(v) = self.queue.pop_front() {
            for i in 0..self.adj[v].len() {
                let to = self.adj[v][i];
                if self.base[v] == self.base[to] || self.mate[v] == to {
                    continue;
                }
                if to == root || (self.mate[to] != NONE && self.parent[self.mate[to]] != NONE) {
                    // An odd cycle: shrink it into a blossom.
                    let base = self.common_ancestor(v, to);
                    self.in_blossom.iter_mut().for_each(|b| *b = false);
                    self.mark_path(v, base, to);
                    self.mark_path(to, base, v);
                    for u in 0..n {
                        if self.in_blossom[self.base[u]] {
                            self.base[u] = base;
                            if !self.used[u] {
                                self.used[u] = true;
                                self.queue.push_back(u);
                            }
                        }
                    }
                } else if self.parent[to] == NONE {
                    self.parent[to] = v;
                    if self.mate[to] == NONE {
                        return to;
                    }
                    let next = self.mate[to];
                    self.used[next] = true;
                    self.queue.push_back(next);
                }
            }
        }
        NONE
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Exhaustive answer for small graphs.
    fn brute(vertices: &[usize], ok: &impl Fn(usize, usize) -> bool) -> bool {
        match vertices {
            [] => true,
            [first, rest @ ..] => (0..rest.len()).any(|i| {
                let mut others = rest.to_vec();
                let partner = others.remove(i);
                ok(*first, partner) && brute(&others, ok)
            }),
        }
    }

    #[test]
    fn agrees_with_exhaustive_search_on_random_graphs() {
        let mut rng = fastrand::Rng::with_seed(7);
        for _ in 0..3000 {
            let n = rng.usize(0..=10);
            let density = rng.f64();
            let edges: Vec<(usize, usize)> =
                (0..n).flat_map(|a| (a + 1..n).map(move |b| (a, b))).filter(|_| rng.f64() < density).collect();
            let ok = |a: usize, b: usize| edges.contains(&(a.min(b), a.max(b)));
            let vertices: Vec<usize> = (0..n).collect();
            assert_eq!(has_perfect_matching(&vertices, ok), brute(&vertices, &ok), "{edges:?}");
        }
    }

    #[test]
    fn needs_blossoms() {
        // Two triangles joined by one edge (2-3): the only perfect matching uses that edge, and
        // a search without blossom shrinking can miss it from a bad start.
        let edges = [(0, 1), (1, 2), (0, 2), (2, 3), (3, 4), (4, 5), (3, 5)];
        let ok = |a: usize, b: usize| edges.contains(&(a, b)) || edges.contains(&(b, a));
        assert!(has_perfect_matching(&[0, 1, 2, 3, 4, 5], ok));
        assert!(!has_perfect_matching(&[0, 1, 2, 4, 5, 3, 6, 7], ok));
    }
}
