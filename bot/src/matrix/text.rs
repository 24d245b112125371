//! Text both ways, with no network in it: what a message says (mention pills read as the user
//! ids they link, reply quotes dropped), and the host's words as Matrix shows them (commands with
//! the room's prefix, channels as links, code as `<code>`, HTML escaped, move lists kept to a
//! line or two, a game's PGN as a file).

use std::fmt::Write as _;

use super::channel::Channel;

pub use crate::matrix_read::{command_line, escape, read, said, Said};
use host::typed::{spans, Span};

/// The host's text (with its typed spans) as a notice's two bodies before [`markup`]: commands
/// with the room's `prefix` and channels as words or links in the host's words; what a user
/// typed as it is in the plain body, and in the HTML escaped with no markup left in it.
pub fn bodies(text: &str, prefix: &str) -> (String, String) {
    let (mut plain, mut html) = (String::new(), String::new());
    for span in spans(text) {
        match span {
            Span::Ours(ours) => {
                let (p, h) = channels(&with_prefix(ours, prefix));
                plain.push_str(&p);
                html.push_str(&h);
            }
            Span::Typed(typed) => {
                plain.push_str(typed);
                html.push_str(&escape_typed(typed));
            }
        }
    }
    (plain, html)
}

/// Appends a message's links to a notice's two bodies: `Watch: URL` on a line of its own in the
/// plain body, a link named by its label in the HTML, label and address escaped.
pub fn add_links(plain: &mut String, html: &mut String, links: &[host::Link]) {
    for link in links {
        let _ = write!(plain, "\n{}: {}", link.label, link.url);
        let _ = write!(html, "<br><a href=\"{}\">{}</a>", escape(&link.url), escape(&link.label));
    }
}

/// What a user typed as HTML that [`markup`] leaves alone: no backtick, no star.
fn escape_typed(typed: &str) -> String {
    escape(typed).replace('`', "&#96;").replace('*', "&#42;")
}

/// Where `pattern` first occurs in the host's own words (never inside what a user typed).
fn find_ours(text: &str, pattern: &str) -> Option<usize> {
    spans(text).find_map(|span| match span {
        // A span is a slice of `text`: its offset is where it starts.
        Span::Ours(ours) => ours.find(pattern).map(|at| ours.as_ptr() as usize - text.as_ptr() as usize + at),
        Span::Typed(_) => None,
    })
}

/// The host's text with each command it names (`/accept`) as typed here (`!accept`): a `/`
/// that starts a word and is followed by a command's name, or any word in code marks.
pub fn with_prefix(text: &str, prefix: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut previous: Option<char> = None;
    for (at, c) in text.char_indices() {
        let starts_word = previous.is_none_or(|p| p.is_whitespace() || matches!(p, '`' | '(' | '"' | '\''));
        if c == '/' && starts_word {
            let name: String = text[at + 1..].chars().take_while(|c| c.is_ascii_alphabetic()).collect();
            // In code marks it is a command as typed, known or not (`unknown command `/fly``).
            let quoted = previous == Some('`') && !name.is_empty();
            if quoted || host::COMMANDS.iter().any(|spec| spec.name == name) {
                out.push_str(prefix);
                previous = Some(c);
                continue;
            }
        }
        out.push(c);
        previous = Some(c);
    }
    out
}

/// The host names channels as `#` and their id; here a room id (`#!abc:example.org`) reads as
/// "this room" and a thread's id as a link to the thread.
pub fn channels(text: &str) -> (String, String) {
    let (mut plain, mut html) = (String::new(), String::new());
    let mut rest = text;
    while let Some(at) = rest.find("#!") {
        let before = &rest[..at];
        plain.push_str(before);
        html.push_str(&escape(before));
        let after = &rest[at + 1..];
        let mut len = after.find(char::is_whitespace).unwrap_or(after.len());
        while len > 0 && matches!(after.as_bytes()[len - 1], b'.' | b',' | b';' | b':' | b')') {
            len -= 1;
        }
        match after[..len].parse::<Channel>() {
            Ok(channel) => {
                let link = format!("https://matrix.to/#/{}", channel.link_path());
                let words = if channel.thread.is_some() { "its thread" } else { "the room" };
                plain.push_str(words);
                let _ = write!(html, "<a href=\"{}\">{words}</a>", escape(&link));
            }
            Err(_) => {
                plain.push('#');
                plain.push_str(&after[..len]);
                html.push('#');
                html.push_str(&escape(&after[..len]));
            }
        }
        rest = &after[len..];
    }
    plain.push_str(rest);
    html.push_str(&escape(rest));
    (plain, html)
}

