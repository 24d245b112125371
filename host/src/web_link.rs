//! Links from chat to the web pages: the operator's base address ([`WebUrl`], the bot's
//! `CHIMERA_WEB_URL`) and the addresses built on it, carried by a message as typed [`Link`]s
//! that each adapter shows its own way (a Discord link button, an HTML link, a console line).
//!
//! What it guarantees: a [`WebUrl`] is an absolute `http` or `https` address with a host, no
//! user or password, no query, no fragment, no white space or control character, kept without
//! its trailing slash; so `game` and `tournament` always give `{base}/g/{key}` and
//! `{base}/t/{key}`, where the key is 24 hex digits and needs no escaping. A link names a game
//! or a tournament only by its unguessable key, and the host puts one only on messages shown
//! where that game or tournament may be seen.

use std::fmt;
use std::str::FromStr;

use data::WebKey;

/// The public base address of the web pages, as the operator gives it.
///
/// ```
/// let base: host::WebUrl = "https://chess.example.org/chimera/".parse().unwrap();
/// let key: host::WebKey = "0123456789abcdef01234567".parse().unwrap();
/// assert_eq!(base.game(&key), "https://chess.example.org/chimera/g/0123456789abcdef01234567");
/// assert!("chess.example.org".parse::<host::WebUrl>().is_err());
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WebUrl {
    /// Without a trailing slash.
    base: String,
}

/// Why text is not a usable base address.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum WebUrlError {
    #[error("needs an absolute http:// or https:// address, such as https://chess.example.org")]
    NotHttp,
    #[error("needs a host name after the scheme, such as https://chess.example.org")]
    NoHost,
    #[error("must not hold a user or password (it is posted in chat)")]
    Credentials,
    #[error("must not have a query (`?`) or a fragment (`#`): the pages' paths are added to it")]
    QueryOrFragment,
    #[error("must not hold spaces, quotes or control characters")]
    BadCharacter,
}

impl WebUrl {
    /// The page of the game whose key is `key`.
    pub fn game(&self, key: &WebKey) -> String {
        format!("{}/g/{key}", self.base)
    }

    /// The page of the tournament whose key is `key`.
    pub fn tournament(&self, key: &WebKey) -> String {
        format!("{}/t/{key}", self.base)
    }

    pub fn as_str(&self) -> &str {
        &self.base
    }
}

impl FromStr for WebUrl {
    type Err = WebUrlError;

    fn from_str(text: &str) -> Result<WebUrl, WebUrlError> {
        let text = text.trim();
        let lower = text.to_ascii_lowercase();
        let scheme = ["https://", "http://"].into_iter().find(|s| lower.starts_with(s)).ok_or(WebUrlError::NotHttp)?;
        // Anything a chat client or an HTML attribute could read otherwise is refused outright.
        if text.chars().any(|c| c.is_whitespace() || c.is_control() || matches!(c, '"' | '\'' | '<' | '>' | '\\' | '`'))
        {
            return Err(WebUrlError::BadCharacter);
        }
        if text.contains(['?', '#']) {
            return Err(WebUrlError::QueryOrFragment);
        }
        let rest = &text[scheme.len()..];
        let authority = rest.split('/').next().unwrap_or_default();
        if authority.contains('@') {
            return Err(WebUrlError::Credentials);
        }
        let host = authority.rsplit_once(':').map_or(authority, |(host, _port)| host);
        if host.is_empty() || host.starts_with(':') {
            return Err(WebUrlError::NoHost);
        }
        Ok(WebUrl { base: text.trim_end_matches('/').to_string() })
    }
}

impl fmt::Display for WebUrl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.base)
    }
}

/// A link a message carries to a web page: what to call it, and its address.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Link {
    pub label: String,
    pub url: String,
}

/// What a link of a game's messages is called.
pub const WATCH: &str = "Watch";

/// What a link of a tournament's messages is called.
pub const TOURNAMENT_PAGE: &str = "Tournament page";

impl crate::Host {
    /// The "Watch" link to the page of the game whose key is `key`, when the pages have an
    /// address. Only for messages shown where the game is played.
    pub(crate) fn game_link(&self, key: &WebKey) -> Option<Link> {
        let base = self.settings().web_url.as_ref()?;
        Some(Link { label: WATCH.to_string(), url: base.game(key) })
    }

    /// The link to the page of the tournament whose key is `key`, when the pages have an
    /// address. Only for messages shown in the tournament's server.
    pub(crate) fn tournament_link(&self, key: &WebKey) -> Option<Link> {
        let base = self.settings().web_url.as_ref()?;
        Some(Link { label: TOURNAMENT_PAGE.to_string(), url: base.tournament(key) })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key() -> WebKey {
        "00112233445566778899aabb".parse().unwrap()
    }

    #[test]
    fn pages_are_built_on_the_base_with_or_without_its_trailing_slash() {
        for base in ["https://chess.example.org", "https://chess.example.org/", " https://chess.example.org// "] {
            let url: WebUrl = base.parse().unwrap();
            assert_eq!(url.game(&key()), "https://chess.example.org/g/00112233445566778899aabb", "{base}");
            assert_eq!(url.tournament(&key()), "https://chess.example.org/t/00112233445566778899aabb", "{base}");
        }
        let url: WebUrl = "HTTP://127.0.0.1:8080/chimera".parse().unwrap();
        assert_eq!(url.game(&key()), "HTTP://127.0.0.1:8080/chimera/g/00112233445566778899aabb");
    }

    #[test]
    fn anything_but_a_plain_http_address_is_refused_and_says_why() {
        for (bad, why) in [
            ("", WebUrlError::NotHttp),
            ("chess.example.org", WebUrlError::NotHttp),
            ("ftp://chess.example.org", WebUrlError::NotHttp),
            ("javascript:alert(1)", WebUrlError::NotHttp),
            ("https://", WebUrlError::NoHost),
            ("https:///g", WebUrlError::NoHost),
            ("https://:8080", WebUrlError::NoHost),
            ("https://me:pw@chess.example.org", WebUrlError::Credentials),
            ("https://chess.example.org/?a=1", WebUrlError::QueryOrFragment),
            ("https://chess.example.org/#top", WebUrlError::QueryOrFragment),
            ("https://chess.example.org/a b", WebUrlError::BadCharacter),
            ("https://chess.example.org/\"><script>", WebUrlError::BadCharacter),
        ] {
            assert_eq!(bad.parse::<WebUrl>(), Err(why), "{bad:?}");
        }
    }
}
