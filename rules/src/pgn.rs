//! PGN: writing a [`Game`] with its tags, and reading game scores: PGN, a bare list of moves
//! (SAN or coordinates, numbered or not), or the chessvariants.com style (`#` comment lines, `:`
//! for captures, `=H`, `++` for mate).
//!
//! The reader takes the first game of a text. It skips comments (`{...}`, `;` to the end of the
//! line, lines starting with `%` or `#`), NAGs (`$1`) and variations `( ... )`, except in Grolman
//! Chess, where parentheses right after a move hold that move's chain.
//!
//! ```
//! use rules::{pgn, Variant};
//!
//! let score = "[Variant \"Werewolf Chess\"]\n\n1. e4 d5 2. exd5 Wxd5 3. Nc3 Wxd2+ 4. Bxd2 *";
//! let read = pgn::read(Variant::Werewolf, score)?;
//! assert_eq!(read.game.moves().len(), 7);
//! assert_eq!(read.result.as_deref(), Some("*"));
//!
//! // The bishop that took the Werewolf became one: the writer says so.
//! let text = pgn::write(&read.game, &read.tags);
//! assert!(text.ends_with("1. e4 d5 2. exd5 Wxd5 3. Nc3 Wxd2+ 4. Bxd2=W *\n"));
//!
//! // Grolman chains in parentheses, and a refusal that names the move.
//! let read = pgn::read(Variant::Grolman, "1. e4 (Ne2, Rg1) e5 (Ne7, Rg8) 2. Nf4")?;
//! assert_eq!(read.game.moves().len(), 3);
//! let err = pgn::read(Variant::Chess, "1. e4 e5 2. Ke3").unwrap_err();
//! assert_eq!(err.to_string(), "move 2. `Ke3`: the king on e1 cannot move to e3; legal nearby: Ke2");
//! # Ok::<(), pgn::PgnError>(())
//! ```

use crate::game::Game;
use crate::outcome::Outcome;
use crate::parse::MoveError;
use crate::position::{Position, PositionError};
use crate::role::Color;
use crate::variants::Variant;

/// The widest line of movetext that [`write`] produces.
const WIDTH: usize = 80;

/// PGN tag pairs, in order of first appearance.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Tags(Vec<(String, String)>);

impl Tags {
    pub fn new() -> Tags {
        Tags::default()
    }

    pub fn get(&self, name: &str) -> Option<&str> {
        self.0.iter().find(|(n, _)| n == name).map(|(_, v)| v.as_str())
    }

    /// Sets a tag, replacing its value if it is already there.
    pub fn set(&mut self, name: &str, value: &str) {
        match self.0.iter_mut().find(|(n, _)| n == name) {
            Some((_, v)) => *v = value.to_string(),
            None => self.0.push((name.to_string(), value.to_string())),
        }
    }

    pub fn iter(&self) -> impl Iterator<Item = (&str, &str)> {
        self.0.iter().map(|(n, v)| (n.as_str(), v.as_str()))
    }
}

/// A game read from a score.
#[derive(Clone, Debug)]
pub struct PgnGame {
    pub tags: Tags,
    pub game: Game,
    /// The result token that ended the movetext (`1-0`, `0-1`, `1/2-1/2` or `*`), if there was one.
    pub result: Option<String>,
}

/// Why a game score could not be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PgnError {
    #[error("line {line}: {why}")]
    Syntax { line: usize, why: String },
    #[error("the Variant tag says `{tag}`, but the game is read as {expected}")]
    Variant { tag: String, expected: &'static str },
    #[error("the start position: {0}")]
    Start(PositionError),
    /// `number` is as PGN writes it: `12.` for White's move, `12...` for Black's.
    #[error("move {number} {error}")]
    Move { number: String, error: MoveError },
    #[error("move {number} `{text}` comes after the end of the game ({outcome})")]
    AfterEnd { number: String, text: String, outcome: Outcome },
}

