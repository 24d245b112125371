//! The embedded assets: the piece art (from `render`, in both colours), the style sheet and the
//! scripts. Each is served as `/assets/{stem}.{hash}.{ext}`, the hash taken from its bytes, so a
//! name never names two contents and every asset can be cached for a year. Any other name is
//! the plain 404.

use std::collections::HashMap;
use std::sync::LazyLock;

use axum::extract::{Path, State};
use axum::http::{header, HeaderValue};
use axum::response::{IntoResponse, Response};
use rules::{Color, Piece, Role};

use crate::page::PageError;
use crate::Web;

/// One asset: its served name and bytes.
pub struct Asset {
    pub name: String,
    pub content_type: &'static str,
    pub bytes: Vec<u8>,
}

impl Asset {
    fn new(stem: &str, ext: &str, content_type: &'static str, bytes: Vec<u8>) -> Asset {
        Asset { name: format!("{stem}.{:016x}.{ext}", fnv1a(&bytes)), content_type, bytes }
    }

    /// The address a page links it by.
    pub fn href(&self) -> String {
        format!("/assets/{}", self.name)
    }
}

/// FNV-1a, 64 bits: stable across builds and platforms, which is all a cache-busting name needs
/// (it guards against stale caches, not against an adversary).
fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3))
}

pub struct Assets {
    /// The style sheet, the script, then the pieces as [`piece_index`] orders them.
    all: Vec<Asset>,
    by_name: HashMap<String, usize>,
}

const STYLE: usize = 0;
const GAME_SCRIPT: usize = 1;
const TOURNAMENT_SCRIPT: usize = 2;
const PIECES: usize = 3;

/// A page's script.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Script {
    /// Steps through a game's moves and follows it live (`assets/game.js`).
    Game,
    /// Follows a tournament live (`assets/tournament.js`).
    Tournament,
}

fn piece_index(piece: Piece) -> usize {
    PIECES + piece.color.index() * Role::COUNT + piece.role.index()
}

impl Assets {
    fn new() -> Assets {
        let mut all = vec![
            Asset::new("style", "css", "text/css; charset=utf-8", include_bytes!("../assets/style.css").to_vec()),
            Asset::new("game", "js", "text/javascript; charset=utf-8", include_bytes!("../assets/game.js").to_vec()),
            Asset::new(
                "tournament",
                "js",
                "text/javascript; charset=utf-8",
                include_bytes!("../assets/tournament.js").to_vec(),
            ),
        ];
        for color in Color::ALL {
            for role in Role::ALL {
                let piece = Piece::new(color, role);
                debug_assert_eq!(piece_index(piece), all.len());
                let stem = format!("{}-{}", color.name().to_ascii_lowercase(), role.name().replace(' ', "-"));
                all.push(Asset::new(&stem, "svg", "image/svg+xml", render::piece_svg(piece).into_bytes()));
            }
        }
        let by_name = all.iter().enumerate().map(|(i, a)| (a.name.clone(), i)).collect();
        Assets { all, by_name }
    }

    pub fn style(&self) -> &Asset {
        &self.all[STYLE]
    }

    pub fn script(&self, script: Script) -> &Asset {
        match script {
            Script::Game => &self.all[GAME_SCRIPT],
            Script::Tournament => &self.all[TOURNAMENT_SCRIPT],
        }
    }

    pub fn piece(&self, piece: Piece) -> &Asset {
        &self.all[piece_index(piece)]
    }

    fn named(&self, name: &str) -> Option<&Asset> {
        self.by_name.get(name).map(|&i| &self.all[i])
    }
}

/// The assets, made once.
pub static ASSETS: LazyLock<Assets> = LazyLock::new(Assets::new);

pub async fn serve(
    State(_): State<Web>,
    name: Result<Path<String>, axum::extract::rejection::PathRejection>,
) -> Response {
    let Some(asset) = name.ok().and_then(|Path(name)| ASSETS.named(&name)) else {
        return PageError::NotFound.into_response();
    };
    (
        [
            (header::CONTENT_TYPE, HeaderValue::from_static(asset.content_type)),
            // The name changes with the content, so a copy never goes stale.
            (header::CACHE_CONTROL, HeaderValue::from_static("public, max-age=31536000, immutable")),
        ],
        asset.bytes.clone(),
    )
        .into_response()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_asset_has_its_own_name_and_is_found_by_it() {
        let assets = Assets::new();
        let names: Vec<&str> = assets.all.iter().map(|a| a.name.as_str()).collect();
        assert_eq!(names.len(), 3 + 2 * Role::COUNT);
        for name in &names {
            assert_eq!(assets.named(name).map(|a| a.name.as_str()), Some(*name));
        }
        let black_lion = assets.piece(Piece::new(Color::Black, Role::Lion));
        assert!(black_lion.name.starts_with("black-lion."), "{}", black_lion.name);
        assert!(assets.named("style.css").is_none());
    }
}
