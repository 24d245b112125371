//! The rules pages over real HTTP on loopback: every variant's page, its diagrams as PNG, and
//! the plain 404 for anything else.

mod common;

use data::{AsyncStore, WebKey};
use rules::Variant;

use common::get;

async fn serve() -> (tempfile::TempDir, web::Server) {
    let dir = tempfile::tempdir().unwrap();
    let store = AsyncStore::open(dir.path().join("chimera.db")).await.unwrap();
    let server =
        web::start("127.0.0.1:0".parse().unwrap(), web::Web::new(store, web::Settings::default())).await.unwrap();
    (dir, server)
}

/// The `src` of every `<img>` in `html`.
fn images(html: &str) -> Vec<String> {
    html.split("<img src=\"").skip(1).map(|s| s[..s.find('"').unwrap()].to_string()).collect()
}

#[tokio::test]
async fn every_variant_has_a_rules_page_with_its_diagrams() {
    let (_dir, server) = serve().await;
    let index = get(server.addr, "/rules").await;
    assert_eq!(index.status, 200);
    let index = index.text();
    for variant in Variant::ALL {
        assert!(index.contains(&format!("href=\"/rules/{}\"", variant.id())), "{variant:?}");
        let page = get(server.addr, &format!("/rules/{}", variant.id())).await;
        assert_eq!(page.status, 200, "{variant:?}");
        let html = page.text();
        assert!(html.contains(&format!("<h1>{}</h1>", variant.name())), "{variant:?}");
        // The project's own words, as `/rules` gives them in chat, their first line bold.
        assert!(html.contains(&format!("<p><strong>{}</strong>", variant.name())), "{variant:?}");
        let diagrams = host::export::rule_diagrams(variant);
        let srcs = images(&html);
        assert_eq!(srcs.len(), diagrams.len(), "{variant:?}: {srcs:?}");
        for (src, diagram) in srcs.iter().zip(&diagrams) {
            assert_eq!(src, &format!("/rules/{}/{}.png", variant.id(), diagram.name()));
            let png = get(server.addr, src).await;
            assert_eq!(png.status, 200, "{src}");
            assert_eq!(png.header("content-type"), Some("image/png"), "{src}");
            assert_eq!(&png.body[..8], b"\x89PNG\r\n\x1a\n", "{src}");
        }
    }
}

#[tokio::test]
async fn an_unknown_variant_or_diagram_is_the_plain_404() {
    let (_dir, server) = serve().await;
    let missing = get(server.addr, &format!("/g/{}", WebKey::random())).await;
    for path in [
        "/rules/nope",
        "/rules/Golem%20Chess",
        "/rules/GOLEM",
        "/rules/chess/golem.png",
        "/rules/chess/knight",
        "/rules/chess/knight.gif",
        "/rules/nope/knight.png",
        "/rules/%ZZ",
        "/rules/",
    ] {
        let response = get(server.addr, path).await;
        assert_eq!(response.status, 404, "{path}");
        assert_eq!(response.body, missing.body, "{path}");
    }
}