/// Reads the first game of `text` as a game of `variant`.
pub fn read(variant: Variant, text: &str) -> Result<PgnGame, PgnError> {
    let mut tags = Tags::new();
    let mut moves = Vec::new();
    let mut result = None;
    for token in Lexer::new(text, variant.has_chains()).tokens()? {
        match token {
            Token::Tag(name, value) => tags.set(&name, &value),
            Token::Move(m) => moves.push(m),
            Token::Result(r) => result = Some(r),
        }
    }
    if let Some(tag) = tags.get("Variant") {
        if tag.parse::<Variant>().ok() != Some(variant) {
            return Err(PgnError::Variant { tag: tag.to_string(), expected: variant.name() });
        }
    }
    let fen = tags.get("FEN").unwrap_or(variant.start_fen());
    let start = Position::from_fen(variant, fen).map_err(PgnError::Start)?;
    let mut game = Game::new(start);
    for text in moves {
        let pos = game.position();
        let number = move_number(pos);
        if let Some(outcome) = game.outcome() {
            return Err(PgnError::AfterEnd { number, text, outcome });
        }
        let m = pos.parse_move(&text).map_err(|error| PgnError::Move { number, error })?;
        game.play(m).expect("a move parse_move found is legal in a game that is not over");
    }
    Ok(PgnGame { tags, game, result })
}

/// Writes `game` as PGN: the seven standard tags (from `tags`, `?` where missing; Result from
/// the game's outcome when it has one), Variant, SetUp and FEN when the game does not start
/// from the variant's start, the other tags, then the movetext in lines of at most 80 columns.
pub fn write(game: &Game, tags: &Tags) -> String {
    write_annotated(game, tags, &[])
}

/// What an annotated score says of one move: a suffix such as `?!`, `?` or `??`, and a comment
/// (which may hold commands such as `[%eval 0.35]`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Annotation {
    pub suffix: Option<&'static str>,
    pub comment: Option<String>,
}

/// [`write`], with `annotations[i]` said of the game's move `i` (the list may be shorter than
/// the game). A comment's `}` would end it early, so it is written as `)`.
///
/// ```
/// use rules::pgn::{self, Annotation, Tags};
/// use rules::{Game, Position, Variant};
///
/// let mut game = Game::new(Position::start(Variant::Chess));
/// for san in ["f3", "e5", "g4", "Qh4#"] {
///     let m = game.position().parse_move(san).unwrap();
///     game.play(m).unwrap();
/// }
/// let notes = [Annotation::default(), Annotation::default(), Annotation { suffix: Some("??"), comment: Some("[%eval #-1]".into()) }];
/// let text = pgn::write_annotated(&game, &Tags::new(), &notes);
/// assert!(text.contains("2. g4?? { [%eval #-1] } 2... Qh4# 0-1"), "{text}");
/// assert_eq!(pgn::read(Variant::Chess, &text).unwrap().game.moves(), game.moves());
/// ```
pub fn write_annotated(game: &Game, tags: &Tags, annotations: &[Annotation]) -> String {
    let variant = game.start().variant();
    let result = game.outcome().map(|o| o.result()).or(tags.get("Result")).unwrap_or("*");
    let mut head = Tags::new();
    for (name, default) in
        [("Event", "?"), ("Site", "?"), ("Date", "????.??.??"), ("Round", "?"), ("White", "?"), ("Black", "?")]
    {
        head.set(name, tags.get(name).unwrap_or(default));
    }
    head.set("Result", result);
    head.set("Variant", variant.name());
    let fen = game.start().fen();
    if fen != variant.start_fen() {
        head.set("SetUp", "1");
        head.set("FEN", &fen);
    }
    for (name, value) in tags.iter() {
        if head.get(name).is_none() {
            head.set(name, value);
        }
    }
    let mut out = String::new();
    for (name, value) in head.iter() {
        out.push_str(&format!("[{name} \"{}\"]\n", tag_value(value)));
    }
    out.push('\n');
    out.push_str(&wrap(&movetext(game, result, annotations), WIDTH));
    out.push('\n');
    out
}

/// A tag's value as the PGN standard writes it inside its quotes (section 7): a backslash and a
/// quote are escaped with a backslash, and, as the standard allows no non-printing character in
/// a string, each control character (a newline, a tab, ...) becomes a space, so that a value a
/// user chose can neither end its tag nor start another.
fn tag_value(value: &str) -> String {
    let mut out = String::with_capacity(value.len());
    for c in value.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '"' => out.push_str("\\\""),
            c if c.is_control() || matches!(c, '\u{2028}' | '\u{2029}') => out.push(' '),
            c => out.push(c),
        }
    }
    out
}

