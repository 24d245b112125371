//! The reader and the writer agree: every command written reads back as itself.

use std::collections::HashMap;

use proptest::prelude::*;
use rules::{Square, Variant};

use super::*;
use crate::clock::DAY_MS;

fn read(line: &str) -> Command<Mention> {
    line.parse().unwrap_or_else(|e| panic!("{line}: {e}"))
}

/// The people the properties use: a console name, a Discord id and a Matrix id.
fn people() -> Vec<User> {
    vec![
        User { id: "alice".into(), name: "alice".into() },
        User { id: "80351110224678912".into(), name: "Bob Smith".into() },
        User { id: "@cat:example.org".into(), name: "Cat".into() },
    ]
}

/// Resolves mentions as an adapter would, against `people`.
fn resolve(command: Command<Mention>) -> Result<Command, String> {
    let by_mention: HashMap<String, User> = people().into_iter().map(|u| (write::mention(&u), u)).collect();
    command.try_map_users(|m| by_mention.get(&m.0).cloned().ok_or(format!("nobody is {}", m.0)))
}

#[test]
fn challenges_read_their_options_in_any_order() {
    let tc = TimeControl::Live { minutes: 5, increment: 3 };
    let expected = Command::Challenge {
        opponent: Some(Mention("@bob".into())),
        variant: Variant::Golem,
        color: ColorChoice::White,
        time: tc,
        rated: false,
    };
    assert_eq!(read("/challenge @bob variant:golem color:white time:5+3 rated:no"), expected);
    let discord = read("/challenge rated:no golem time:5+3 color:w opponent:<@80351110224678912>");
    assert_eq!(discord.people(), vec![&Mention("<@80351110224678912>".into())]);
    let open = read("/challenge variant:chess");
    assert!(matches!(open, Command::Challenge { opponent: None, rated: true, color: ColorChoice::Random, .. }));
}

#[test]
fn button_commands_name_what_they_act_on() {
    assert_eq!(read("/accept challenge:12"), Command::Accept { challenger: None, challenge: Some(12) });
    assert_eq!(read("/resign confirm:yes game:7"), Command::Resign { confirm: true, game: Some(7) });
    assert_eq!(read("/draw accept game:7"), Command::Draw { action: DrawAction::Accept, game: Some(7) });
    assert_eq!(
        read("/move e2e3 (c3e2 c2c3 d1c2 e1d1) confirm:yes game:3"),
        Command::Move { text: "e2e3 (c3e2 c2c3 d1c2 e1d1)".into(), confirm: true, game: Some(3) }
    );
    assert_eq!(read("/move e2:e4"), Command::Move { text: "e2:e4".into(), confirm: false, game: None });
    let err = "/draw offer game:seven".parse::<Command<Mention>>().unwrap_err();
    assert_eq!(err.to_string(), "`game:seven` needs a number, like `game:12`");
}