/// Plain text as HTML: a block in three backticks as `<pre><code>`, `code` in backticks as
/// `<code>`, `**bold**` as `<strong>`, lines as `<br>`. `html` is already escaped.
pub fn markup(html: &str) -> String {
    let mut out = String::with_capacity(html.len() + 16);
    for (b, block) in html.split("```").enumerate() {
        if b % 2 == 1 {
            let _ = write!(out, "<pre><code>{}</code></pre>", block.strip_prefix('\n').unwrap_or(block));
            continue;
        }
        let mut inline = String::with_capacity(block.len());
        for (i, part) in block.split('`').enumerate() {
            if i % 2 == 1 {
                let _ = write!(inline, "<code>{part}</code>");
            } else {
                for (j, bold) in part.split("**").enumerate() {
                    if j % 2 == 1 {
                        let _ = write!(inline, "<strong>{bold}</strong>");
                    } else {
                        inline.push_str(bold);
                    }
                }
            }
        }
        out.push_str(&inline.replace('\n', "<br>"));
    }
    out
}

/// `html` with the first mention of `name` as plain text (a whole word, outside tags and code)
/// made a pill linking to `id`, as clients write mentions; `None` when the text never names them.
pub fn pill(html: &str, name: &str, id: &str) -> Option<String> {
    let needle = escape_typed(name);
    if needle.is_empty() {
        return None;
    }
    let is_word = |c: Option<char>| c.is_some_and(|c| c.is_alphanumeric() || c == '_');
    let (mut in_tag, mut in_code) = (false, 0usize);
    let mut at = 0;
    while at < html.len() {
        let rest = &html[at..];
        if rest.starts_with('<') {
            if rest.starts_with("<code") || rest.starts_with("<pre") || rest.starts_with("<a ") {
                in_code += 1;
            } else if (rest.starts_with("</code") || rest.starts_with("</pre") || rest.starts_with("</a"))
                && in_code > 0
            {
                in_code -= 1;
            }
            in_tag = true;
        } else if in_tag && rest.starts_with('>') {
            in_tag = false;
        } else if !in_tag
            && in_code == 0
            && rest.starts_with(&needle)
            && !is_word(html[..at].chars().next_back())
            && !is_word(rest[needle.len()..].chars().next())
        {
            let link = format!("<a href=\"https://matrix.to/#/{}\">{needle}</a>", escape(id));
            return Some(format!("{}{link}{}", &html[..at], &rest[needle.len()..]));
        }
        at += rest.chars().next().map_or(1, char::len_utf8);
    }
    None
}

/// The longest line of a move list shown in a room, in characters: about two lines in a client.
pub const LINE_LIMIT: usize = 240;

/// A block of the host's text too long for a room, sent as a file instead.
#[derive(Debug, PartialEq, Eq)]
pub struct Attachment {
    pub name: String,
    pub mime: &'static str,
    pub content: String,
}

/// Splits a block in three backticks of more than two lines (a game's PGN) off the text, as a
/// file: `chimera-game-12.pgn` for a PGN, `chimera.txt` otherwise. The text left says what is
/// attached when nothing else is left.
pub fn attachment(text: &str) -> (String, Option<Attachment>) {
    let Some(start) = find_ours(text, "```") else { return (text.to_string(), None) };
    let Some(len) = find_ours(&text[start + 3..], "```") else { return (text.to_string(), None) };
    let block = &text[start + 3..start + 3 + len];
    let content = host::typed::plain(block.strip_prefix('\n').unwrap_or(block));
    if content.trim_end().lines().count() <= 2 {
        return (text.to_string(), None);
    }
    let rest = format!("{}{}", &text[..start], &text[start + 3 + len + 3..]).trim().to_string();
    let game = content
        .strip_prefix("[Event \"Chimera game ")
        .map(|after| after.chars().take_while(char::is_ascii_digit).collect::<String>())
        .filter(|n| !n.is_empty());
    let (name, mime, said) = match game {
        Some(n) => (format!("chimera-game-{n}.pgn"), "application/vnd.chess-pgn", format!("Game {n} as PGN:")),
        None if content.starts_with("[Event ") => {
            ("chimera-game.pgn".to_string(), "application/vnd.chess-pgn", "The game as PGN:".to_string())
        }
        None => ("chimera.txt".to_string(), "text/plain", "The full text:".to_string()),
    };
    let rest = if rest.is_empty() { said } else { rest };
    (rest, Some(Attachment { name, mime, content }))
}

/// Move lists kept to a line or two: a game's `Moves:` line longer than [`LINE_LIMIT`] shows
/// its latest moves (the whole game is a `/pgn` away); in an answer to one person (`private`),
/// any longer line (the legal moves of `/moves`) is cut after what fits, where a list item ends.
pub fn brief(text: &str, private: bool) -> String {
    let lines: Vec<String> = text
        .lines()
        .map(|line| {
            if line.chars().count() <= LINE_LIMIT {
                line.to_string()
            } else if let Some(moves) = line.strip_prefix("Moves: ") {
                format!("Moves: …{} (all of them: `/pgn`)", latest_moves(moves, LINE_LIMIT - 40))
            } else if private {
                cut(line, LINE_LIMIT)
            } else {
                line.to_string()
            }
        })
        .collect();
    lines.join("\n")
}

