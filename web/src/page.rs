//! The frame every page shares (head, style sheet, header), the one 404 page, and the errors a
//! page handler returns.

use axum::http::{header, StatusCode};
use axum::response::{Html, IntoResponse, Response};
use maud::{html, Markup, PreEscaped, DOCTYPE};

use crate::assets::{Script, ASSETS};

/// An HTML page: its title and body, in the shared frame.
pub struct Page {
    pub title: String,
    pub body: Markup,
    /// The script the page loads, if any (every page works without it).
    pub script: Option<Script>,
}

impl Page {
    pub fn render(&self) -> Markup {
        html! {
            (DOCTYPE)
            html lang="en" {
                head {
                    meta charset="utf-8";
                    meta name="viewport" content="width=device-width, initial-scale=1";
                    // Belt and braces with the header: a saved copy of the page keeps it too.
                    meta name="referrer" content="no-referrer";
                    title { (self.title) }
                    link rel="stylesheet" href=(ASSETS.style().href());
                    @if let Some(script) = self.script {
                        script src=(ASSETS.script(script).href()) defer {}
                    }
                }
                body {
                    header.site { "Chimera" " · " a href="/rules" { "Rules" } }
                    main { (self.body) }
                }
            }
        }
    }
}

impl IntoResponse for Page {
    fn into_response(self) -> Response {
        Html(self.render().into_string()).into_response()
    }
}

/// Why a page is not shown.
#[derive(Debug)]
pub enum PageError {
    /// Nothing there, or nothing this visitor may see: the two are answered alike.
    NotFound,
    /// Chimera failed (its store, a stored game that does not replay). Logged; the visitor sees
    /// only that it failed.
    Broken(String),
}

impl From<data::Error> for PageError {
    fn from(e: data::Error) -> PageError {
        PageError::Broken(format!("the store: {e}"))
    }
}

impl From<host::export::Unreadable> for PageError {
    fn from(e: host::export::Unreadable) -> PageError {
        PageError::Broken(e.to_string())
    }
}

impl IntoResponse for PageError {
    fn into_response(self) -> Response {
        match self {
            PageError::NotFound => not_found(),
            PageError::Broken(why) => {
                tracing::error!("a web page failed: {why}");
                let page = Page {
                    title: "Something went wrong · Chimera".into(),
                    body: html! { h1 { "Something went wrong" } p { "Chimera could not show this page. Try again later." } },
                    script: None,
                };
                (StatusCode::INTERNAL_SERVER_ERROR, page).into_response()
            }
        }
    }
}

/// The one 404 page, the same bytes for every address that shows nothing.
pub fn not_found() -> Response {
    let page = Page {
        title: "Not found · Chimera".into(),
        body: html! { h1 { "Not found" } p { "There is no page here." } },
        script: None,
    };
    (StatusCode::NOT_FOUND, [(header::CACHE_CONTROL, "no-store")], page).into_response()
}

pub async fn fallback() -> Response {
    not_found()
}

/// `value` as JSON to put inside a `<script type="application/json">` element, whose text the
/// HTML parser does not unescape: `<`, `>` and `&` (found only inside JSON strings) are written
/// as `\u003c`, `\u003e` and `\u0026`, so no text can close the element or open a comment.
pub fn json_for_script<T: serde::Serialize>(value: &T) -> PreEscaped<String> {
    let json = serde_json::to_string(value).unwrap_or_else(|_| "null".into());
    PreEscaped(json.replace('<', "\\u003c").replace('>', "\\u003e").replace('&', "\\u0026"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn json_in_a_script_cannot_close_it() {
        let text = json_for_script(&["</script><script>alert(1)</script>", "a & b <!--"]).0;
        assert!(!text.contains('<') && !text.contains('>') && !text.contains('&'), "{text}");
        let back: Vec<String> = serde_json::from_str(&text).unwrap();
        assert_eq!(back, ["</script><script>alert(1)</script>", "a & b <!--"]);
    }
}
