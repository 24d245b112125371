//! Writing commands as text: the one writer, for button ids and for the commands the host
//! suggests in its messages. What it writes, the reader (`read.rs`) reads back as the same
//! command; `tests.rs` checks that for every kind of command.

use std::fmt::{self, Display, Formatter, Write};

use super::read::is_option_key;
use super::{
    ColorChoice, Command, DailyPuzzleSetting, DrawAction, OfferAction, SettingsCommand, Starts, TeamOpponent,
    TournamentCommand,
};
use crate::clock::{civil_from_days, DAY_MS};
use crate::personal;
use crate::User;

/// A person as command text names them: `@` and their platform id (a Matrix id already starts
/// with `@`). Each adapter's resolver reads this form back.
pub fn mention(user: &User) -> String {
    if user.id.starts_with('@') {
        user.id.clone()
    } else {
        format!("@{}", user.id)
    }
}

impl Display for Command<User> {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        let mut line = Line::new(f);
        match self {
            Command::Challenge { opponent, variant, color, time, rated } => {
                line.name("challenge")?;
                line.opt("opponent", opponent.as_ref().map(mention))?;
                line.opt("variant", Some(variant.id()))?;
                line.opt("color", (*color != ColorChoice::Random).then_some(color.as_str()))?;
                line.opt("time", Some(time))?;
                line.opt("rated", (!rated).then_some("no"))
            }
            Command::Play { variant, level, color, time } => {
                line.name("play")?;
                line.opt("variant", Some(variant.id()))?;
                line.opt("level", Some(level))?;
                line.opt("color", (*color != ColorChoice::Random).then_some(color.as_str()))?;
                line.opt("time", Some(time))
            }
            Command::TeamGame { against, variant, color, window } => {
                match against {
                    TeamOpponent::Channel(channel) => {
                        line.name("challenge")?;
                        line.opt("team", Some(channel))?;
                        line.opt("variant", Some(variant.id()))?;
                    }
                    TeamOpponent::Chimera(level) => {
                        line.name("play")?;
                        line.opt("team", Some("yes"))?;
                        line.opt("variant", Some(variant.id()))?;
                        line.opt("level", Some(level))?;
                    }
                }
                line.opt("color", (*color != ColorChoice::Random).then_some(color.as_str()))?;
                line.opt("window", Some(window))
            }
            Command::Accept { challenger, challenge } => {
                line.name("accept")?;
                line.opt("challenger", challenger.as_ref().map(mention))?;
                line.opt("challenge", *challenge)
            }
            Command::Decline { challenger, challenge } => {
                line.name("decline")?;
                line.opt("challenger", challenger.as_ref().map(mention))?;
                line.opt("challenge", *challenge)
            }
            Command::Move { text, confirm, game } => {
                line.name("move")?;
                line.text(text)?;
                line.opt("confirm", confirm.then_some("yes"))?;
                line.opt("game", *game)
            }
            Command::Board { text } => {
                line.name("board")?;
                if *text {
                    line.word("text")?;
                }
                Ok(())
            }
            Command::Moves { square } => {
                line.name("moves")?;
                line.opt("square", *square)
            }
            Command::Resign { confirm, game } => {
                line.name("resign")?;
                line.opt("confirm", confirm.then_some("yes"))?;
                line.opt("game", *game)
            }
            Command::Draw { action, game } => {
                line.name("draw")?;
                line.word(match action {
                    DrawAction::Offer => "offer",
                    DrawAction::Accept => "accept",
                    DrawAction::Decline => "decline",
                    DrawAction::Claim => "claim",
                })?;
                line.opt("game", *game)
            }
            Command::Takeback { action, game } => {
                line.name("takeback")?;
                line.word(offer_action(*action))?;
                line.opt("game", *game)
            }
            Command::Abort => line.name("abort"),
            Command::Game => line.name("game"),
            Command::Pgn { game } => {
                line.name("pgn")?;
                line.opt("game", *game)
            }
            Command::Analyse { game } => {
                line.name("analyse")?;
                line.opt("game", Some(game))
            }
            Command::Gif { game } => {
                line.name("gif")?;
                line.opt("game", Some(game))
            }
            Command::Puzzle { variant } => {
                line.name("puzzle")?;
                line.opt("variant", variant.map(|v| v.id()))
            }
            Command::PuzzleHelp => {
                line.name("help")?;
                line.word("puzzle")
            }
            Command::SettingsHelp => {
                line.name("help")?;
                line.word("settings")
            }
            Command::Rules { variant } => {
                line.name("rules")?;
                line.opt("variant", variant.map(|v| v.id()))
            }
            Command::Rating { user, variant } => {
                line.name("rating")?;
                line.opt("user", user.as_ref().map(mention))?;
                line.opt("variant", variant.map(|v| v.id()))
            }
            Command::Leaderboard { variant } => {
                line.name("leaderboard")?;
                line.opt("variant", Some(variant.id()))
            }
            Command::Games => line.name("games"),
            Command::History { user } => {
                line.name("history")?;
                line.opt("user", user.as_ref().map(mention))
            }
            Command::Help => line.name("help"),
            Command::PlayHelp => {
                line.name("help")?;
                line.word("play")
            }
            Command::Tournament(sub) => {
                line.name("tournament")?;
                tournament(&mut line, sub)
            }
            Command::Settings(SettingsCommand {
                web,
                daily_puzzle,
                theme,
                coordinates,
                bottom,
                text,
                dm,
                quiet,
                zone,
            }) => {
                line.name("settings")?;
                line.opt("theme", *theme)?;
                line.opt("coordinates", coordinates.map(on_off))?;
                line.opt("bottom", bottom.map(personal::bottom_text))?;
                line.opt("text", text.map(on_off))?;
                line.opt("notify", dm.map(on_off))?;
                line.opt("quiet", quiet.map(personal::write_quiet))?;
                line.opt("zone", *zone)?;
                line.opt("web", web.map(on_off))?;
                match daily_puzzle {
                    None => Ok(()),
                    Some(DailyPuzzleSetting::Off) => line.opt("daily-puzzle", Some("off")),
                    Some(DailyPuzzleSetting::At { channel, time }) => {
                        line.opt("daily-puzzle", Some(channel))?;
                        line.opt("time", Some(time))
                    }
                }
            }
        }
    }
}