/// The end of a game score, at most `limit` characters, starting at a move number.
fn latest_moves(score: &str, limit: usize) -> String {
    let total = score.chars().count();
    let start = score.char_indices().nth(total.saturating_sub(limit)).map_or(0, |(at, _)| at);
    let tail = &score[start..];
    // The first ` N.` in the tail, so the excerpt starts at a move.
    let mut from = None;
    for (at, _) in tail.match_indices(' ') {
        let word = tail[at + 1..].split(' ').next().unwrap_or("");
        if word.ends_with('.') && word.trim_end_matches('.').chars().all(|c| c.is_ascii_digit()) && word.len() > 1 {
            from = Some(at);
            break;
        }
    }
    let tail = from.map_or(tail, |at| &tail[at..]);
    if tail.starts_with(' ') {
        tail.to_string()
    } else {
        format!(" {tail}")
    }
}

/// `line` cut to at most `limit` characters where a list item or a word ends, with `…`.
fn cut(line: &str, limit: usize) -> String {
    let end = line.char_indices().nth(limit - 2).map_or(line.len(), |(at, _)| at);
    let head = &line[..end];
    let at = head.rfind(", ").map(|at| at + 1).or_else(|| head.rfind(' ')).unwrap_or(end);
    format!("{} …", &line[..at])
}

