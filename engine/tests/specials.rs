//! What each variant's rules make special, seen by the search: a Golem trap avoided, a
//! Werewolf conversion valued, a Ghost King capture found, a Grolman turn that loses on the
//! spot never chosen; draws by repetition and fifty moves; stop and node limits; the levels'
//! deliberate mistakes.

mod common;

use std::sync::atomic::AtomicBool;

use common::search_depth;
use engine::{Level, Limits, Score, Searcher};
use rules::{Color, Position, Role, Variant};

#[test]
fn golem_trap_avoided() {
    // Qxb7 looks like winning a Golem for a queen, but the queen is removed and the Golem
    // lives on as a Half-Golem: the queen is given for a Golem's damage. (With Golem Chess's
    // tuned values, 1090 for a Golem and 370 for a Half-Golem, the damage is worth a rook.)
    let fen = "k7/1g6/8/8/8/8/8/1Q5K w - - 0 1";
    for depth in 1..=4 {
        let (pos, result) = search_depth(Variant::Golem, fen, depth);
        let best = result.best.expect("a move");
        assert_ne!(pos.san(&best), "Qxb7=H", "depth {depth}");
    }
}

#[test]
fn golem_hit_taken_when_it_pays() {
    // A Golem taking a Golem: the capturer becomes a Half-Golem and the enemy Golem is gone.
    let (pos, result) = search_depth(Variant::Golem, "4k3/8/8/8/5g2/4G3/8/4K3 w - - 0 1", 3);
    assert_eq!(pos.san(&result.best.unwrap()), "Gxf4=H");
}

#[test]
fn werewolf_conversion_valued() {
    // The knight may take a Werewolf (and become one) or the bishop a rook: the conversion is
    // worth more than the rook.
    let fen = "4k2r/8/8/3w4/8/4N3/8/B3K3 w - - 0 1";
    let (pos, result) = search_depth(Variant::Werewolf, fen, 3);
    let best = result.best.unwrap();
    assert_eq!(pos.san(&best), "Nxd5=W");
    let after = pos.after(&best);
    assert_eq!(after.board().role_at("d5".parse().unwrap()), Some(Role::Werewolf));
    // White starts 700 down in material (knight and bishop against Werewolf and rook): only
    // the conversion, worth the Werewolf twice less the knight, turns that into a lead.
    assert!(result.score > 300, "score {}", result.score);
}

#[test]
fn werewolf_not_given_away() {
    // Taking the pawn on e5 with the Werewolf lets the d6 pawn take it and become a Werewolf.
    let fen = "4k3/8/3p4/4p3/8/2W5/8/4K3 w - - 0 1";
    for depth in 2..=4 {
        let (pos, result) = search_depth(Variant::Werewolf, fen, depth);
        let best = result.best.unwrap();
        assert_ne!(pos.coord(&best), "c3e5", "depth {depth}");
    }
}

#[test]
fn ghost_king_capture_found() {
    // The bishop takes the Ghost King (the knight keeps White's own Ghost King from it); the
    // rook could take a queen instead.
    let fen = "8/8/5n2/3k4/8/8/Bq6/R3K3 w - - 0 1";
    for depth in 1..=3 {
        let (pos, result) = search_depth(Variant::GhostKing, fen, depth);
        let best = result.best.unwrap();
        assert_eq!(pos.san(&best), "Bxd5#", "depth {depth}");
        assert_eq!(Score::from_raw(result.score), Score::Mate(1));
    }
}

#[test]
fn ghost_king_left_exposed_is_lost() {
    // Black's Ghost King stands where the rook can take it: White's search sees the win at
    // once, and Black, to move in the mirror case, moves the king away.
    let (pos, result) = search_depth(Variant::GhostKing, "r2k4/ppp5/8/8/8/8/8/3RK3 b - - 0 1", 3);
    let best = result.best.unwrap();
    let after = pos.after(&best);
    assert!(!after.royal_attacked(Color::Black), "{} leaves the Ghost King en prise", pos.san(&best));
}

