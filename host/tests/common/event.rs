//! Driving a tournament in console lines (see [`super::chat`]): every message kept, tournament games found in
//! the announcements, games played to a chosen result by scripted moves, and standings worked
//! out independently from the results, by FIDE's definitions as the help text states them.

use std::collections::{HashMap, HashSet};

use host::{Message, Reply};

use super::chat::Chat;
use super::text;

/// A tournament game as its first message announces it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Board {
    pub game: i64,
    pub round: u32,
    pub board: u32,
    pub white: String,
    pub black: String,
    pub channel: String,
    pub decider: bool,
}

/// How a game is to end.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Finish {
    /// Scholar's mate.
    WhiteMates,
    /// Fool's mate.
    BlackMates,
    Draw,
    WhiteResigns,
    BlackResigns,
}

/// One pairing's result as the test saw it happen: (white, black or none, white's score,
/// black's score, played over the board).
#[derive(Clone, Debug)]
pub struct Played {
    pub round: u32,
    pub white: String,
    pub black: Option<String>,
    pub white_score: f64,
    pub black_score: f64,
    pub over_board: bool,
}

pub struct Driver {
    pub h: Chat,
    /// Every message not yet looked at.
    pub inbox: Vec<Message>,
    /// Every message ever seen.
    pub log: Vec<Message>,
}

impl Driver {
    pub async fn new() -> Driver {
        Driver { h: Chat::new().await, inbox: Vec::new(), log: Vec::new() }
    }

    fn keep(&mut self, messages: &[Message]) {
        self.inbox.extend(messages.iter().cloned());
        self.log.extend(messages.iter().cloned());
    }

    /// Runs a line that must succeed.
    pub async fn ok(&mut self, line: &str) -> Reply {
        let reply = self.h.say(line).await;
        assert!(!reply.is_error(), "`{line}` failed: {}", text(&reply));
        self.keep(&reply.messages);
        reply
    }

    /// Runs a line that must fail; returns the error.
    pub async fn err(&mut self, line: &str) -> String {
        self.h.err(line).await
    }

    pub async fn tick(&mut self) -> Vec<Message> {
        let messages = self.h.tick().await;
        self.keep(&messages);
        messages
    }

    /// The tournament games announced since the last look, in announcement order.
    pub fn new_boards(&mut self) -> Vec<Board> {
        let boards = self.inbox.iter().filter_map(parse_board).collect();
        self.inbox.clear();
        boards
    }

    /// Every message text seen so far that contains `needle`.
    pub fn said(&self, needle: &str) -> Vec<String> {
        self.log.iter().filter(|m| m.text.contains(needle)).map(|m| m.text.clone()).collect()
    }

    async fn play(&mut self, b: &Board, moves: &[&str]) {
        for (i, m) in moves.iter().enumerate() {
            let who = if i % 2 == 0 { &b.white } else { &b.black };
            self.ok(&format!("{who}@{}: /move {m}", b.channel)).await;
        }
    }

    /// Plays `b` to `finish`; returns (white's score, black's score).
    pub async fn finish(&mut self, b: &Board, finish: Finish) -> (f64, f64) {
        match finish {
            Finish::WhiteMates => {
                self.play(b, &["e4", "e5", "Bc4", "Nc6", "Qh5", "Nf6", "Qxf7#"]).await;
                (1.0, 0.0)
            }
            Finish::BlackMates => {
                self.play(b, &["f3", "e5", "g4", "Qh4#"]).await;
                (0.0, 1.0)
            }
            Finish::Draw => {
                self.play(b, &["Nf3", "Nf6"]).await;
                self.ok(&format!("{}@{}: /draw offer", b.white, b.channel)).await;
                self.ok(&format!("{}@{}: /draw accept", b.black, b.channel)).await;
                (0.5, 0.5)
            }
            Finish::WhiteResigns => {
                self.play(b, &["e4"]).await;
                self.ok(&format!("{}@{}: /resign confirm:yes", b.white, b.channel)).await;
                (0.0, 1.0)
            }
            Finish::BlackResigns => {
                self.ok(&format!("{}@{}: /resign confirm:yes", b.black, b.channel)).await;
                (1.0, 0.0)
            }
        }
    }
}

