//! Replays the committed fuzz corpus (`fuzz/corpus/<target>/`) through each target's check, so
//! the ordinary test suite runs every input the fuzzer kept. A target without a corpus fails:
//! the corpus is part of the repository, and losing it must not pass silently.

use std::path::PathBuf;

fn replay(target: &str, mut check: impl FnMut(&[u8])) {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../fuzz/corpus").join(target);
    let entries =
        std::fs::read_dir(&dir).unwrap_or_else(|e| panic!("the corpus {} cannot be read: {e}", dir.display()));
    let mut files: Vec<PathBuf> = entries.map(|e| e.expect("a corpus entry").path()).filter(|p| p.is_file()).collect();
    files.sort();
    assert!(!files.is_empty(), "the corpus {} is empty", dir.display());
    for file in &files {
        let data = std::fs::read(file).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
        // The file's name says which input failed, should one fail.
        eprintln!("{target}: {}", file.display());
        check(&data);
    }
    println!("{target}: {} inputs replayed", files.len());
}

#[test]
fn notation_corpus() {
    replay("notation", checks::notation::check);
}

#[test]
fn command_corpus() {
    replay("command", checks::command::check);
}

#[test]
fn matrix_text_corpus() {
    replay("matrix_text", checks::matrix_text::check);
}

#[test]
fn uci_corpus() {
    replay("uci", checks::uci::check);
}

#[test]
fn legality_corpus() {
    replay("legality", checks::legality::check);
}

/// The host corpus also has to reach deep: games played and rated games finished.
#[test]
fn host_corpus() {
    let mut total = checks::host::Reached::default();
    replay("host", |data| {
        let reached = checks::host::run(&checks::host::script(data));
        total.games += reached.games;
        total.moves += reached.moves;
        total.finished += reached.finished;
        total.rated_finished += reached.rated_finished;
    });
    println!("host corpus reached {total:?}");
    assert!(total.moves > 0 && total.rated_finished > 0, "the host corpus plays no rated game to its end: {total:?}");
}
