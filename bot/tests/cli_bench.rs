//! `chimera bench` prints the engine's fixed benchmark: the node count is the one the engine
//! counts itself, and a depth outside the range is refused.

use std::process::{Command, Output};

fn chimera(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_chimera")).args(args).output().expect("the binary runs")
}

#[test]
fn bench_prints_the_engines_node_count() {
    let out = chimera(&["bench", "--depth", "2"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let stdout = String::from_utf8(out.stdout).expect("utf-8 output");
    let nodes = stdout.lines().find_map(|l| l.strip_prefix("nodes: ")).expect("a nodes line");
    assert_eq!(nodes.parse::<u64>().expect("a count"), engine::bench::run(2).nodes, "{stdout}");
    assert!(stdout.lines().any(|l| l.starts_with("nodes/s: ")), "{stdout}");
}

#[test]
fn bench_refuses_depth_zero() {
    let out = chimera(&["bench", "--depth", "0"]);
    assert_eq!(out.status.code(), Some(2), "{}", String::from_utf8_lossy(&out.stderr));
}