/// `Tournament 1 "X", round 2, board 3: game 7, p1 (White) against p4 (Black), ...` in a thread.
fn parse_board(m: &Message) -> Option<Board> {
    let t = &m.text;
    let after = |key: &str| t.find(key).map(|i| &t[i + key.len()..]);
    let number = |s: &str| s.chars().take_while(char::is_ascii_digit).collect::<String>().parse::<i64>().ok();
    let round = number(after(", round ")?)? as u32;
    let board = number(after(", board ")?)? as u32;
    let rest = after(": game ")?;
    let game = number(rest)?;
    let rest = &rest[rest.find(", ")? + 2..];
    let (white, rest) = rest.split_once(" (White) against ")?;
    let (black, _) = rest.split_once(" (Black)")?;
    Some(Board {
        game,
        round,
        board,
        white: white.to_string(),
        black: black.to_string(),
        channel: m.channel.clone()?,
        decider: t.contains("This is the decider"),
    })
}

/// The byes of the round announcements seen: (round, player, points).
pub fn byes(log: &[Message]) -> Vec<(u32, String, f64)> {
    let mut seen = Vec::new();
    for m in log {
        let head = m.text.lines().next().unwrap_or_default();
        let Some(after) = head.split(": round ").nth(1) else { continue };
        let Ok(round) = after.chars().take_while(char::is_ascii_digit).collect::<String>().parse::<u32>() else {
            continue;
        };
        for line in m.text.lines().skip(1) {
            let Some(rest) = line.strip_prefix("Bye: ") else { continue };
            let (name, points) = rest.split_once(" (").unwrap_or((rest, "0"));
            let points = if points.starts_with('1') {
                1.0
            } else if points.starts_with('½') {
                0.5
            } else {
                0.0
            };
            if !seen.contains(&(round, name.to_string(), points)) {
                seen.push((round, name.to_string(), points));
            }
        }
    }
    seen
}

/// One line of a standings table as the host prints it.
#[derive(Clone, Debug, PartialEq)]
pub struct Line {
    pub rank: u32,
    pub points: f64,
    pub buchholz: f64,
    pub sonneborn_berger: f64,
    pub direct_encounter: f64,
    pub games: u32,
    pub wins: u32,
    pub draws: u32,
    pub losses: u32,
}

/// Reads the standings table out of a message text: name -> line.
pub fn read_standings(text: &str) -> HashMap<String, Line> {
    let table = text.split("```").nth(1).expect("a standings table");
    let mut lines = HashMap::new();
    for row in table.lines().skip(2) {
        let cells: Vec<&str> = row.split_whitespace().collect();
        if cells.len() < 10 {
            continue;
        }
        let n = cells.len();
        let name = cells[1..n - 8].join(" ").replace(" (withdrawn)", "");
        let f = |i: usize| cells[i].parse::<f64>().unwrap();
        let u = |i: usize| cells[i].parse::<u32>().unwrap();
        lines.insert(
            name,
            Line {
                rank: u(0),
                points: f(n - 8),
                buchholz: f(n - 7),
                sonneborn_berger: f(n - 6),
                direct_encounter: f(n - 5),
                games: u(n - 4),
                wins: u(n - 3),
                draws: u(n - 2),
                losses: u(n - 1),
            },
        );
    }
    lines
}

/// A player's round for the tie-breaks.
#[derive(Clone, Debug)]
struct Entry {
    score: f64,
    opponent: Option<String>,
    over_board: bool,
    /// A forfeit loss or a round without a pairing.
    voluntary: bool,
}

