//! Reading `/tournament <sub> ...` lines, and the times `starts:` accepts.

use std::str::FromStr;

use super::read::{mention, yes_no, Args, CommandError};
use super::{Mention, Starts, TournamentCommand, RATED_BY_DEFAULT};
use crate::clock::{days_from_civil, DAY_MS};

const SUBCOMMANDS: &str = "create, join, leave, start, standings, pairings, withdraw, cancel, list or help";

/// The longest name a tournament may have (it heads announcements and pictures).
pub const NAME_LENGTH: usize = 60;

pub(super) fn read(mut a: Args) -> Result<TournamentCommand<Mention>, CommandError> {
    // Two-letter keys read as move text elsewhere (`Nb:d4`); here `id:3` is an option.
    for arg in a.args.iter_mut().filter(|arg| arg.key.is_none() && !arg.quoted) {
        if let Some(id) = arg.value.strip_prefix("id:").or_else(|| arg.value.strip_prefix("ID:")) {
            arg.value = id.to_string();
            arg.key = Some("id".to_string());
        }
    }
    let sub = a.take("action", true).map(|s| s.to_ascii_lowercase());
    let Some(sub) = sub else {
        return Err(CommandError::Missing {
            command: "tournament",
            what: SUBCOMMANDS,
            example: "/tournament create name:\"Friday Swiss\" variant:chess format:swiss",
        });
    };
    let command = match sub.as_str() {
        "create" => create(&mut a)?,
        "join" => TournamentCommand::Join { id: a.id("id")? },
        "leave" => TournamentCommand::Leave { id: a.id("id")? },
        "start" => TournamentCommand::Start { id: a.id("id")? },
        "standings" => TournamentCommand::Standings { id: a.id("id")? },
        "pairings" => {
            let id = a.id("id")?;
            let round = a.id("round")?;
            let round = round
                .map(|r| u32::try_from(r).ok().filter(|&r| r >= 1))
                .map(|r| r.ok_or_else(|| CommandError::Value("`round:` needs a round number, like `round:2`".into())))
                .transpose()?;
            TournamentCommand::Pairings { round, id }
        }
        "withdraw" => {
            let id = a.id("id")?;
            let player = a.take("player", true).map(mention).ok_or(CommandError::Missing {
                command: "tournament",
                what: "the player to withdraw",
                example: "/tournament withdraw player:@bob",
            })?;
            TournamentCommand::Withdraw { player, id }
        }
        "cancel" => TournamentCommand::Cancel { id: a.id("id")? },
        "list" => {
            let page = a.id("page")?;
            let page = page
                .map(|p| u32::try_from(p).ok().filter(|&p| p >= 1))
                .map(|p| p.ok_or_else(|| CommandError::Value("`page:` needs a page number, like `page:2`".into())))
                .transpose()?;
            TournamentCommand::List { page }
        }
        "help" => TournamentCommand::Help,
        other => return Err(CommandError::Value(format!("`/tournament {other}` is not a thing: use {SUBCOMMANDS}"))),
    };
    a.done()?;
    Ok(command)
}

fn create(a: &mut Args) -> Result<TournamentCommand<Mention>, CommandError> {
    let missing = |what| CommandError::Missing {
        command: "tournament",
        what,
        example: "/tournament create name:\"Friday Swiss\" variant:chess format:swiss rounds:5 time:10+5",
    };
    let name = a.take("name", false).ok_or_else(|| missing("a name"))?.trim().to_string();
    let variant = a.parse("variant", false)?.ok_or_else(|| missing("a variant"))?;
    let format: data::Format = a
        .take("format", false)
        .ok_or_else(|| missing("a format"))?
        .to_ascii_lowercase()
        .parse()
        .map_err(|_| CommandError::Value("the format is `swiss`, `round-robin` or `knockout`".into()))?;
    let rounds = match a.take("rounds", false) {
        None => None,
        Some(v) => Some(v.parse::<u32>().map_err(|_| CommandError::Value(rounds_error(&v)))?),
    };
    let time = a.parse("time", false)?.unwrap_or_default();
    let rated = a.take("rated", false).map(|v| yes_no(&v)).transpose()?.unwrap_or(RATED_BY_DEFAULT);
    let double = a.take("double", false).map(|v| yes_no(&v)).transpose()?.unwrap_or(false);
    let starts = match a.take("starts", false) {
        None => None,
        // `starts:in 2h` arrives as two words.
        Some(v) if v.eq_ignore_ascii_case("in") => {
            let amount = a.take("", true).ok_or_else(|| CommandError::Value(starts_error("in")))?;
            Some(format!("in {amount}").parse()?)
        }
        Some(v) => Some(v.parse()?),
    };
    let create = TournamentCommand::Create { name, variant, format, rounds, time, rated, starts, double };
    create.check()?;
    Ok(create)
}