/// A switch as `/settings` reads it.
fn on_off(on: bool) -> &'static str {
    if on {
        "on"
    } else {
        "off"
    }
}

fn offer_action(action: OfferAction) -> &'static str {
    match action {
        OfferAction::Offer => "offer",
        OfferAction::Accept => "accept",
        OfferAction::Decline => "decline",
    }
}

fn tournament(line: &mut Line<'_, '_>, sub: &TournamentCommand<User>) -> fmt::Result {
    match sub {
        TournamentCommand::Create { name, variant, format, rounds, time, rated, starts, double } => {
            line.word("create")?;
            line.opt("name", Some(name))?;
            line.opt("variant", Some(variant.id()))?;
            line.opt("format", Some(format.as_str()))?;
            line.opt("rounds", *rounds)?;
            line.opt("time", Some(time))?;
            line.opt("rated", (!rated).then_some("no"))?;
            line.opt("starts", starts.map(StartsText))?;
            line.opt("double", double.then_some("yes"))
        }
        TournamentCommand::Join { id } => line.word("join").and_then(|_| line.opt("id", *id)),
        TournamentCommand::Leave { id } => line.word("leave").and_then(|_| line.opt("id", *id)),
        TournamentCommand::Start { id } => line.word("start").and_then(|_| line.opt("id", *id)),
        TournamentCommand::Standings { id } => line.word("standings").and_then(|_| line.opt("id", *id)),
        TournamentCommand::Pairings { round, id } => {
            line.word("pairings")?;
            line.opt("round", *round)?;
            line.opt("id", *id)
        }
        TournamentCommand::Withdraw { player, id } => {
            line.word("withdraw")?;
            line.opt("player", Some(mention(player)))?;
            line.opt("id", *id)
        }
        TournamentCommand::Cancel { id } => line.word("cancel").and_then(|_| line.opt("id", *id)),
        TournamentCommand::List { page } => line.word("list").and_then(|_| line.opt("page", *page)),
        TournamentCommand::Help => line.word("help"),
    }
}

