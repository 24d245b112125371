//! `chimera`: the command line (DESIGN.md gives the contract).

fn main() -> std::process::ExitCode {
    chimera::cli::run()
}