/// `12.` before White's move, `12...` before Black's.
fn move_number(pos: &Position) -> String {
    match pos.turn() {
        Color::White => format!("{}.", pos.fullmoves()),
        Color::Black => format!("{}...", pos.fullmoves()),
    }
}

/// The words of the movetext: numbers, moves (a Grolman chain splits into several words) and
/// the result.
fn movetext(game: &Game, result: &str, annotations: &[Annotation]) -> Vec<String> {
    let mut words = Vec::new();
    let mut commented = false;
    for (i, (m, pos)) in game.moves().iter().zip(game.positions()).enumerate() {
        // After a comment, Black's move is numbered again, as PGN writers do.
        if pos.turn() == Color::White || i == 0 || commented {
            words.push(move_number(pos));
        }
        words.extend(pos.san(m).split(' ').map(str::to_string));
        let note = annotations.get(i);
        if let (Some(suffix), Some(last)) = (note.and_then(|n| n.suffix), words.last_mut()) {
            last.push_str(suffix);
        }
        commented = false;
        if let Some(comment) = note.and_then(|n| n.comment.as_deref()) {
            words.push("{".to_string());
            words.extend(comment.replace('}', ")").split_whitespace().map(str::to_string));
            words.push("}".to_string());
            commented = true;
        }
    }
    words.push(result.to_string());
    words
}

fn wrap(words: &[String], width: usize) -> String {
    let mut out = String::new();
    let mut line_len = 0;
    for word in words {
        if line_len > 0 && line_len + 1 + word.len() > width {
            out.push('\n');
            line_len = 0;
        } else if line_len > 0 {
            out.push(' ');
            line_len += 1;
        }
        out.push_str(word);
        line_len += word.len();
    }
    out
}

#[derive(Clone, Debug, PartialEq, Eq)]
enum Token {
    Tag(String, String),
    /// A move's text; in Grolman Chess with its chain: `Rf3 (Kf4, e5)#`.
    Move(String),
    Result(String),
}

struct Lexer<'a> {
    rest: &'a str,
    line: usize,
    /// Only whitespace since the last line break: `%` and `#` start comment lines here.
    line_start: bool,
    /// Grolman Chess: a parenthesis right after a move holds its chain.
    chains: bool,
}

const RESULTS: [&str; 5] = ["1-0", "0-1", "1/2-1/2", "½-½", "*"];

impl<'a> Lexer<'a> {
    fn new(text: &'a str, chains: bool) -> Lexer<'a> {
        Lexer { rest: text, line: 1, line_start: true, chains }
    }

    fn error<T>(&self, line: usize, why: impl Into<String>) -> Result<T, PgnError> {
        Err(PgnError::Syntax { line, why: why.into() })
    }

    /// Consumes `n` bytes, counting line breaks.
    fn bump(&mut self, n: usize) -> &'a str {
        let (taken, rest) = self.rest.split_at(n);
        if let Some(i) = taken.rfind('\n') {
            self.line += taken.matches('\n').count();
            self.line_start = taken[i..].trim().is_empty();
        } else {
            self.line_start &= taken.trim().is_empty();
        }
        self.rest = rest;
        taken
    }

    fn skip_line(&mut self) {
        self.bump(self.rest.find('\n').map_or(self.rest.len(), |i| i + 1));
    }

