//! The rules pages: `/rules` lists the variants, `/rules/{variant}` gives one variant's rules in
//! the project's own words, the text and the diagrams `/rules` gives in chat
//! ([`host::export::rules_text`], [`host::export::rule_diagrams`]), and
//! `/rules/{variant}/{diagram}.png` serves each diagram, drawn by `render` once per process.
//!
//! Only a variant's exact id names it (`/rules/golem`, not `/rules/Golem%20Chess`), and only
//! its own diagrams are served under it: anything else is the plain 404.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use axum::extract::rejection::PathRejection;
use axum::extract::{Path, State};
use axum::http::{header, HeaderValue};
use axum::response::{IntoResponse, Response};
use maud::html;
use render::Diagram;
use rules::Variant;

use crate::markdown;
use crate::page::{Page, PageError};
use crate::Web;

/// The width, in pixels, the diagrams are drawn at (as in chat).
const DIAGRAM_SIZE: u32 = 480;

/// The diagrams drawn so far, as PNG.
#[derive(Default)]
pub struct Drawn {
    png: Mutex<HashMap<Diagram, Arc<[u8]>>>,
}

/// The variant an address names by its exact id.
pub(crate) fn variant_by_id(id: &str) -> Option<Variant> {
    Variant::ALL.into_iter().find(|v| v.id() == id)
}

/// The address of a diagram's picture.
fn diagram_href(variant: Variant, diagram: Diagram) -> String {
    format!("/rules/{}/{}.png", variant.id(), diagram.name())
}

/// The text's first paragraph, for the list of variants.
fn summary(variant: Variant) -> &'static str {
    let text = host::export::rules_text(variant);
    text.split("\n\n").next().unwrap_or(text)
}

/// `GET /rules`: every variant, with the start of its rules.
pub async fn index() -> Response {
    let body = html! {
        h1 { "Rules" }
        p { "Chimera plays these variants. Each page gives the rules as Chimera plays them." }
        ul.variants {
            @for v in Variant::ALL {
                li {
                    a href=(format!("/rules/{}", v.id())) { (v.name()) }
                    div.summary { (markdown::render(summary(v))) }
                }
            }
        }
    };
    Page { title: "Rules · Chimera".into(), body, script: None }.into_response()
}

/// `GET /rules/{variant}`: one variant's rules and diagrams.
pub async fn page(path: Result<Path<String>, PathRejection>) -> Result<Response, PageError> {
    let Path(id) = path.map_err(|_| PageError::NotFound)?;
    let variant = variant_by_id(&id).ok_or(PageError::NotFound)?;
    let body = html! {
        article.rules {
            h1 { (variant.name()) }
            (markdown::render(host::export::rules_text(variant)))
            @for diagram in host::export::rule_diagrams(variant) {
                figure.diagram {
                    img src=(diagram_href(variant, diagram))
                        alt=(format!("{} rules diagram: {}", variant.name(), diagram.name()))
                        width=(DIAGRAM_SIZE);
                    figcaption { (diagram.name().replace('-', " ")) }
                }
            }
            p { a href="/rules" { "All variants" } }
        }
    };
    Ok(Page { title: format!("{} rules · Chimera", variant.name()), body, script: None }.into_response())
}

/// `GET /rules/{variant}/{diagram}.png`: one of the variant's diagrams.
pub async fn diagram(
    State(web): State<Web>,
    path: Result<Path<(String, String)>, PathRejection>,
) -> Result<Response, PageError> {
    let Path((id, file)) = path.map_err(|_| PageError::NotFound)?;
    let variant = variant_by_id(&id).ok_or(PageError::NotFound)?;
    let name = file.strip_suffix(".png").ok_or(PageError::NotFound)?;
    let diagram =
        host::export::rule_diagrams(variant).into_iter().find(|d| d.name() == name).ok_or(PageError::NotFound)?;
    let png = drawn(&web, diagram).await?;
    Ok((
        [
            (header::CONTENT_TYPE, HeaderValue::from_static("image/png")),
            // The same picture until the program changes.
            (header::CACHE_CONTROL, HeaderValue::from_static("public, max-age=86400")),
        ],
        png.to_vec(),
    )
        .into_response())
}

/// The diagram as PNG, drawn once (off the async runtime's threads).
async fn drawn(web: &Web, diagram: Diagram) -> Result<Arc<[u8]>, PageError> {
    fn lock(web: &Web) -> std::sync::MutexGuard<'_, HashMap<Diagram, Arc<[u8]>>> {
        // A poisoned map is still a map: a panicking task cannot have left it half-changed.
        web.inner.diagrams.png.lock().unwrap_or_else(|e| e.into_inner())
    }
    if let Some(png) = lock(web).get(&diagram) {
        return Ok(png.clone());
    }
    let drawer = web.clone();
    let png: Arc<[u8]> = tokio::task::spawn_blocking(move || {
        drawer.inner.renderer.diagram_png(diagram, drawer.settings().theme, DIAGRAM_SIZE)
    })
    .await
    .map_err(|e| PageError::Broken(format!("drawing the diagram {}: {e}", diagram.name())))?
    .into();
    lock(web).insert(diagram, png.clone());
    Ok(png)
}
