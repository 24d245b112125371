//! `/analyse` with an outside UCI engine set for the variant (`CHIMERA_ANALYSIS_ENGINE_CHESS`):
//! Debian's Stockfish judging a chess game, and every way an outside engine can fail (missing,
//! not playing the variant, exiting, answering an unplayable move, dying half-way), each
//! answered by Chimera's own engine with the reason said and the progress never going back.
//!
//! The Stockfish tests need the `stockfish` package (`.ci/run` installs it). Without it they
//! say so on one line and pass, except under `CI=true`, where they fail.

mod common;

use std::collections::HashMap;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::time::Duration;

use common::{text, Club, Rooms};
use host::{OutsideEngine, Progress, Reply, Task};
use rules::Variant;

/// Debian's Stockfish, or `None` (with a line that says so) where it is not installed.
fn stockfish() -> Option<PathBuf> {
    let found = std::env::var_os("CHIMERA_TEST_STOCKFISH")
        .map(PathBuf::from)
        .into_iter()
        .chain(["/usr/games/stockfish", "/usr/bin/stockfish"].map(PathBuf::from))
        .find(|p| p.is_file());
    if found.is_none() {
        let why =
            "stockfish is not installed (apt-get install stockfish): the outside-engine test with it does not run";
        assert!(std::env::var("CI").as_deref() != Ok("true"), "{why}");
        eprintln!("{why}");
    }
    found
}

/// A host whose analyses take 50 ms a position, with `engines` set.
async fn open(engines: HashMap<Variant, OutsideEngine>) -> Club {
    Club::open_with(|settings| {
        settings.analysis_budget = Duration::from_millis(50);
        settings.analysis_engines = engines;
    })
    .await
}

/// A finished game between alice (White) and bob in channel `g`: `moves` (coordinates), then a
/// resignation if the moves left the game going.
async fn finished_game(club: &Club, variant: Variant, moves: &[&str]) {
    let challenge = format!("/challenge @bob variant:{} color:white rated:no", variant.id());
    assert!(!club.say("alice", "g", &challenge).await.is_error());
    assert!(!club.say("bob", "g", "/accept").await.is_error());
    for (i, m) in moves.iter().enumerate() {
        let who = if i % 2 == 0 { "alice" } else { "bob" };
        let reply = club.say(who, "g", &format!("/move {m} confirm:yes")).await;
        assert!(!reply.is_error(), "{m}: {}", text(&reply));
    }
    let who = if moves.len().is_multiple_of(2) { "alice" } else { "bob" };
    club.say(who, "g", "/resign confirm:yes").await;
}

/// An executable shell script in `dir`, standing in for a UCI engine.
fn script(dir: &Path, name: &str, body: &str) -> PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, format!("#!/bin/sh\n{body}")).unwrap();
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
    path
}

/// A script engine that names itself, answers the handshake, and on each `go` runs `on_go`
/// (with `$n`, the searches so far, counted from 1).
fn fake_engine(dir: &Path, name: &str, on_go: &str) -> PathBuf {
    script(
        dir,
        name,
        &format!(
            r#"n=0
while read -r line; do
  case "$line" in
    uci) echo "id name Fake Engine"; echo "option name Hash type spin default 16 min 1 max 64"; echo uciok;;
    isready) echo readyok;;
    go*) n=$((n+1)); {on_go};;
    quit) exit 0;;
  esac
done
"#
        ),
    )
}

fn chess_with(engine: OutsideEngine) -> HashMap<Variant, OutsideEngine> {
    HashMap::from([(Variant::Chess, engine)])
}

/// Knights out and back, twice: a game whose best moves a script can give (the game's own).
const SHUFFLE: [&str; 8] = ["g1f3", "g8f6", "f3g1", "f6g8", "g1f3", "g8f6", "f3g1", "f6g8"];

/// Answers each search with the shuffle's next move.
const SHUFFLE_ANSWERS: &str = r#"set -- g1f3 g8f6 f3g1 f6g8; i=$(( (n-1) % 4 + 1 )); eval "m=\${$i}"; echo "info depth 1 score cp 12 pv $m"; echo "bestmove $m""#;