#[test]
fn grolman_self_losing_turn_never_chosen() {
    // Rxa2 takes a queen, but the king must follow into e2 (the chain) and stands attacked by
    // the e8 rook: that turn loses on the spot.
    let fen = "4r1k1/8/8/8/8/8/q3R3/4K3 w - - 0 1";
    for depth in 1..=4 {
        let (pos, result) = search_depth(Variant::Grolman, fen, depth);
        let best = result.best.unwrap();
        let after = pos.after(&best);
        assert!(!after.royal_attacked(Color::White), "depth {depth}: {} loses", pos.san(&best));
    }
    // And from many positions of random games: whenever a turn exists that does not lose at
    // once, the engine never picks one that does.
    let mut seed = 7u64;
    let mut checked = 0;
    for game in 0..12 {
        let mut pos = Position::start(Variant::Grolman);
        for ply in 0..(10 + game * 3) {
            let moves = pos.legal_moves();
            if moves.is_empty() || pos.is_decided() {
                break;
            }
            seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            let m = moves[(seed >> 33) as usize % moves.len()];
            let next = pos.after(&m);
            if next.is_decided() {
                continue;
            }
            pos = next;
            if ply % 3 == 0 {
                let mover = pos.turn();
                let safe_exists = pos.legal_moves().iter().any(|m| !pos.after(m).royal_attacked(mover));
                let mut searcher = Searcher::new(Variant::Grolman, 1);
                let limits = Limits { depth: Some(2), ..Limits::default() };
                let result = searcher.search(std::slice::from_ref(&pos), &limits, &AtomicBool::new(false), &mut |_| {});
                if let (true, Some(best)) = (safe_exists, result.best) {
                    assert!(!pos.after(&best).royal_attacked(mover), "{pos:?}: {} loses", pos.coord(&best));
                    checked += 1;
                }
            }
        }
    }
    assert!(checked > 20, "only {checked} positions checked");
}

#[test]
fn fifty_move_rule_seen() {
    // A queen up, but every move that is neither a capture nor a pawn move draws now.
    let (_, drawn) = search_depth(Variant::Chess, "7k/8/8/8/8/8/8/1Q5K w - - 99 80", 3);
    assert_eq!(drawn.score, 0);
    let (_, fresh) = search_depth(Variant::Chess, "7k/8/8/8/8/8/8/1Q5K w - - 0 80", 3);
    assert!(fresh.score > 500, "score {}", fresh.score);
}

#[test]
fn repetition_seen() {
    // Black, a queen down, can step back into a position of the game (Kg8): a draw.
    let mut pos = Position::from_fen(Variant::Chess, "7k/8/8/8/8/8/8/Q6K b - - 0 1").unwrap();
    let mut positions = vec![pos.clone()];
    for text in ["Kg8", "Qa2", "Kh8", "Qa1"] {
        let m = pos.parse_move(text).unwrap();
        pos.play_unchecked(&m);
        positions.push(pos.clone());
    }
    let mut searcher = Searcher::new(Variant::Chess, 1);
    let limits = Limits { depth: Some(4), ..Limits::default() };
    let result = searcher.search(&positions, &limits, &AtomicBool::new(false), &mut |_| {});
    assert_eq!(pos.san(&result.best.unwrap()), "Kg8");
    assert_eq!(result.score, 0);
    // Without that history the same position is simply lost.
    let alone = Searcher::new(Variant::Chess, 1).search(
        std::slice::from_ref(&pos),
        &limits,
        &AtomicBool::new(false),
        &mut |_| {},
    );
    assert!(alone.score < -500, "score {}", alone.score);
}

#[test]
fn stop_flag_and_node_limit_end_the_search() {
    let pos = Position::start(Variant::UnicornGreat);
    let stopped = AtomicBool::new(true);
    let result = Searcher::new(Variant::UnicornGreat, 1).search(
        std::slice::from_ref(&pos),
        &Limits::default(),
        &stopped,
        &mut |_| {},
    );
    assert!(pos.legal_moves().contains(&result.best.expect("a move even when stopped at once")));
    assert!(result.nodes <= 1024, "{} nodes", result.nodes);

    let limits = Limits { nodes: Some(5_000), ..Limits::default() };
    let result = Searcher::new(Variant::UnicornGreat, 1).search(
        std::slice::from_ref(&pos),
        &limits,
        &AtomicBool::new(false),
        &mut |_| {},
    );
    assert!(result.nodes <= 5_000, "{} nodes", result.nodes);
    assert!(result.depth >= 1);
    assert!(pos.legal_moves().contains(&result.best.unwrap()));
}

#[test]
fn no_move_where_the_game_is_over() {
    let mated = Position::from_fen(Variant::Chess, "R5k1/5ppp/8/8/8/8/5PPP/6K1 b - - 0 1").unwrap();
    let result =
        Searcher::new(Variant::Chess, 1).search(&[mated], &Limits::default(), &AtomicBool::new(false), &mut |_| {});
    assert_eq!(result.best, None);
}

