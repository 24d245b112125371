//! The headers every response carries, whatever route (or none) answered it.

use axum::http::{header, HeaderValue};
use axum::response::Response;

/// Only this server's own scripts, styles and images (and `data:` images); nothing inline, no
/// plugins, no frames of us elsewhere, no forms, no `<base>`.
pub const CONTENT_SECURITY_POLICY: &str = "default-src 'none'; script-src 'self'; style-src 'self'; \
img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

/// Adds the security headers to `response`.
pub async fn secure(mut response: Response) -> Response {
    let headers = response.headers_mut();
    headers.insert(header::CONTENT_SECURITY_POLICY, HeaderValue::from_static(CONTENT_SECURITY_POLICY));
    headers.insert(header::X_CONTENT_TYPE_OPTIONS, HeaderValue::from_static("nosniff"));
    // A page's address is its capability: it must never reach another site as a Referer.
    headers.insert(header::REFERRER_POLICY, HeaderValue::from_static("no-referrer"));
    response
}
