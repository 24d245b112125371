//! The host's words as Discord shows them: its channels as `<#id>` links, and what a user typed
//! escaped for Discord's markdown, so that it shows as typed: no formatting, link, emoji or
//! mention, and inside code no backtick that ends the code.

use host::typed::{spans, Span};

/// `text` (the host's, with its typed spans) as a message's content.
pub fn content(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 16);
    let mut code = Code::None;
    for span in spans(text) {
        match span {
            Span::Ours(ours) => {
                code = code.after(ours);
                out.push_str(&link_channels(ours));
            }
            Span::Typed(typed) if code == Code::None => escape(typed, &mut out),
            // In code nothing is markup, but a backtick would end it: a look-alike stands in.
            Span::Typed(typed) => out.extend(typed.chars().map(|c| if c == '`' { 'ˋ' } else { c })),
        }
    }
    out
}

/// Whether the text so far leaves an inline code span or a code block open.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Code {
    None,
    Inline,
    Block,
}

impl Code {
    fn after(mut self, text: &str) -> Code {
        let mut rest = text;
        while let Some(at) = rest.find('`') {
            let fence = rest[at..].starts_with("```");
            let (next, len) = match (self, fence) {
                (Code::None, true) => (Code::Block, 3),
                (Code::Block, true) => (Code::None, 3),
                (Code::None, false) => (Code::Inline, 1),
                (Code::Inline, _) => (Code::None, 1),
                (Code::Block, false) => (Code::Block, 1),
            };
            self = next;
            rest = &rest[at + len..];
        }
        self
    }
}

/// Each character Discord's markdown reads as markup, a link or a mention, after a backslash
/// (parentheses need none: with the brackets escaped, no masked link can form).
fn escape(typed: &str, out: &mut String) {
    for c in typed.chars() {
        if matches!(c, '\\' | '*' | '_' | '~' | '`' | '|' | '>' | '<' | '#' | '-' | '[' | ']' | ':' | '@') {
            out.push('\\');
        }
        out.push(c);
    }
}

/// The host names channels as `#` and their id; Discord links `<#id>`.
fn link_channels(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find('#') {
        out.push_str(&rest[..at]);
        let after = &rest[at + 1..];
        let digits = after.bytes().take_while(u8::is_ascii_digit).count();
        // Snowflakes have 17 to 20 digits; `#12` is a game number and stays.
        if (15..=20).contains(&digits) {
            out.push_str(&format!("<#{}>", &after[..digits]));
            rest = &after[digits..];
        } else {
            out.push('#');
            rest = after;
        }
    }
    out.push_str(rest);
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use host::Typed;

    #[test]
    fn channel_ids_become_links_and_game_numbers_stay() {
        assert_eq!(content("Game #12 is in #123456789012345678."), "Game #12 is in <#123456789012345678>.");
    }

    #[test]
    fn typed_text_shows_as_typed() {
        let said = content(&format!(
            "**{}** joins #123456789012345678.",
            Typed("[prize](https://example.com) <@&1> @everyone")
        ));
        assert_eq!(said, r"**\[prize\](https\://example.com) \<\@&1\> \@everyone** joins <#123456789012345678>.");
        assert_eq!(
            content(&format!("{} #123456789012345678", Typed("#123456789012345678"))),
            r"\#123456789012345678 <#123456789012345678>"
        );
    }

    #[test]
    fn in_code_a_backtick_cannot_end_the_code() {
        let pgn = format!("```\n[White \"{}\"]\n```", Typed("a```b`c"));
        assert_eq!(content(&pgn), "```\n[White \"aˋˋˋbˋc\"]\n```");
        assert_eq!(content(&format!("`{}` is not a move", Typed("e4`*"))), "`e4ˋ*` is not a move");
        // After the code ends, markdown is escaped again.
        assert_eq!(content(&format!("`x` {}", Typed("*"))), r"`x` \*");
    }

    #[test]
    fn code_state_follows_backticks_and_fences() {
        assert_eq!(Code::None.after("a `b"), Code::Inline);
        assert_eq!(Code::None.after("a `b` c"), Code::None);
        assert_eq!(Code::None.after("```\nx"), Code::Block);
        assert_eq!(Code::Block.after("x ` y"), Code::Block);
        assert_eq!(Code::Block.after("x\n```"), Code::None);
        assert_eq!(Code::Inline.after("```"), Code::None);
    }
}