#[test]
fn level_one_errs_and_level_eight_does_not() {
    // A queen hangs. Level 8 always takes it; level 1 sometimes does not (on purpose).
    let pos = Position::from_fen(Variant::Chess, "4k3/8/8/3q4/8/8/3R4/4K3 w - - 0 1").unwrap();
    let take = pos.parse_move("Rxd5").unwrap();
    let mut missed = 0;
    for seed in 0..60 {
        let mut limits = Level::new(1).unwrap().limits(std::time::Duration::from_secs(60), seed);
        limits.movetime = None;
        limits.soft_time = None;
        let result = Searcher::new(Variant::Chess, 1).search(
            std::slice::from_ref(&pos),
            &limits,
            &AtomicBool::new(false),
            &mut |_| {},
        );
        missed += usize::from(result.best != Some(take));
    }
    assert!(missed > 0, "level 1 never erred in 60 tries");
    assert!(missed < 60, "level 1 never took a hanging queen");
    let mut limits = Level::new(8).unwrap().limits(std::time::Duration::from_secs(60), 1);
    limits.depth = Some(4);
    limits.movetime = None;
    limits.soft_time = None;
    let result = Searcher::new(Variant::Chess, 1).search(
        std::slice::from_ref(&pos),
        &limits,
        &AtomicBool::new(false),
        &mut |_| {},
    );
    assert_eq!(result.best, Some(take));
}

#[test]
fn levels_are_one_to_eight() {
    assert!(Level::new(0).is_err());
    assert!(Level::new(9).is_err());
    assert_eq!(Level::new(8).unwrap(), Level::MAX);
    assert_eq!(
        Level::new(9).unwrap_err().to_string(),
        "level 9 does not exist; the levels are 1 (gentlest) to 8 (strongest)"
    );
}

/// Level `n`'s limits with no clock to stop it: only its depth cap and node budget.
fn untimed(n: i64) -> Limits {
    let mut limits = Level::new(n).unwrap().limits(std::time::Duration::from_secs(600), 1);
    limits.movetime = None;
    limits.soft_time = None;
    limits
}

#[test]
fn levels_six_and_seven_stop_at_their_node_budgets_and_eight_has_none() {
    let six = Level::new(6).unwrap().nodes().expect("level 6 has a node budget");
    let seven = Level::new(7).unwrap().nodes().expect("level 7 has a node budget");
    assert!(six < seven, "level 7 looks further than level 6");
    assert_eq!(Level::MAX.nodes(), None, "level 8 thinks its whole time");
    assert!((1..=5).all(|n| Level::new(n).unwrap().nodes().is_none()));
    let pos = Position::start(Variant::Chess);
    for (n, budget) in [(6, six), (7, seven)] {
        let result = Searcher::new(Variant::Chess, 8).search(
            std::slice::from_ref(&pos),
            &untimed(n),
            &AtomicBool::new(false),
            &mut |_| {},
        );
        // Each node checks the budget; the few more are the aborted nodes unwinding.
        assert!(result.nodes <= budget + 64, "level {n}: {} nodes for a budget of {budget}", result.nodes);
        assert!(result.depth >= 4, "level {n} finished depth {}", result.depth);
        assert!(pos.legal_moves().contains(&result.best.unwrap()));
    }
}

#[test]
fn level_six_completes_depth_four_whatever_its_node_budget() {
    // Where depth 4 costs more than level 6's nodes (the bench's 10x10 positions), level 6
    // still finishes it, as level 5 (depth 4) does, and only then stops.
    let budget = Level::new(6).unwrap().nodes().unwrap();
    let depth4 = Limits { depth: Some(4), ..Limits::default() };
    let mut costly = 0;
    for pos in engine::bench::positions() {
        let search = |limits: &Limits| {
            Searcher::new(pos.variant(), 8).search(
                std::slice::from_ref(&pos),
                limits,
                &AtomicBool::new(false),
                &mut |_| {},
            )
        };
        let plain = search(&depth4);
        if plain.nodes <= budget {
            continue;
        }
        costly += 1;
        let result = search(&untimed(6));
        assert!(result.depth >= 4, "{}: level 6 finished depth {}", pos.fen(), result.depth);
        assert!(result.nodes >= plain.nodes);
    }
    assert!(costly > 0, "no bench position where depth 4 costs more than {budget} nodes");
}

#[test]
fn level_seven_completes_depth_five_where_level_six_stops_at_four() {
    // In Ghost King Chess depth 5 from the start costs more than level 7's nodes; with level
    // 6's floor (4) level 7 stopped at depth 4 there too and the two played alike. Level 7
    // completes depth 5 first; level 6 still stops at depth 4.
    let pos = Position::start(Variant::GhostKing);
    let depth5 = Searcher::new(Variant::GhostKing, 8).search(
        std::slice::from_ref(&pos),
        &Limits { depth: Some(5), ..Limits::default() },
        &AtomicBool::new(false),
        &mut |_| {},
    );
    let seven = Level::new(7).unwrap().nodes().unwrap();
    assert!(depth5.nodes > seven, "depth 5 costs {} nodes, under level 7's {seven}", depth5.nodes);
    let depth_of = |n: i64| {
        Searcher::new(Variant::GhostKing, 8)
            .search(std::slice::from_ref(&pos), &untimed(n), &AtomicBool::new(false), &mut |_| {})
            .depth
    };
    assert_eq!(depth_of(6), 4, "level 6");
    assert_eq!(depth_of(7), 5, "level 7");
}
