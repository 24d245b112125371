//! `chimera`: the command line (DESIGN.md gives the contract).

mod cli;

fn main() -> std::process::ExitCode {
    cli::run()
}