/// The reaction key for a button: yes and no as ✅ and ❌, a resignation as 🏳️, any other
/// choice (a Grolman turn) by its number.
pub fn key_for(label: &str, style: host::ButtonStyle, index: usize, count: usize) -> String {
    const NUMBERS: [&str; 10] = ["1️⃣", "2️⃣", "3️⃣", "4️⃣", "5️⃣", "6️⃣", "7️⃣", "8️⃣", "9️⃣", "🔟"];
    let lower = label.to_ascii_lowercase();
    if count <= 2 && lower.starts_with("decline") {
        "❌".into()
    } else if lower == "resign" {
        "🏳️".into()
    } else if count <= 2 && (lower.starts_with("accept") || style == host::ButtonStyle::Danger) {
        "✅".into()
    } else {
        NUMBERS.get(index).map_or_else(|| format!("{}", index + 1), |k| k.to_string())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn links_end_both_bodies_escaped() {
        let (mut plain, mut html) = ("Game 1 begins.".to_string(), "Game 1 begins.".to_string());
        let links = [host::Link { label: "Watch".into(), url: "https://chess.example.org/g/00ff&<\"".into() }];
        add_links(&mut plain, &mut html, &links);
        assert_eq!(plain, "Game 1 begins.\nWatch: https://chess.example.org/g/00ff&<\"");
        assert_eq!(html, "Game 1 begins.<br><a href=\"https://chess.example.org/g/00ff&amp;&lt;&quot;\">Watch</a>");
    }

    #[test]
    fn commands_take_the_prefix() {
        assert_eq!(with_prefix("Type `/accept` or /help; and/or 1/2", "!"), "Type `!accept` or !help; and/or 1/2");
        assert_eq!(with_prefix("unknown command `/fly`", "!"), "unknown command `!fly`");
    }

    #[test]
    fn channels_become_words_and_links() {
        let (plain, html) = channels("Game 3 is in #!abc:example.org/$root. Done in #!abc:example.org.");
        assert_eq!(plain, "Game 3 is in its thread. Done in the room.");
        assert!(html.contains("<a href=\"https://matrix.to/#/!abc:example.org/$root\">its thread</a>."), "{html}");
        assert_eq!(channels("#12 <b>").1, "#12 &lt;b&gt;");
    }

    #[test]
    fn typed_text_shows_as_typed() {
        use host::Typed;
        let text = format!("**{}** joins; `/help`.", Typed("**x** `/help` #!abc:example.org <b> [a](https://e.org)"));
        let (plain, html) = bodies(&text, "!");
        assert_eq!(plain, "****x** `/help` #!abc:example.org <b> [a](https://e.org)** joins; `!help`.");
        assert_eq!(
            markup(&html),
            "<strong>&#42;&#42;x&#42;&#42; &#96;/help&#96; #!abc:example.org &lt;b&gt; [a](https://e.org)</strong> \
             joins; <code>!help</code>."
        );
        // A PGN whose player's name holds three backticks is still one file, the name in it.
        let pgn = format!("```\n[Event \"Chimera game 3\"]\n[White \"{}\"]\n\n1. e4 *\n```", Typed("a```b"));
        let (rest, file) = attachment(&pgn);
        assert_eq!(rest, "Game 3 as PGN:");
        assert_eq!(file.map(|f| f.content), Some("[Event \"Chimera game 3\"]\n[White \"a```b\"]\n\n1. e4 *\n".into()));
        // A player's name becomes a pill where it is, escaped the same way.
        let named = markup(&bodies(&format!("{} to move.", Typed("a*b")), "!").1);
        assert_eq!(
            pill(&named, "a*b", "@a:x").as_deref(),
            Some("<a href=\"https://matrix.to/#/@a:x\">a&#42;b</a> to move.")
        );
    }

    #[test]
    fn markup_marks_code_and_lines() {
        assert_eq!(markup("a `!x` b\n**c**"), "a <code>!x</code> b<br><strong>c</strong>");
        assert_eq!(markup("x\n```\n1. e4\n2. d4```"), "x<br><pre><code>1. e4\n2. d4</code></pre>");
    }

    #[test]
    fn a_pgn_becomes_a_file_and_short_blocks_stay() {
        let pgn = "[Event \"Chimera game 12\"]\n[White \"a\"]\n\n1. e4 e5 1-0\n";
        let (rest, file) = attachment(&format!("```\n{pgn}```"));
        assert_eq!(rest, "Game 12 as PGN:");
        let file = file.unwrap();
        assert_eq!(
            (file.name.as_str(), file.mime, file.content.as_str()),
            ("chimera-game-12.pgn", "application/vnd.chess-pgn", pgn)
        );
        assert_eq!(attachment("see ```\nshort```"), ("see ```\nshort```".to_string(), None));
        let (rest, file) = attachment("Here:\n```\na\nb\nc\n```\nDone.");
        assert_eq!((rest.as_str(), file.unwrap().name.as_str()), ("Here:\n\nDone.", "chimera.txt"));
    }

    #[test]
    fn move_lists_stay_within_two_lines() {
        let score: Vec<String> = (1..=80).map(|n| format!("{n}. Nf3 Nf6")).collect();
        let game = format!("Game 3, Golem Chess.\nMoves: {}\nWhite to move.", score.join(" "));
        let short = brief(&game, false);
        let moves = short.lines().nth(1).unwrap();
        assert!(moves.chars().count() <= LINE_LIMIT, "{moves}");
        assert!(moves.starts_with("Moves: … ") && moves.contains("80. Nf3 Nf6 (all of them: `/pgn`)"), "{moves}");
        let first = moves.trim_start_matches("Moves: … ").split(' ').next().unwrap();
        assert!(first.ends_with('.') && first[..first.len() - 1].parse::<u32>().is_ok(), "starts at a move: {moves}");
        assert_eq!(short.lines().count(), 3);

        let sans: Vec<String> = (0..90).map(|i| format!("Q{i}x")).collect();
        let listing = format!("The queen on d1 can play 90 moves: {}.", sans.join(", "));
        let cut = brief(&listing, true);
        assert!(cut.chars().count() <= LINE_LIMIT && cut.ends_with(", …") && cut.contains("Q0x, Q1x"), "{cut}");
        assert_eq!(brief(&listing, false), listing, "only answers to one person are cut");
        assert_eq!(brief("short\nlines", true), "short\nlines");
    }

    #[test]
    fn keys_for_yes_no_and_choices() {
        use host::ButtonStyle::*;
        assert_eq!(key_for("Accept", Primary, 0, 2), "✅");
        assert_eq!(key_for("Decline draw", Secondary, 1, 2), "❌");
        assert_eq!(key_for("Resign", Danger, 0, 1), "🏳️");
        assert_eq!(key_for("Play Kxf2 and lose", Danger, 0, 1), "✅");
        assert_eq!(key_for("Nc3 (Rab1)", Secondary, 1, 3), "2️⃣");
    }

    #[test]
    fn a_mentioned_name_becomes_a_pill_where_the_text_first_says_it() {
        let html = "alice challenges bob to a game. bob, <code>!accept bob</code>";
        assert_eq!(
            pill(html, "bob", "@bob:example.org").as_deref(),
            Some("alice challenges <a href=\"https://matrix.to/#/@bob:example.org\">bob</a> to a game. bob, <code>!accept bob</code>")
        );
        // Whole words only, never inside code or a tag, and names are matched as escaped.
        assert_eq!(pill("bobby plays <code>bob</code>", "bob", "@bob:x"), None);
        assert_eq!(pill("<a href=\"bob\">link</a>", "bob", "@bob:x"), None);
        assert_eq!(
            pill("Tom &amp; Jerry moves", "Tom & Jerry", "@tj:x").as_deref(),
            Some("<a href=\"https://matrix.to/#/@tj:x\">Tom &amp; Jerry</a> moves")
        );
        assert_eq!(pill("Жора to move", "Жора", "@z:x").map(|h| h.ends_with("</a> to move")), Some(true));
    }
}