    /// Consumes up to and including `close`, returning what stands before it.
    fn until(&mut self, close: char, what: &str) -> Result<&'a str, PgnError> {
        let line = self.line;
        match self.rest.find(close) {
            Some(i) => {
                let inside = &self.bump(i + close.len_utf8())[..i];
                Ok(inside)
            }
            None => self.error(line, format!("{what} is never closed")),
        }
    }

    /// The tokens up to the end of the first game: a result token, or a tag after moves.
    fn tokens(mut self) -> Result<Vec<Token>, PgnError> {
        let mut out = Vec::new();
        // Whether the last thing read was a move (a chain may follow it).
        let mut after_move = false;
        loop {
            let ws = self.rest.len() - self.rest.trim_start().len();
            self.bump(ws);
            let Some(c) = self.rest.chars().next() else {
                break;
            };
            let was_after_move = std::mem::take(&mut after_move);
            match c {
                '%' | '#' if self.line_start => self.skip_line(),
                ';' => self.skip_line(),
                '{' => {
                    self.bump(1);
                    self.until('}', "a comment `{`")?;
                }
                '$' => {
                    let digits =
                        self.rest[1..].len() - self.rest[1..].trim_start_matches(|c: char| c.is_ascii_digit()).len();
                    self.bump(1 + digits);
                }
                '[' if out.iter().any(|t| matches!(t, Token::Move(_))) => break,
                '[' => out.push(self.tag()?),
                '(' if self.chains && was_after_move => {
                    self.bump(1);
                    let chain = self.until(')', "a chain `(`")?;
                    let suffix = self.rest.len() - self.rest.trim_start_matches(['+', '#', '!', '?']).len();
                    let suffix = self.bump(suffix);
                    if let Some(Token::Move(m)) = out.last_mut() {
                        m.push_str(&format!(" ({chain}){suffix}"));
                    }
                }
                '(' => self.variation()?,
                ')' => return self.error(self.line, "a `)` closes no variation"),
                '}' => return self.error(self.line, "a `}` closes no comment"),
                _ => {
                    let len =
                        self.rest.find(|c: char| c.is_whitespace() || "{}();[".contains(c)).unwrap_or(self.rest.len());
                    let word = self.bump(len);
                    match word_token(word) {
                        Some(Token::Result(r)) => {
                            out.push(Token::Result(r));
                            break;
                        }
                        Some(t) => {
                            after_move = true;
                            out.push(t);
                        }
                        None => {}
                    }
                }
            }
        }
        Ok(out)
    }

    /// Reads `[Name "value"]`.
    fn tag(&mut self) -> Result<Token, PgnError> {
        let line = self.line;
        self.bump(1);
        let inside = self.rest;
        let name_len = inside.find(|c: char| !(c.is_alphanumeric() || c == '_')).unwrap_or(inside.len());
        let name = &inside[..name_len];
        let after = inside[name_len..].trim_start();
        let bad = |lexer: &Self| lexer.error(line, "a tag must read [Name \"value\"]");
        if name.is_empty() || !after.starts_with('"') {
            return bad(self);
        }
        let mut value = String::new();
        let mut chars = after[1..].char_indices();
        let end = loop {
            match chars.next() {
                Some((_, '\\')) => value.extend(chars.next().map(|(_, c)| c)),
                Some((i, '"')) => break i,
                Some((_, '\n')) | None => return bad(self),
                Some((_, c)) => value.push(c),
            }
        };
        let tail = &after[1 + end + 1..];
        if !tail.trim_start().starts_with(']') {
            return bad(self);
        }
        let consumed = inside.len() - tail.trim_start().len() + 1;
        self.bump(consumed);
        Ok(Token::Tag(name.to_string(), value))
    }

    /// Skips a variation, nested ones and comments inside it included.
    fn variation(&mut self) -> Result<(), PgnError> {
        let line = self.line;
        let mut depth = 0;
        while let Some(c) = self.rest.chars().next() {
            match c {
                '(' => depth += 1,
                ')' => depth -= 1,
                '{' => {
                    self.bump(1);
                    self.until('}', "a comment `{`")?;
                    continue;
                }
                ';' => {
                    self.skip_line();
                    continue;
                }
                _ => {}
            }
            self.bump(c.len_utf8());
            if depth == 0 {
                return Ok(());
            }
        }
        self.error(line, "a variation `(` is never closed")
    }
}

