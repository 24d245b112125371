//! The Matrix adapter's reader, with no network and no matrix-sdk in it: what a text message
//! says (mention pills read as the user ids they link, reply quotes dropped), and whether it is
//! a command (the room's prefix, then the host's command line) or text that may be a bare move.
//!
//! Part of the library whatever its features, so that the fuzz target `matrix_text`
//! (docs/fuzzing.md) reads messages exactly as the bot does without building matrix-sdk; the
//! adapter uses it as `matrix::text`.

/// What a text message says to Chimera.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Said {
    /// A command typed with the room's prefix, as the host reads it: `!move e4` is `/move e4`.
    Command(String),
    /// Anything else, as text: a bare move from the player to move, or chat.
    Text(String),
}

/// Reads a text message: its plain `body`, its HTML `formatted` body when it has one, and the
/// room's command `prefix`.
pub fn read(body: &str, html: Option<&str>, prefix: &str) -> Said {
    let said = said(body, html);
    match command_line(&said, prefix) {
        Some(line) => Said::Command(line),
        None => Said::Text(said),
    }
}

/// What a message says, as text: the HTML body when there is one, its mention pills
/// (`<a href="https://matrix.to/#/@bob:example.org">Bob</a>`) written as the user ids they link
/// and its reply quote (`<mx-reply>`) left out; else the plain body without its `> ` quote.
pub fn said(body: &str, html: Option<&str>) -> String {
    match html {
        Some(html) => html_text(html),
        // Split on `\n` alone, not `lines()`, which also drops a `\r` before each `\n`: the HTML
        // body keeps every character, and both bodies must read the same.
        None => body.split('\n').skip_while(|l| l.starts_with("> ")).collect::<Vec<_>>().join("\n").trim().to_string(),
    }
}

fn html_text(html: &str) -> String {
    let mut out = String::new();
    let mut rest = html;
    // Replies quote what they answer inside <mx-reply>; it is not what the person said.
    if let (Some(start), Some(end)) = (rest.find("<mx-reply>"), rest.find("</mx-reply>")) {
        if start < end {
            out.push_str(&rest[..start]);
            rest = &rest[end + "</mx-reply>".len()..];
        }
    }
    while let Some(open) = rest.find('<') {
        out.push_str(&rest[..open]);
        let Some(close) = rest[open..].find('>') else {
            rest = "";
            break;
        };
        let tag = &rest[open + 1..open + close];
        rest = &rest[open + close + 1..];
        if tag.starts_with("a ") || tag.starts_with("A ") {
            if let Some(user) = pill_target(tag) {
                // The link's text is the name the client showed; the id is what it means.
                let end = rest.find("</a>").unwrap_or(rest.len());
                out.push_str(&user);
                rest = rest.get(end + 4..).unwrap_or("");
                continue;
            }
        }
        if matches!(tag, "br" | "br/" | "br /" | "p" | "/p") {
            out.push('\n');
        }
    }
    out.push_str(rest);
    unescape(&out).trim().to_string()
}

/// The user id a `matrix.to` link names, from an `<a ...>` tag's attributes.
fn pill_target(tag: &str) -> Option<String> {
    let at = tag.find("href=")?;
    let value = &tag[at + 5..];
    let quote = value.chars().next().filter(|c| *c == '"' || *c == '\'')?;
    let value = &value[1..];
    let href = &value[..value.find(quote)?];
    let target = href.strip_prefix("https://matrix.to/#/")?;
    let target = target.split('?').next().unwrap_or(target);
    let target = target.replace("%40", "@").replace("%3A", ":").replace("%3a", ":");
    target.starts_with('@').then_some(target)
}

fn unescape(text: &str) -> String {
    text.replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&quot;", "\"")
        .replace("&#39;", "'")
        .replace("&#x27;", "'")
        .replace("&nbsp;", " ")
        .replace("&amp;", "&")
}

pub fn escape(text: &str) -> String {
    text.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;").replace('"', "&quot;")
}

/// A command line typed with the room's prefix (`!move e4`) as the host reads it (`/move e4`);
/// `None` when the text does not start with the prefix.
pub fn command_line(text: &str, prefix: &str) -> Option<String> {
    let rest = text.trim().strip_prefix(prefix)?;
    (!rest.is_empty() && !rest.starts_with(char::is_whitespace)).then(|| format!("/{rest}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pills_read_as_user_ids_and_reply_quotes_are_dropped() {
        let html = "<mx-reply><blockquote>old</blockquote></mx-reply>!challenge \
                    <a href=\"https://matrix.to/#/@bob:example.org\">Bob Smith</a> variant:golem";
        assert_eq!(said("Bob Smith: ...", Some(html)), "!challenge @bob:example.org variant:golem");
        let encoded = "<a href='https://matrix.to/#/%40bob%3Aexample.org'>Bob</a> &amp; me";
        assert_eq!(said("", Some(encoded)), "@bob:example.org & me");
        assert_eq!(said("> <@a:x> e4\n\nNf3", None), "Nf3");
    }

    #[test]
    fn a_carriage_return_reads_the_same_in_either_body() {
        // Found by the `matrix_text` fuzz target: `lines()` dropped the `\r` of a quoted name
        // in the plain body while the HTML body kept it, so one command read two ways.
        let typed = "!accept challenger:\"a\r\nb\"";
        assert_eq!(said(typed, None), said("", Some(typed)));
        assert_eq!(said(typed, None), typed);
    }

    #[test]
    fn commands_take_the_prefix() {
        assert_eq!(command_line("!move e4", "!").as_deref(), Some("/move e4"));
        assert_eq!(command_line("! move", "!"), None);
        assert_eq!(command_line("e4", "!"), None);
        assert_eq!(read("!move e4", None, "!"), Said::Command("/move e4".into()));
        assert_eq!(read("> <@a:x> !help\n\ne4", None, "!"), Said::Text("e4".into()));
    }
}
