//! The checks reach what they claim to check: a written script plays rated games to their end
//! through the host, and the uci and notation checks accept what the project writes.

use checks::host::{run, Reached, Step, What};
use host::{ColorChoice, Command, TimeControl, User};
use rules::Variant;

fn say(user: usize, what: What) -> Step {
    Step::Say { user, channel: 0, what }
}

fn challenge(variant: Variant, rated: bool) -> What {
    What::Command(Command::Challenge {
        opponent: Some(User { id: "bob".into(), name: "bob".into() }),
        variant,
        color: ColorChoice::White,
        time: TimeControl::Live { minutes: 1, increment: 0 },
        rated,
    })
}

fn legal_move(pick: u16) -> What {
    What::LegalMove { pick, coordinates: pick.is_multiple_of(2), confirm: true, name_game: pick.is_multiple_of(3) }
}

#[test]
fn a_script_plays_rated_games_to_their_end() {
    let accept = || What::Command(Command::Accept { challenger: None, challenge: None });
    let mut steps = vec![say(0, challenge(Variant::Werewolf, true)), say(1, accept())];
    for ply in 0..6 {
        steps.push(say(ply % 2, legal_move(ply as u16 * 7)));
    }
    steps.push(say(0, What::Command(Command::Resign { confirm: true, game: None })));
    // A second game in the same channel, which runs out of time.
    steps.push(say(0, challenge(Variant::UnicornGreat, true)));
    steps.push(say(1, accept()));
    steps.push(say(0, legal_move(3)));
    steps.push(Step::Tick { ms: 3_600_000 });
    // Text as the console reads it, and a game that is not rated.
    steps.push(say(1, What::Text("/challenge @ann variant:grolman rated:no color:white".into())));
    steps.push(say(0, What::Text("/accept".into())));
    steps.push(say(1, legal_move(0)));
    steps.push(say(0, What::Command(Command::Abort)));
    let reached = run(&steps);
    assert_eq!(reached, Reached { games: 3, moves: 6 + 1 + 1, finished: 2, rated_finished: 2 });
}

#[test]
fn the_uci_check_follows_a_whole_conversation() {
    checks::uci::converse(&[
        "uci",
        "setoption name UCI_Variant value grolman",
        "position startpos moves e2e4/g1e2/h1g1",
        "go depth 2",
        "setoption name Hash value 3",
        "go infinite",
        "stop",
        "position fen 4k3/8/8/8/8/8/8/8 w - - 0 1",
        "go nodes 10",
    ]);
}

#[test]
fn the_matrix_check_builds_pills_and_reads_them_as_commands_with_their_ids() {
    use chimera::matrix_read::{read, Said};
    use host::Mention;
    // `!challenge <pill showing "Bob Smith"> variant:grolman`, its id percent-encoded.
    let message = checks::matrix_text::build(b"!challenge \x01\x04bob\x02Bob Smith\x03 variant:grolman", false);
    // The localpart's bytes pick from the localpart's characters: the id is in what it means.
    let id = message.meant.split_whitespace().nth(1).expect("the pill's id").to_string();
    assert!(id.starts_with('@') && id.ends_with(":example.org"), "{message:?}");
    assert!(message.html.contains("%3Aexample.org") && message.body.contains("Bob Smith"), "{message:?}");
    let Said::Command(line) = read(&message.body, Some(&message.html), "!") else { panic!("{message:?}") };
    assert_eq!(line, format!("/challenge {id} variant:grolman"));
    let command: Command<Mention> = line.parse().unwrap();
    assert_eq!(command.people(), vec![&Mention(id)]);
    // With a reply quote first, and under another prefix: the same.
    checks::matrix_text::check(b"\x0c!challenge \x01\x04bob\x02Bob Smith\x03 variant:grolman");
    checks::matrix_text::check(b"\x06chess!challenge \x01\x04bob\x02Bob Smith\x03 variant:grolman");
    // The committed seeds each reach what they are named for.
    checks::matrix_text::check(b"\x00!move e4");
}
