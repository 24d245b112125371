//! The host speaks to no chat network and no terminal: nothing it depends on, however
//! indirectly, is a chat library or a command-line or settings reader. Asked of cargo itself,
//! as `cargo tree -p chimera-host -e normal` answers.

use std::process::Command;

const FORBIDDEN: [&str; 5] = ["serenity", "poise", "matrix-sdk", "clap", "dotenvy"];

/// The packages `package` depends on to build (no development dependencies), one per line.
fn normal_tree(package: &str) -> Vec<String> {
    let out = Command::new(env!("CARGO"))
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .args(["tree", "--frozen", "-e", "normal", "--prefix", "none", "--format", "{p}", "-p", package])
        .output()
        .expect("cargo runs");
    assert!(out.status.success(), "cargo tree failed: {}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout)
        .expect("utf-8")
        .lines()
        .filter_map(|line| line.split_whitespace().next().map(str::to_string))
        .collect()
}

#[test]
fn the_host_depends_on_no_chat_library_and_no_terminal() {
    let host = normal_tree("chimera-host");
    assert!(host.iter().any(|p| p == "chimera-rules") && host.iter().any(|p| p == "chimera-data"), "{host:?}");
    for forbidden in FORBIDDEN {
        assert!(!host.iter().any(|p| p == forbidden), "chimera-host reaches {forbidden}");
    }
    // The check can fail: the binary's crate does reach them.
    let bot = normal_tree("chimera");
    assert!(bot.iter().any(|p| p == "serenity") && bot.iter().any(|p| p == "clap"), "{bot:?}");
}