fn summary(reply: &Reply) -> String {
    assert!(!reply.is_error(), "{}", text(reply));
    host::typed::plain(&reply.messages[0].text)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn stockfish_judges_a_chess_game_and_the_answer_names_it() {
    let Some(stockfish) = stockfish() else { return };
    let club = open(chess_with(OutsideEngine::new(&stockfish))).await;
    // The fool's mate: 2. g4 walks into mate in one.
    finished_game(&club, Variant::Chess, &["f2f3", "e7e5", "g2g4", "d8h4"]).await;
    let reply = club.say("alice", "g", "/analyse 1").await;
    let said = summary(&reply);
    assert!(said.contains("by Stockfish"), "{said}");
    assert!(!said.contains("Chimera's engine"), "{said}");
    let blunder = said.lines().find(|l| l.starts_with("2. g4")).unwrap_or_else(|| panic!("g4 is listed: {said}"));
    assert!(blunder.contains("?? blunder"), "{blunder}");
    let pgn = host::typed::plain(&reply.messages[1].text);
    assert!(pgn.contains("[Annotator \"Stockfish"), "{pgn}");
    // Black's mate is the engine's own best move, so it is never marked; the game ended in it.
    assert!(pgn.contains("[%eval #-1]"), "after g4 Black mates in one: {pgn}");
    let kept = club.host.store().read(|tx| tx.analysis(1)).await.unwrap().expect("kept for the web page");
    assert_eq!(kept.plies[3].judgement, Some(data::Judgement::Blunder));
    assert!(matches!(&kept.judge, data::Judge::Outside { name } if name.starts_with("Stockfish")), "{:?}", kept.judge);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn stockfish_set_for_golem_chess_is_not_asked_and_chimera_judges() {
    let Some(stockfish) = stockfish() else { return };
    let club = open(HashMap::from([(Variant::Golem, OutsideEngine::new(&stockfish))])).await;
    finished_game(&club, Variant::Golem, &["e2e4", "e7e5"]).await;
    let said = summary(&club.say("alice", "g", "/analyse 1").await);
    assert!(said.contains("by Chimera's engine"), "{said}");
    assert!(said.contains("could not be used: it does not play Golem Chess"), "{said}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_missing_engine_leaves_the_analysis_to_chimera() {
    let club = open(chess_with(OutsideEngine::new("/nonexistent/stockfish"))).await;
    finished_game(&club, Variant::Chess, &SHUFFLE).await;
    let said = summary(&club.say("alice", "g", "/analyse 1").await);
    assert!(said.contains("by Chimera's engine"), "{said}");
    assert!(
        said.contains("The Chess engine set for this Chimera, stockfish, could not be used: it could not be started"),
        "{said}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_engine_that_exits_or_answers_nonsense_leaves_the_analysis_to_chimera() {
    let dir = tempfile::tempdir().unwrap();
    let cases = [
        ("exits", "exit 3", "it exited before answering with `bestmove`"),
        ("illegal", r#"echo "info depth 1 score cp 5"; echo "bestmove a1a8""#, "its move `a1a8` is not playable there"),
        ("silent-score", r#"echo "info depth 1 nodes 5"; echo "bestmove g1f3""#, "it gave no score"),
        ("no-move", r#"echo "info depth 1 score cp 5"; echo "bestmove (none)""#, "it found no move"),
    ];
    for (name, on_go, why) in cases {
        let club = open(chess_with(OutsideEngine::new(fake_engine(dir.path(), name, on_go)))).await;
        finished_game(&club, Variant::Chess, &SHUFFLE[..4]).await;
        let said = summary(&club.say("alice", "g", "/analyse 1").await);
        assert!(said.contains("by Chimera's engine"), "{name}: {said}");
        assert!(said.contains(&format!("Fake Engine, could not be used: {why}")), "{name}: {said}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_script_engine_judges_when_it_works() {
    let dir = tempfile::tempdir().unwrap();
    let engine = fake_engine(dir.path(), "steady", SHUFFLE_ANSWERS);
    let club = open(chess_with(OutsideEngine::new(engine))).await;
    finished_game(&club, Variant::Chess, &SHUFFLE).await;
    let reply = club.say("alice", "g", "/analyse 1").await;
    let said = summary(&reply);
    assert!(said.contains("by Fake Engine, 50 ms a position"), "{said}");
    // Kept with its judge, for the game's page.
    let kept = club.host.store().read(|tx| tx.analysis(1)).await.unwrap().expect("kept for the web page");
    assert_eq!(kept.judge, data::Judge::Outside { name: "Fake Engine".into() });
    // Its score for every position is +0.12 for the side to move: White's evaluation alternates.
    let pgn = host::typed::plain(&reply.messages[1].text);
    assert!(pgn.contains("1. Nf3 { [%eval -0.12] } 1... Nf6 { [%eval 0.12] }"), "{pgn}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_engine_dying_half_way_is_replaced_and_progress_never_goes_back() {
    let dir = tempfile::tempdir().unwrap();
    let on_go = format!(r#"if [ "$n" -gt 4 ]; then exit 9; fi; {SHUFFLE_ANSWERS}"#);
    let engine = fake_engine(dir.path(), "tired", &on_go);
    let club = open(chess_with(OutsideEngine::new(engine))).await;
    finished_game(&club, Variant::Chess, &SHUFFLE).await;
    let rooms = Rooms::default();
    let reply = club.through(&rooms, "alice", "g", "/analyse 1").await;
    let said = summary(&reply);
    assert!(said.contains("by Chimera's engine"), "{said}");
    assert!(said.contains("Fake Engine, could not be used: it exited before answering with `bestmove`"), "{said}");
    // The four positions the script searched, then Chimera's search of all nine from the start:
    // the count shown holds at four until Chimera passes it, and every step is heard once.
    let positions = SHUFFLE.len() as u32 + 1;
    let step = |done| Progress::new(Task::Analysis { game: 1 }, done, positions);
    assert_eq!(rooms.progress(), (0..=positions).map(step).collect::<Vec<_>>());
    // Chimera's scale throughout: its evaluations, not the script's +0.12 everywhere.
    let pgn = host::typed::plain(&reply.messages[1].text);
    assert!(pgn.contains("[Annotator \"Chimera\"]"), "{pgn}");
    // Kept as Chimera's judgement, naming the engine that failed.
    let kept = club.host.store().read(|tx| tx.analysis(1)).await.unwrap().expect("kept for the web page");
    assert_eq!(kept.judge, data::Judge::ChimeraInstead { outside: "Fake Engine".into() });
}