fn rounds_error(rounds: &str) -> String {
    format!("`rounds:{rounds}` needs a number of rounds from 1 to 30")
}

impl<U> TournamentCommand<U> {
    /// What a subcommand must satisfy wherever it comes from: the reader checks typed text with
    /// it, and the host checks every command an adapter built from typed options.
    pub fn check(&self) -> Result<(), CommandError> {
        let TournamentCommand::Create { name, format, rounds, double, .. } = self else { return Ok(()) };
        let length = name.trim().chars().count();
        if length == 0 || length > NAME_LENGTH {
            return Err(CommandError::Value(format!("a tournament's name needs 1 to {NAME_LENGTH} characters")));
        }
        match rounds {
            Some(r) if !(1..=30).contains(r) => return Err(CommandError::Value(rounds_error(&r.to_string()))),
            Some(_) if *format != data::Format::Swiss => {
                return Err(CommandError::Value(format!(
                    "a {format} tournament counts its own rounds from the players; `rounds:` is for Swiss only"
                )))
            }
            _ => {}
        }
        if *double && *format != data::Format::RoundRobin {
            return Err(CommandError::Value("`double:yes` is for round-robin tournaments only".into()));
        }
        Ok(())
    }
}

fn starts_error(text: &str) -> String {
    format!(
        "`starts:{text}` is not a time: say `now`, a delay like `in 2h`, `30m` or `1d 6h`, or a UTC time like `2026-11-22T18:00`"
    )
}

impl FromStr for Starts {
    type Err = CommandError;

    /// `now`, `in 2h`, `90m`, `1d 6h`, `2026-11-22T18:00` or `2026-11-22 18:00:00Z` (UTC).
    fn from_str(text: &str) -> Result<Starts, CommandError> {
        parse_starts(text)
    }
}

fn parse_starts(text: &str) -> Result<Starts, CommandError> {
    let t = text.trim().to_ascii_lowercase();
    if t == "now" {
        return Ok(Starts::Now);
    }
    let delay = t.strip_prefix("in ").unwrap_or(&t).trim();
    if let Some(ms) = parse_delay(delay) {
        return Ok(Starts::In(ms));
    }
    parse_utc(&t).map(Starts::At).ok_or_else(|| CommandError::Value(starts_error(text.trim())))
}

/// `2h`, `30m`, `1d 6h`, `1h30m`, `45s`: at least one number-unit pair, nothing else.
fn parse_delay(text: &str) -> Option<i64> {
    let mut total = 0i64;
    let mut number = String::new();
    let mut any = false;
    for c in text.chars().filter(|c| !c.is_whitespace()) {
        if c.is_ascii_digit() {
            number.push(c);
            continue;
        }
        let unit = match c {
            'd' => DAY_MS,
            'h' => 3_600_000,
            'm' => 60_000,
            's' => 1_000,
            _ => return None,
        };
        let n: i64 = number.parse().ok()?;
        total = total.checked_add(n.checked_mul(unit)?)?;
        number.clear();
        any = true;
    }
    (any && number.is_empty() && total <= 365 * DAY_MS).then_some(total)
}

/// `YYYY-MM-DD[T| ]HH:MM[:SS][Z]`, read as UTC.
fn parse_utc(text: &str) -> Option<i64> {
    let text = text.strip_suffix('z').unwrap_or(text);
    let (date, time) = text.split_once(['t', ' '])?;
    let mut d = date.split('-').map(|p| p.parse::<i64>().ok());
    let (year, month, day) = (d.next()??, d.next()??, d.next()??);
    let mut t = time.split(':').map(|p| p.parse::<i64>().ok());
    let (hour, minute) = (t.next()??, t.next()??);
    let second = t.next().map_or(Some(0), |s| s)?;
    if d.next().is_some() || t.next().is_some() {
        return None;
    }
    let valid = (1970..=9999).contains(&year)
        && (1..=12).contains(&month)
        && (1..=days_in_month(year, month)).contains(&day)
        && (0..24).contains(&hour)
        && (0..60).contains(&minute)
        && (0..60).contains(&second);
    valid.then(|| days_from_civil(year, month, day) * DAY_MS + ((hour * 60 + minute) * 60 + second) * 1000)
}