/// A result, a move (its number stripped: `12.Nf3`, `12...Nf6`), or nothing (a bare number).
fn word_token(word: &str) -> Option<Token> {
    // A check mark or annotation standing apart from its move: `Bc2) #`, `exd6 e.p.`.
    if word.chars().all(|c| "+#!?".contains(c)) || word.eq_ignore_ascii_case("e.p.") {
        return None;
    }
    if RESULTS.contains(&word) {
        return Some(Token::Result(word.to_string()));
    }
    let digits = word.len() - word.trim_start_matches(|c: char| c.is_ascii_digit()).len();
    let after = &word[digits..];
    let text = if digits > 0 && (after.starts_with('.') || after.starts_with('…')) {
        after.trim_start_matches(['.', '…'])
    } else if digits > 0 && after.is_empty() {
        ""
    } else {
        word
    };
    (!text.is_empty()).then(|| Token::Move(text.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::outcome::WinReason;

    fn moves(text: &str) -> Vec<String> {
        Lexer::new(text, false)
            .tokens()
            .unwrap()
            .into_iter()
            .filter_map(|t| match t {
                Token::Move(m) => Some(m),
                _ => None,
            })
            .collect()
    }

    #[test]
    fn skips_numbers_comments_nags_and_variations() {
        let text = "% escape\n1. e4 {best by test} e5 $1 2.Nf3 (2. f4 exf4 {gambit} (2... d5)) 2...Nc6 ; Black\n3. Bb5 1-0 4. a3";
        assert_eq!(moves(text), ["e4", "e5", "Nf3", "Nc6", "Bb5"]);
        assert_eq!(moves("e2e4 e7e5 g1f3"), ["e2e4", "e7e5", "g1f3"]);
        assert_eq!(moves("1 e4 e5 2 0-0 0-1"), ["e4", "e5", "0-0"]);
        assert_eq!(moves("1. e4 ! e5 ?! 2. exd6 e.p. #"), ["e4", "e5", "exd6"]);
    }

    #[test]
    fn grolman_parentheses_after_a_move_are_its_chain() {
        let tokens = Lexer::new("1. e4 (Ne2, Rg1) e5 {c} (Nf6) 2. Rf3 (Kf4, e5)# *", true).tokens().unwrap();
        assert_eq!(
            tokens,
            [
                Token::Move("e4 (Ne2, Rg1)".into()),
                Token::Move("e5".into()),
                Token::Move("Rf3 (Kf4, e5)#".into()),
                Token::Result("*".into()),
            ]
        );
    }

    #[test]
    fn syntax_errors_name_the_line() {
        let err = |text| read(Variant::Chess, text).unwrap_err();
        assert_eq!(err("1. e4\n{ unclosed"), PgnError::Syntax { line: 2, why: "a comment `{` is never closed".into() });
        assert_eq!(
            err("[Event \"x]\n1. e4"),
            PgnError::Syntax { line: 1, why: "a tag must read [Name \"value\"]".into() }
        );
        assert_eq!(err("1. e4 (1. d4"), PgnError::Syntax { line: 1, why: "a variation `(` is never closed".into() });
        assert_eq!(err("1. e4 )"), PgnError::Syntax { line: 1, why: "a `)` closes no variation".into() });
        assert_eq!(err("1. e4\n\ne5 }"), PgnError::Syntax { line: 3, why: "a `}` closes no comment".into() });
    }

    #[test]
    fn move_errors_name_number_text_and_reason() {
        let e = read(Variant::Chess, "1. e4 e5 2. Ke3").unwrap_err();
        assert_eq!(e.to_string(), "move 2. `Ke3`: the king on e1 cannot move to e3; legal nearby: Ke2");
        let e = read(Variant::Chess, "1. f3 e5 2. g4 Qh4# 3. a3").unwrap_err();
        assert_eq!(e.to_string(), "move 3. `a3` comes after the end of the game (Black wins by checkmate)");
        let e = read(Variant::Chess, "1. e4 Nf5").unwrap_err();
        assert!(matches!(e, PgnError::Move { ref number, .. } if number == "1..."), "{e}");
        let e = read(Variant::Golem, "[Variant \"Werewolf Chess\"]\n1. e4").unwrap_err();
        assert_eq!(e.to_string(), "the Variant tag says `Werewolf Chess`, but the game is read as Golem Chess");
    }

    #[test]
    fn reads_tags_fen_and_result() {
        let text = "[Event \"Club \\\"open\\\"\"]\n[SetUp \"1\"]\n[FEN \"4k3/8/8/8/8/8/8/R3K3 b Q - 0 40\"]\n\n40... Kd7 41. O-O-O+ 1/2-1/2";
        let pgn = read(Variant::Chess, text).unwrap();
        assert_eq!(pgn.tags.get("Event"), Some("Club \"open\""));
        assert_eq!(pgn.result.as_deref(), Some("1/2-1/2"));
        assert_eq!(pgn.game.position().fen(), "8/3k4/8/8/8/8/8/2KR4 b - - 2 41");
    }

    #[test]
    fn writes_then_reads_back() {
        let mut game = Game::new(Position::start(Variant::Werewolf));
        for text in ["e4", "d5", "exd5", "Wxd5", "Nc3", "Wxd2+", "Bxd2"] {
            let m = game.position().parse_move(text).unwrap();
            game.play(m).unwrap();
        }
        let mut tags = Tags::new();
        tags.set("White", "Ann");
        tags.set("Annotator", "Bo");
        let text = write(&game, &tags);
        assert!(text.starts_with("[Event \"?\"]\n[Site \"?\"]\n[Date \"????.??.??\"]\n[Round \"?\"]\n[White \"Ann\"]\n[Black \"?\"]\n[Result \"*\"]\n[Variant \"Werewolf Chess\"]\n[Annotator \"Bo\"]\n\n"), "{text}");
        assert!(text.ends_with("1. e4 d5 2. exd5 Wxd5 3. Nc3 Wxd2+ 4. Bxd2=W *\n"), "{text}");
        let back = read(Variant::Werewolf, &text).unwrap();
        assert_eq!(back.game.moves(), game.moves());
        assert_eq!(back.tags.get("Annotator"), Some("Bo"));
    }

    #[test]
    fn tag_values_cannot_end_their_tag_or_start_another() {
        let game = Game::new(Position::start(Variant::Chess));
        let mut tags = Tags::new();
        let white = "Ann \"the\\great\"\n[Result \"1-0\"]\r\tx\u{7}";
        tags.set("White", white);
        let text = write(&game, &tags);
        let line = text.lines().find(|l| l.starts_with("[White ")).unwrap();
        assert_eq!(line, r#"[White "Ann \"the\\great\" [Result \"1-0\"]  x "]"#);
        assert!(text.contains("[Result \"*\"]\n"), "{text}");
        assert_eq!(text.lines().filter(|l| l.starts_with("[Result ")).count(), 1, "{text}");
        let back = read(Variant::Chess, &text).unwrap();
        assert_eq!(back.tags.get("White"), Some("Ann \"the\\great\" [Result \"1-0\"]  x "));
        assert_eq!(back.tags.get("Result"), Some("*"));
    }

    #[test]
    fn writes_fen_and_numbers_from_black() {
        let start = Position::from_fen(Variant::Chess, "4k3/8/8/8/8/8/8/R3K3 b Q - 0 40").unwrap();
        let mut game = Game::new(start);
        for text in ["Kd7", "O-O-O"] {
            game.play(game.position().parse_move(text).unwrap()).unwrap();
        }
        let text = write(&game, &Tags::new());
        assert!(
            text.contains("[Variant \"Chess\"]\n[SetUp \"1\"]\n[FEN \"4k3/8/8/8/8/8/8/R3K3 b Q - 0 40\"]\n"),
            "{text}"
        );
        assert!(text.ends_with("\n\n40... Kd7 41. O-O-O+ *\n"), "{text}");
    }

    #[test]
    fn writes_80_columns() {
        let pgn = read(Variant::Golem, include_str!("../tests/data/golem-sample-game.txt")).unwrap();
        let text = write(&pgn.game, &Tags::new());
        assert!(text.contains("[Result \"1-0\"]"));
        let movetext = text.split("\n\n").nth(1).unwrap();
        assert!(movetext.starts_with("1. d4 Nc6 2. Nf3 d5 3. Nc3 Nf6"), "{movetext}");
        assert!(movetext.contains(" 27. Nxg3=H "), "{movetext}");
        assert!(movetext.trim_end().ends_with("63. Gb7# 1-0"), "{movetext}");
        assert!(movetext.lines().all(|l| l.len() <= 80), "{movetext}");
        assert!(movetext.lines().any(|l| l.len() > 70), "{movetext}");
        assert_eq!(read(Variant::Golem, &text).unwrap().game.moves(), pgn.game.moves());
    }

    #[test]
    fn golem_sample_game_ends_in_mate() {
        let pgn = read(Variant::Golem, include_str!("../tests/data/golem-sample-game.txt")).unwrap();
        assert_eq!(pgn.game.moves().len(), 125);
        assert_eq!(pgn.game.outcome(), Some(Outcome::Decisive { winner: Color::White, reason: WinReason::Checkmate }));
    }
}
