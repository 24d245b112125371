//! The engine's UCI session on standard input and output, without building the bot: what
//! `chimera uci` does, for playing one build of the engine against another in the match
//! harness (`MATCH_UCI_ENGINE=path/to/this uci:8`, docs/engine.md).
//!
//! ```text
//! cargo build --release -p chimera-engine --example uci
//! ```

use std::io::{BufRead, Write};

use engine::uci::{Caps, Reply, Session};

fn say(lines: &[String]) {
    let mut out = std::io::stdout().lock();
    for line in lines {
        let _ = writeln!(out, "{line}");
    }
    let _ = out.flush();
}

fn main() {
    let mut session = Session::new(Caps::default());
    for line in std::io::stdin().lock().lines().map_while(Result::ok) {
        let Reply { lines, search, quit } = session.handle(&line);
        say(&lines);
        if let Some(search) = search {
            std::thread::spawn(move || search.run(&mut |line| say(&[line.to_string()])));
        }
        if quit {
            return;
        }
    }
    say(&session.end_of_input());
}