/// The standings worked out from the results, by the definitions of `/help tournament` and
/// FIDE C.07 (2023): unplayed rounds count against a dummy with the player's own points;
/// opponents count with their points, trailing voluntarily unplayed rounds at ½ each.
/// `field` in start order; `rounds` the number of rounds paired.
pub fn expected_standings(field: &[&str], rounds: u32, results: &[Played]) -> HashMap<String, Line> {
    let mut entries: HashMap<String, Vec<Entry>> = field.iter().map(|p| (p.to_string(), Vec::new())).collect();
    for round in 1..=rounds {
        let mut present = HashSet::new();
        for r in results.iter().filter(|r| r.round == round) {
            present.insert(r.white.clone());
            match &r.black {
                None => entries.get_mut(&r.white).unwrap().push(Entry {
                    score: r.white_score,
                    opponent: None,
                    over_board: false,
                    voluntary: false,
                }),
                Some(black) => {
                    present.insert(black.clone());
                    for (me, other, score) in [(&r.white, black, r.white_score), (black, &r.white, r.black_score)] {
                        entries.get_mut(me).unwrap().push(Entry {
                            score,
                            opponent: Some(other.clone()),
                            over_board: r.over_board,
                            voluntary: !r.over_board && score == 0.0,
                        });
                    }
                }
            }
        }
        for p in field {
            if !present.contains(*p) {
                entries.get_mut(*p).unwrap().push(Entry {
                    score: 0.0,
                    opponent: None,
                    over_board: false,
                    voluntary: true,
                });
            }
        }
    }
    let points = |p: &str| entries[p].iter().map(|e| e.score).sum::<f64>();
    let adjusted = |p: &str| {
        let list = &entries[p];
        let trailing = list.iter().rev().take_while(|e| e.voluntary).count();
        list[..list.len() - trailing].iter().map(|e| e.score).sum::<f64>() + 0.5 * trailing as f64
    };
    let mut lines: Vec<(String, Line)> = field
        .iter()
        .map(|&p| {
            let own = points(p);
            let value = |e: &Entry| match &e.opponent {
                Some(o) if e.over_board => adjusted(o),
                _ => own,
            };
            let games: Vec<&Entry> = entries[p].iter().filter(|e| e.opponent.is_some()).collect();
            let count = |s: f64| games.iter().filter(|e| e.score == s).count() as u32;
            let line = Line {
                rank: 0,
                points: own,
                buchholz: entries[p].iter().map(value).sum(),
                sonneborn_berger: entries[p].iter().map(|e| e.score * value(e)).sum(),
                direct_encounter: 0.0,
                games: games.len() as u32,
                wins: count(1.0),
                draws: count(0.5),
                losses: count(0.0),
            };
            (p.to_string(), line)
        })
        .collect();
    // Direct encounter inside each group tied on points, Buchholz and Sonneborn-Berger, when
    // everyone in it has met everyone else.
    let key = |l: &Line| (l.points, l.buchholz, l.sonneborn_berger);
    let keys: Vec<(f64, f64, f64)> = lines.iter().map(|(_, l)| key(l)).collect();
    for k in &keys {
        let group: Vec<String> = lines.iter().filter(|(_, l)| key(l) == *k).map(|(p, _)| p.clone()).collect();
        if group.len() < 2 {
            continue;
        }
        let among = |p: &str| -> Vec<&Entry> {
            entries[p].iter().filter(|e| e.opponent.as_ref().is_some_and(|o| group.contains(o))).collect()
        };
        let all_met = group.iter().all(|p| {
            let met: HashSet<&String> = among(p).iter().filter_map(|e| e.opponent.as_ref()).collect();
            met.len() == group.len() - 1
        });
        if all_met {
            for (p, l) in lines.iter_mut().filter(|(p, _)| group.contains(p)) {
                l.direct_encounter = among(p).iter().map(|e| e.score).sum();
            }
        }
    }
    let full = |l: &Line| (l.points, l.buchholz, l.sonneborn_berger, l.direct_encounter);
    let all: Vec<(f64, f64, f64, f64)> = lines.iter().map(|(_, l)| full(l)).collect();
    for (_, l) in lines.iter_mut() {
        // 1 + how many are strictly better.
        let better = all.iter().filter(|o| gt(**o, full(l))).count();
        l.rank = better as u32 + 1;
    }
    lines.into_iter().collect()
}

fn gt(a: (f64, f64, f64, f64), b: (f64, f64, f64, f64)) -> bool {
    let (a, b) = ([a.0, a.1, a.2, a.3], [b.0, b.1, b.2, b.3]);
    a.iter().zip(&b).map(|(x, y)| x.total_cmp(y)).find(|o| o.is_ne()) == Some(std::cmp::Ordering::Greater)
}