#[test]
fn a_quoted_word_is_a_value_never_an_option() {
    assert_eq!(
        read(r#"/move "e4 confirm:yes""#),
        Command::Move { text: "e4 confirm:yes".into(), confirm: false, game: None }
    );
    let written = Command::<User>::Move { text: "e4 confirm:yes".into(), confirm: false, game: None }.to_string();
    assert_eq!(written, r#"/move "e4 confirm:yes""#);
    let Command::Tournament(TournamentCommand::Create { name, .. }) =
        read(r#"/tournament create name:"say \"hi\" \\ bye" variant:chess format:swiss"#)
    else {
        panic!("not a tournament creation");
    };
    assert_eq!(name, r#"say "hi" \ bye"#);
    assert_eq!("/move \"e4".parse::<Command<Mention>>().unwrap_err(), CommandError::OpenQuote);
}

#[test]
fn buttons_and_hints_read_as_people_write_them() {
    let accept = Command::<User>::Accept { challenger: None, challenge: Some(3) };
    assert_eq!(accept.to_string(), "/accept challenge:3");
    let turn = Command::<User>::Move { text: "e2e3 (c3e2 c2c3)".into(), confirm: true, game: Some(4) };
    assert_eq!(turn.to_string(), "/move e2e3 (c3e2 c2c3) confirm:yes game:4");
    let draw = Command::<User>::Draw { action: DrawAction::Offer, game: None };
    assert_eq!(draw.to_string(), "/draw offer");
    let join = Command::<User>::Tournament(TournamentCommand::Join { id: Some(2) });
    assert_eq!(join.to_string(), "/tournament join id:2");
}

fn user() -> impl Strategy<Value = User> {
    prop::sample::select(people())
}

fn variant() -> impl Strategy<Value = Variant> {
    prop::sample::select(Variant::ALL.to_vec())
}

fn time() -> impl Strategy<Value = TimeControl> {
    prop_oneof![
        (1u32..=30).prop_map(|days| TimeControl::Correspondence { days }),
        (1u32..=180, 0u32..=60).prop_map(|(minutes, increment)| TimeControl::Live { minutes, increment }),
    ]
}

fn id() -> impl Strategy<Value = Option<i64>> {
    prop::option::of(1i64..1_000_000)
}

fn color() -> impl Strategy<Value = ColorChoice> {
    prop::sample::select(ColorChoice::ALL.to_vec())
}

/// Move texts as players write them, and texts with everything the reader treats specially.
fn move_text() -> impl Strategy<Value = String> {
    prop_oneof![
        prop::sample::select(vec![
            "e4",
            "Nxe5",
            "O-O",
            "e2e4",
            "e2-e4",
            "d4e5,e5f6",
            "e7e8q",
            "c7d8",
            "a10a9",
            "Nxg3=H",
            "e2e4 (g1e2 h1g1)",
            "Rf3 (Kf4, e5, Nce4, c3+, Bc2)#",
            "e2:e4",
            "e4 confirm:yes",
            "game:3",
            "say \"hi\"",
            "back\\slash",
            "id:3",
        ])
        .prop_map(String::from),
        // Any words of printable text without leading, trailing or doubled spaces.
        prop::collection::vec("[!-~]{1,8}", 1..4).prop_map(|words| words.join(" ")),
    ]
}

fn starts() -> impl Strategy<Value = Starts> {
    prop_oneof![
        Just(Starts::Now),
        (0i64..365 * 86_400).prop_map(|s| Starts::In(s * 1000)),
        // 1970 to 9999, to the second.
        (0i64..253_402_300_799).prop_map(|s| Starts::At(s * 1000)),
    ]
}

fn tournament() -> impl Strategy<Value = TournamentCommand> {
    let create = (
        "[A-Za-z0-9 \"\\\\:!]{0,58}",
        variant(),
        prop::sample::select(data::Format::ALL.to_vec()),
        1u32..=30,
        time(),
        any::<bool>(),
        prop::option::of(starts()),
        any::<bool>(),
    )
        .prop_map(|(name, variant, format, rounds, time, rated, starts, double)| TournamentCommand::Create {
            // Names are trimmed and never empty.
            name: format!("T{}", name.trim()),
            variant,
            format,
            rounds: (format == data::Format::Swiss).then_some(rounds),
            time,
            rated,
            starts,
            double: double && format == data::Format::RoundRobin,
        });
    prop_oneof![
        create,
        id().prop_map(|id| TournamentCommand::Join { id }),
        id().prop_map(|id| TournamentCommand::Leave { id }),
        id().prop_map(|id| TournamentCommand::Start { id }),
        id().prop_map(|id| TournamentCommand::Standings { id }),
        (prop::option::of(1u32..100), id()).prop_map(|(round, id)| TournamentCommand::Pairings { round, id }),
        (user(), id()).prop_map(|(player, id)| TournamentCommand::Withdraw { player, id }),
        id().prop_map(|id| TournamentCommand::Cancel { id }),
        prop::option::of(1u32..100).prop_map(|page| TournamentCommand::List { page }),
        Just(TournamentCommand::Help),
    ]
}

/// Every kind of command, with every option it has.
fn command() -> impl Strategy<Value = Command> {
    let square = prop::option::of((0u8..10, 0u8..10).prop_map(|(f, r)| Square::new(f, r).expect("on the board")));
    prop_oneof![
        (prop::option::of(user()), variant(), color(), time(), any::<bool>()).prop_map(
            |(opponent, variant, color, time, rated)| Command::Challenge { opponent, variant, color, time, rated }
        ),
        (variant(), 1i64..=8, color(), time()).prop_map(|(variant, level, color, time)| Command::Play {
            variant,
            level: engine::Level::new(level).expect("a level"),
            color,
            time
        }),
        (prop::option::of(user()), id()).prop_map(|(challenger, challenge)| Command::Accept { challenger, challenge }),
        (prop::option::of(user()), id()).prop_map(|(challenger, challenge)| Command::Decline { challenger, challenge }),
        (move_text(), any::<bool>(), id()).prop_map(|(text, confirm, game)| Command::Move { text, confirm, game }),
        any::<bool>().prop_map(|text| Command::Board { text }),
        square.prop_map(|square| Command::Moves { square }),
        (any::<bool>(), id()).prop_map(|(confirm, game)| Command::Resign { confirm, game }),
        (
            prop::sample::select(vec![DrawAction::Offer, DrawAction::Accept, DrawAction::Decline, DrawAction::Claim]),
            id()
        )
            .prop_map(|(action, game)| Command::Draw { action, game }),
        (prop::sample::select(vec![OfferAction::Offer, OfferAction::Accept, OfferAction::Decline]), id())
            .prop_map(|(action, game)| Command::Takeback { action, game }),
        Just(Command::Abort),
        Just(Command::Game),
        id().prop_map(|game| Command::Pgn { game }),
        (1i64..1_000_000).prop_map(|game| Command::Gif { game }),
        (1i64..1_000_000).prop_map(|game| Command::Analyse { game }),
        prop::option::of(variant()).prop_map(|variant| Command::Rules { variant }),
        prop::option::of(variant()).prop_map(|variant| Command::Puzzle { variant }),
        Just(Command::PuzzleHelp),
        Just(Command::SettingsHelp),
        (prop::option::of(user()), prop::option::of(variant()))
            .prop_map(|(user, variant)| Command::Rating { user, variant }),
        variant().prop_map(|variant| Command::Leaderboard { variant }),
        prop::option::of(user()).prop_map(|user| Command::History { user }),
        Just(Command::Games),
        Just(Command::Help),
        Just(Command::PlayHelp),
        tournament().prop_map(Command::Tournament),
        settings().prop_map(Command::Settings),
    ]
}

/// Channels as each network's mentions write them, and with everything the reader treats
/// specially.
fn channel() -> impl Strategy<Value = ChannelMention> {
    prop_oneof![
        prop::sample::select(vec![
            "#general",
            "#general-2",
            "<#80351110224678912>",
            "#chess:example.org",
            "!abc:example.org",
            "#off",
            "#a:b:c"
        ])
        .prop_map(String::from),
        "(#|!|<#)[!-~]{1,12}",
    ]
    .prop_filter_map("a channel mention", |text| text.parse().ok())
}

fn daily_puzzle() -> impl Strategy<Value = DailyPuzzleSetting> {
    prop_oneof![
        Just(DailyPuzzleSetting::Off),
        (channel(), 0u8..24, 0u8..60).prop_map(|(channel, hour, minute)| DailyPuzzleSetting::At {
            channel,
            time: data::TimeOfDay::new(hour, minute).expect("a time of day"),
        }),
    ]
}

/// Every option of `/settings`, each given or not.
fn settings() -> impl Strategy<Value = SettingsCommand> {
    let theme = prop_oneof![
        Just(ThemeChoice::Default),
        prop::sample::select(render::Theme::ALL.to_vec()).prop_map(ThemeChoice::Named)
    ];
    let bottom = prop::sample::select(vec![data::Bottom::Own, data::Bottom::ToMove]);
    let quiet = prop::option::of(
        (0u16..1440, 1u16..1440).prop_map(|(from, len)| data::QuietHours { from, to: (from + len) % 1440 }),
    );
    let zone = prop::sample::select(vec!["UTC", "Europe/Berlin", "America/Argentina/Buenos_Aires", "Etc/GMT+5"])
        .prop_map(|z| z.parse::<Zone>().unwrap());
    let switch = || prop::option::of(any::<bool>());
    (
        switch(),
        prop::option::of(daily_puzzle()),
        prop::option::of(theme),
        switch(),
        prop::option::of(bottom),
        switch(),
        switch(),
        prop::option::of(quiet),
        prop::option::of(zone),
    )
        .prop_map(|(web, daily_puzzle, theme, coordinates, bottom, text, dm, quiet, zone)| SettingsCommand {
            web,
            daily_puzzle,
            theme,
            coordinates,
            bottom,
            text,
            dm,
            quiet,
            zone,
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn what_the_writer_writes_the_reader_reads_back(command in command()) {
        let text = command.to_string();
        let read = text.parse::<Command<Mention>>().map_err(|e| format!("{text}: {e}"));
        prop_assert_eq!(read.and_then(resolve), Ok(command), "{}", text);
    }
}

#[test]
fn delays_and_times_are_written_as_starts_reads_them() {
    let at = Command::<User>::Tournament(TournamentCommand::Create {
        name: "Spring Open".into(),
        variant: Variant::Werewolf,
        format: data::Format::RoundRobin,
        rounds: None,
        time: TimeControl::Correspondence { days: 2 },
        rated: false,
        starts: Some(Starts::In(DAY_MS + 6 * 3_600_000 + 5_000)),
        double: true,
    });
    assert_eq!(
        at.to_string(),
        "/tournament create name:\"Spring Open\" variant:werewolf format:round-robin time:2d rated:no starts:1d6h5s double:yes"
    );
}

#[test]
fn play_reads_its_level_and_refuses_one_that_does_not_exist() {
    let read = |line: &str| line.parse::<Command<Mention>>();
    let Ok(Command::Play { variant, level, color, .. }) = read("/play golem level:7 color:black") else {
        panic!("/play reads");
    };
    assert_eq!((variant, level.get(), color), (Variant::Golem, 7, ColorChoice::Black));
    let Ok(Command::Play { level, .. }) = read("/play variant:chess") else { panic!("/play reads") };
    assert_eq!(level.get(), crate::opponent::DEFAULT_LEVEL);
    let err = read("/play chess level:9").unwrap_err().to_string();
    assert!(err.contains("level 9 does not exist"), "{err}");
    let err = read("/play chess level:high").unwrap_err().to_string();
    assert!(err.contains("needs a number"), "{err}");
    assert!(matches!(read("/play"), Err(CommandError::Missing { command: "play", .. })));
}

#[test]
fn settings_read_a_switch_and_refuse_anything_else() {
    let read = |line: &str| line.parse::<Command<Mention>>();
    let web = |web| Command::Settings(SettingsCommand { web, ..SettingsCommand::default() });
    assert_eq!(read("/settings"), Ok(web(None)));
    assert_eq!(read("/settings web:on"), Ok(web(Some(true))));
    assert_eq!(read("/settings WEB:Off"), Ok(web(Some(false))));
    assert_eq!(
        Command::<User>::Settings(SettingsCommand { web: Some(false), ..SettingsCommand::default() }).to_string(),
        "/settings web:off"
    );
    assert_eq!(Command::<User>::Settings(SettingsCommand::default()).to_string(), "/settings");
    let err = read("/settings web:maybe").unwrap_err().to_string();
    assert_eq!(err, "`web:maybe` is not a switch: `web:on` or `web:off`");
    assert_eq!(
        read("/settings colour:blue"),
        Err(CommandError::UnknownOption { command: "settings", option: "colour".into() })
    );
    assert!(read("/settings on").is_err(), "a bare word says nothing about which setting");
}

#[test]
fn settings_read_the_players_own_and_name_what_is_wrong() {
    let read = |line: &str| line.parse::<Command<Mention>>();
    let mine = SettingsCommand {
        theme: Some(ThemeChoice::Named(render::Theme::Blue)),
        coordinates: Some(false),
        bottom: Some(data::Bottom::Own),
        text: Some(true),
        dm: Some(true),
        quiet: Some(Some(data::QuietHours { from: 22 * 60, to: 7 * 60 + 30 })),
        zone: Some("Europe/Berlin".parse().unwrap()),
        web: None,
        daily_puzzle: None,
    };
    assert_eq!(
        read("/settings theme:blue coordinates:off bottom:own text:on notify:on quiet:22:00-07:30 zone:europe/berlin"),
        Ok(Command::Settings(mine.clone()))
    );
    assert_eq!(
        Command::<User>::Settings(mine).to_string(),
        "/settings theme:blue coordinates:off bottom:own text:on notify:on quiet:22:00-07:30 zone:Europe/Berlin"
    );
    let quiet_off = SettingsCommand { quiet: Some(None), ..SettingsCommand::default() };
    assert_eq!(read("/settings quiet:off"), Ok(Command::Settings(quiet_off)));
    for (line, named) in [
        ("/settings theme:plaid", "plaid"),
        ("/settings bottom:left", "left"),
        ("/settings quiet:late", "late"),
        ("/settings zone:Mars/Olympus", "Mars/Olympus"),
        ("/settings coordinates:maybe", "maybe"),
    ] {
        let err = read(line).unwrap_err().to_string();
        assert!(err.contains(named), "{line}: {err}");
    }
}

#[test]
fn puzzle_reads_an_optional_variant() {
    let read = |line: &str| line.parse::<Command<Mention>>();
    assert_eq!(read("/puzzle"), Ok(Command::Puzzle { variant: None }));
    assert_eq!(read("/puzzle golem"), Ok(Command::Puzzle { variant: Some(Variant::Golem) }));
    assert_eq!(read("/puzzle variant:werewolf"), Ok(Command::Puzzle { variant: Some(Variant::Werewolf) }));
    assert_eq!(read("/help puzzle"), Ok(Command::PuzzleHelp));
    assert_eq!(read("/help settings"), Ok(Command::SettingsHelp));
    assert_eq!(Command::<User>::Puzzle { variant: Some(Variant::Chess) }.to_string(), "/puzzle variant:chess");
    assert!(read("/puzzle checkers").is_err(), "no such variant");
    assert_eq!(
        read("/puzzle chess level:3"),
        Err(CommandError::UnknownOption { command: "puzzle", option: "level".into() })
    );
}

#[test]
fn the_daily_puzzle_reads_a_channel_and_a_time_or_off() {
    let read = |line: &str| line.parse::<Command<Mention>>();
    let daily = |daily_puzzle| Ok(Command::Settings(SettingsCommand { daily_puzzle, ..SettingsCommand::default() }));
    let at = |channel: &str, hour, minute| {
        Some(DailyPuzzleSetting::At {
            channel: channel.parse().unwrap(),
            time: data::TimeOfDay::new(hour, minute).unwrap(),
        })
    };
    assert_eq!(read("/settings daily-puzzle:#puzzles time:18:00"), daily(at("#puzzles", 18, 0)));
    assert_eq!(read("/settings time:7:05 Daily-Puzzle:<#803>"), daily(at("<#803>", 7, 5)));
    assert_eq!(read("/settings daily-puzzle:!abc:example.org time:00:00"), daily(at("!abc:example.org", 0, 0)));
    assert_eq!(read("/settings daily-puzzle:Off"), daily(Some(DailyPuzzleSetting::Off)));
    let both = read("/settings web:on daily-puzzle:off").unwrap();
    assert_eq!(resolve(both).unwrap().to_string(), "/settings web:on daily-puzzle:off");
    let written = Command::<User>::Settings(SettingsCommand {
        daily_puzzle: at("#puzzles", 9, 30),
        ..SettingsCommand::default()
    });
    assert_eq!(written.to_string(), "/settings daily-puzzle:#puzzles time:09:30");

    let refused = |line: &str| read(line).unwrap_err().to_string();
    assert_eq!(
        refused("/settings daily-puzzle:#puzzles"),
        "`/settings` needs the time of the daily puzzle, in UTC; for example `/settings daily-puzzle:#puzzles time:18:00`"
    );
    assert_eq!(
        refused("/settings time:18:00"),
        "`/settings` needs the channel of the daily puzzle; for example `/settings daily-puzzle:#puzzles time:18:00`"
    );
    assert_eq!(
        refused("/settings daily-puzzle:off time:18:00"),
        "`daily-puzzle:off` stops the daily puzzle, and takes no time"
    );
    assert_eq!(
        refused("/settings daily-puzzle:puzzles time:18:00"),
        "`puzzles` does not name a channel: name one as you mention it, like `#puzzles`"
    );
    assert_eq!(
        refused("/settings daily-puzzle:#puzzles time:6pm"),
        "`6pm` is not a time of day: write it as HH:MM, 00:00 to 23:59 (UTC), like 18:00"
    );
    assert!(read("/settings daily-puzzle:#puzzles time:24:00").is_err());
    // Hyphenated options take words of two letters or more: castling before a colon is a move.
    assert_eq!(read("/move O-O:x"), Ok(Command::Move { text: "O-O:x".into(), confirm: false, game: None }));
    assert_eq!(
        read("/move daily-puzzle:x"),
        Ok(Command::Move { text: "daily-puzzle:x".into(), confirm: false, game: None }),
        "an option word in a move joins the move's text"
    );
}