fn days_in_month(year: i64, month: i64) -> i64 {
    let leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
    match month {
        2 if leap => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    }
}

#[cfg(test)]
mod tests {
    use super::super::Command;
    use super::*;

    fn parse(line: &str) -> Result<TournamentCommand<Mention>, String> {
        match line.parse::<Command<Mention>>() {
            Ok(Command::Tournament(t)) => Ok(t),
            Ok(other) => Err(format!("not a tournament command: {other:?}")),
            Err(e) => Err(e.to_string()),
        }
    }

    #[test]
    fn create_reads_every_option() {
        let created = parse(
            "/tournament create name:\"Friday Swiss\" variant:golem format:swiss rounds:5 time:10+5 rated:no starts:in 2h",
        )
        .unwrap();
        assert_eq!(
            created,
            TournamentCommand::Create {
                name: "Friday Swiss".into(),
                variant: rules::Variant::Golem,
                format: data::Format::Swiss,
                rounds: Some(5),
                time: "10+5".parse().unwrap(),
                rated: false,
                starts: Some(Starts::In(2 * 3_600_000)),
                double: false,
            }
        );
        let rr = parse("/tournament create name:RR variant:chess format:round-robin double:yes starts:now").unwrap();
        assert!(matches!(rr, TournamentCommand::Create { double: true, starts: Some(Starts::Now), rounds: None, .. }));
    }

    #[test]
    fn bad_options_say_what_is_wrong() {
        let e = parse("/tournament create name:X variant:chess format:arena").unwrap_err();
        assert_eq!(e, "the format is `swiss`, `round-robin` or `knockout`");
        let e = parse("/tournament create name:X variant:chess format:knockout rounds:3").unwrap_err();
        assert!(e.contains("`rounds:` is for Swiss only"), "{e}");
        let e = parse("/tournament create name:X variant:chess format:swiss double:yes").unwrap_err();
        assert!(e.contains("round-robin tournaments only"), "{e}");
        let e = parse("/tournament create name:X variant:chess format:swiss starts:soon").unwrap_err();
        assert!(e.starts_with("`starts:soon` is not a time"), "{e}");
        assert!(parse("/tournament create variant:chess format:swiss").unwrap_err().contains("needs a name"));
        assert!(parse("/tournament dance").unwrap_err().contains("is not a thing"));
        assert!(parse("/tournament join id:x").unwrap_err().contains("needs a number"));
        assert!(parse("/tournament withdraw").unwrap_err().contains("the player to withdraw"));
    }

    #[test]
    fn subcommands_and_help() {
        assert_eq!(parse("/tournament join").unwrap(), TournamentCommand::Join { id: None });
        assert_eq!(
            parse("/tournament pairings round:2 id:3").unwrap(),
            TournamentCommand::Pairings { round: Some(2), id: Some(3) }
        );
        assert_eq!(
            parse("/tournament withdraw player:@bob id:1").unwrap(),
            TournamentCommand::Withdraw { player: Mention("@bob".into()), id: Some(1) }
        );
        assert_eq!(parse("/help tournament").unwrap(), TournamentCommand::Help);
        assert_eq!(parse("/tournament list").unwrap(), TournamentCommand::List { page: None });
        assert_eq!(parse("/tournament list page:3").unwrap(), TournamentCommand::List { page: Some(3) });
        assert!(parse("/tournament list page:0").is_err());
    }

    #[test]
    fn start_times() {
        assert_eq!(parse_starts("30m"), Ok(Starts::In(30 * 60_000)));
        assert_eq!(parse_starts("in 1d 6h"), Ok(Starts::In(DAY_MS + 6 * 3_600_000)));
        assert_eq!(parse_starts("2023-11-14T22:13:20Z"), Ok(Starts::At(1_700_000_000_000)));
        assert_eq!(parse_starts("2024-02-29 00:00"), Ok(Starts::At(1_709_164_800_000)));
        for bad in ["", "in", "2x", "2023-02-29T10:00", "2023-11-14T25:00", "h"] {
            assert!(parse_starts(bad).is_err(), "{bad}");
        }
    }
}
