//! The little Markdown the rules texts use (`host/src/help/*.md`), as HTML: paragraphs (a line
//! break inside one kept as a break, as chat shows it), numbered and bulleted lists, `**bold**`,
//! `*emphasis*` and `` `code` ``. Every character of the text is put in the page through
//! `maud`, which escapes it: no markup in the text can reach the page as markup. A marker that
//! is not closed is shown as it is.

use maud::{html, Markup};

/// One block of the text.
#[derive(Debug, PartialEq)]
enum Block<'a> {
    /// Lines shown with breaks between them.
    Paragraph(Vec<&'a str>),
    Numbered(Vec<&'a str>),
    Bullets(Vec<&'a str>),
}

/// The item text if `line` is a numbered item (`1. text`).
fn numbered(line: &str) -> Option<&str> {
    let (number, rest) = line.split_once(". ")?;
    (!number.is_empty() && number.chars().all(|c| c.is_ascii_digit())).then_some(rest)
}

fn bullet(line: &str) -> Option<&str> {
    line.strip_prefix("- ").or_else(|| line.strip_prefix("* "))
}

fn blocks(text: &str) -> Vec<Block<'_>> {
    let mut out: Vec<Block<'_>> = Vec::new();
    let mut fresh = true;
    for line in text.lines().map(str::trim_end) {
        if line.trim().is_empty() {
            fresh = true;
            continue;
        }
        let last = if fresh { None } else { out.last_mut() };
        match (numbered(line), bullet(line), last) {
            (Some(item), _, Some(Block::Numbered(items))) => items.push(item),
            (Some(item), _, _) => out.push(Block::Numbered(vec![item])),
            (None, Some(item), Some(Block::Bullets(items))) => items.push(item),
            (None, Some(item), _) => out.push(Block::Bullets(vec![item])),
            (None, None, Some(Block::Paragraph(lines))) => lines.push(line),
            (None, None, _) => out.push(Block::Paragraph(vec![line])),
        }
        fresh = false;
    }
    out
}

/// A piece of a line.
#[derive(Debug, PartialEq)]
enum Span<'a> {
    Text(&'a str),
    Strong(Vec<Span<'a>>),
    Em(Vec<Span<'a>>),
    Code(&'a str),
}

/// The spans of `text`: `` `code` `` first (nothing inside it is read), then `**strong**`, then
/// `*emphasis*`.
fn spans(text: &str) -> Vec<Span<'_>> {
    let mut out = Vec::new();
    let mut rest = text;
    let mut plain_from = 0;
    let mut i = 0;
    while i < rest.len() {
        let tail = &rest[i..];
        let found = if let Some(inner) = tail.strip_prefix('`') {
            inner.find('`').map(|end| (Span::Code(&inner[..end]), 1 + end + 1))
        } else if let Some(inner) = tail.strip_prefix("**") {
            inner.find("**").filter(|&end| end > 0).map(|end| (Span::Strong(spans(&inner[..end])), 2 + end + 2))
        } else if let Some(inner) = tail.strip_prefix('*') {
            inner
                .find('*')
                .filter(|&end| end > 0 && !inner.starts_with(' ') && !inner[..end].ends_with(' '))
                .map(|end| (Span::Em(spans(&inner[..end])), 1 + end + 1))
        } else {
            None
        };
        match found {
            Some((span, len)) => {
                if plain_from < i {
                    out.push(Span::Text(&rest[plain_from..i]));
                }
                out.push(span);
                rest = &rest[i + len..];
                i = 0;
                plain_from = 0;
            }
            None => i += tail.chars().next().map_or(1, char::len_utf8),
        }
    }
    if plain_from < rest.len() {
        out.push(Span::Text(&rest[plain_from..]));
    }
    out
}

fn inline(spans: &[Span<'_>]) -> Markup {
    html! {
        @for span in spans {
            @match span {
                Span::Text(text) => (text),
                Span::Strong(inner) => strong { (inline(inner)) },
                Span::Em(inner) => em { (inline(inner)) },
                Span::Code(code) => code { (code) },
            }
        }
    }
}

/// `text` as HTML, everything in it escaped.
pub fn render(text: &str) -> Markup {
    html! {
        @for block in blocks(text) {
            @match block {
                Block::Paragraph(lines) => p {
                    @for (i, line) in lines.iter().enumerate() {
                        @if i > 0 { br; }
                        (inline(&spans(line)))
                    }
                },
                Block::Numbered(items) => ol { @for item in items { li { (inline(&spans(item))) } } },
                Block::Bullets(items) => ul { @for item in items { li { (inline(&spans(item))) } } },
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_rules_markdown_becomes_html() {
        let text = "**Golem** — a `G` *giant*.\nSecond line.\n\nRules:\n1. one\n2. two\n\n- a\n- b";
        assert_eq!(
            render(text).into_string(),
            "<p><strong>Golem</strong> — a <code>G</code> <em>giant</em>.<br>Second line.</p>\
             <p>Rules:</p><ol><li>one</li><li>two</li></ol><ul><li>a</li><li>b</li></ul>"
        );
    }

    #[test]
    fn markup_in_the_text_is_escaped_and_open_markers_stay() {
        let html = render("<script>alert(1)</script> **open and `x<y` * lone").into_string();
        assert_eq!(html, "<p>&lt;script&gt;alert(1)&lt;/script&gt; **open and <code>x&lt;y</code> * lone</p>");
    }

    #[test]
    fn every_rules_text_renders_with_its_bold_lead() {
        for variant in rules::Variant::ALL {
            let html = render(host::export::rules_text(variant)).into_string();
            assert!(html.starts_with("<p><strong>"), "{variant:?}: {html}");
            assert!(!html.contains("**"), "{variant:?}: an unread marker in {html}");
        }
    }
}