/// A start time as `starts:` reads it: `now`, a delay (`1d6h`), or a UTC time.
struct StartsText(Starts);

impl Display for StartsText {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        match self.0 {
            Starts::Now => f.write_str("now"),
            Starts::In(ms) => {
                let (days, hours, minutes) = (ms / DAY_MS, ms / 3_600_000 % 24, ms / 60_000 % 60);
                // Delays are read to the second, and written so.
                let seconds = ms / 1000 % 60;
                let mut any = false;
                for (n, unit) in [(days, 'd'), (hours, 'h'), (minutes, 'm'), (seconds, 's')] {
                    if n > 0 {
                        write!(f, "{n}{unit}")?;
                        any = true;
                    }
                }
                if !any {
                    f.write_str("0s")?;
                }
                Ok(())
            }
            Starts::At(ms) => {
                let (year, month, day) = civil_from_days(ms.div_euclid(DAY_MS));
                let of_day = ms.rem_euclid(DAY_MS) / 1000;
                let (hour, minute, second) = (of_day / 3600, of_day / 60 % 60, of_day % 60);
                write!(f, "{year:04}-{month:02}-{day:02}T{hour:02}:{minute:02}:{second:02}Z")
            }
        }
    }
}

/// A command line being written: the name, then words and options, each quoted when the
/// reader would otherwise take it apart or for an option.
struct Line<'a, 'b> {
    f: &'a mut Formatter<'b>,
}

impl<'a, 'b> Line<'a, 'b> {
    fn new(f: &'a mut Formatter<'b>) -> Line<'a, 'b> {
        Line { f }
    }

    fn name(&mut self, name: &str) -> fmt::Result {
        write!(self.f, "/{name}")
    }

    /// A bare value the reader takes by position.
    fn word(&mut self, word: &str) -> fmt::Result {
        self.f.write_char(' ')?;
        if plain(word) && !reads_as_option(word) {
            self.f.write_str(word)
        } else {
            quoted(self.f, word)
        }
    }

    /// `key:value`, when there is a value.
    fn opt(&mut self, key: &str, value: Option<impl Display>) -> fmt::Result {
        let Some(value) = value else { return Ok(()) };
        let value = value.to_string();
        write!(self.f, " {key}:")?;
        if plain(&value) {
            self.f.write_str(&value)
        } else {
            quoted(self.f, &value)
        }
    }

    /// Free text that the reader joins back from its words (a move such as `e4 (Ne2, Rg1)`):
    /// as words when they read back exactly, else quoted whole.
    fn text(&mut self, text: &str) -> fmt::Result {
        let words: Vec<&str> = text.split_whitespace().collect();
        let exact = !words.is_empty() && words.join(" ") == text;
        if exact && words.iter().all(|w| plain(w) && !reads_as_option(w)) {
            write!(self.f, " {text}")
        } else {
            self.f.write_char(' ')?;
            quoted(self.f, text)
        }
    }
}

/// A value that needs no quotes: not empty, no white space, no quote or backslash.
fn plain(value: &str) -> bool {
    !value.is_empty() && !value.contains(|c: char| c.is_whitespace() || c == '"' || c == '\\')
}

/// Whether a bare word would be read as an option (`confirm:yes`) rather than a value.
fn reads_as_option(word: &str) -> bool {
    word.split_once(':').is_some_and(|(key, _)| is_option_key(key))
        // The tournament reader also takes `id:` as an option.
        || word.get(..3).is_some_and(|start| start.eq_ignore_ascii_case("id:"))
}

fn quoted(f: &mut Formatter<'_>, value: &str) -> fmt::Result {
    f.write_char('"')?;
    for c in value.chars() {
        if matches!(c, '"' | '\\') {
            f.write_char('\\')?;
        }
        f.write_char(c)?;
    }
    f.write_char('"')
}
