//! `chimera`: the command line (DESIGN.md gives the contract).

mod cli;
mod render_cmd;

fn main() -> std::process::ExitCode {
    cli::run()
}
