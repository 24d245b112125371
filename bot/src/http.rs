//! The operator's HTTP endpoint (`CHIMERA_HTTP_ADDR`): `/healthz` and `/metrics`, beside a chat
//! adapter, in its process.
//!
//! - `/healthz`: 200 when the network is connected, the database answers and the outbox holds at
//!   most [`host::OUTBOX_BOUND`] announcements; 503 otherwise. The body has one line per check.
//! - `/metrics`: the host's series ([`host::Metrics`]) as Prometheus text.
//!
//! It serves nothing a chat user can see: no game, no name. Bind it to loopback or a private
//! network; a load balancer's or Prometheus's scrape is all it is for.

use std::net::SocketAddr;

use anyhow::Context as _;
use axum::extract::State;
use axum::http::{header, StatusCode};
use axum::response::IntoResponse;
use axum::routing::get;
use axum::Router;
use host::{Host, Metrics};
use tokio::task::JoinHandle;
use tracing::{info, warn};

/// The endpoint, serving until dropped.
pub struct Endpoint {
    task: JoinHandle<()>,
    /// Where it listens (a port of 0 in the settings is one the system chose).
    pub addr: SocketAddr,
}

impl Drop for Endpoint {
    fn drop(&mut self) {
        self.task.abort();
    }
}

/// Listens on `addr` and serves `host`'s health and metrics. An address that cannot be bound is
/// an error at start, not a warning in the log an operator may never read.
pub async fn start(addr: SocketAddr, host: Host) -> anyhow::Result<Endpoint> {
    let listener = tokio::net::TcpListener::bind(addr)
        .await
        .with_context(|| format!("CHIMERA_HTTP_ADDR={addr}: cannot listen there"))?;
    let addr = listener.local_addr()?;
    let app = Router::new().route("/healthz", get(healthz)).route("/metrics", get(metrics)).with_state(host);
    let task = tokio::spawn(async move {
        if let Err(e) = axum::serve(listener, app).await {
            warn!("the HTTP endpoint stopped: {e}");
        }
    });
    info!(%addr, "serving /healthz and /metrics");
    Ok(Endpoint { task, addr })
}

/// Starts the endpoint when the settings ask for one.
pub async fn start_if(addr: Option<SocketAddr>, host: &Host) -> anyhow::Result<Option<Endpoint>> {
    match addr {
        Some(addr) => Ok(Some(start(addr, host.clone()).await?)),
        None => Ok(None),
    }
}

async fn healthz(State(host): State<Host>) -> impl IntoResponse {
    let health = host.health().await;
    let status = if health.is_healthy() { StatusCode::OK } else { StatusCode::SERVICE_UNAVAILABLE };
    let mut body = health.lines().join("\n");
    body.push('\n');
    (status, [(header::CONTENT_TYPE, "text/plain; charset=utf-8")], body)
}

async fn metrics(State(host): State<Host>) -> impl IntoResponse {
    // The outbox's depth is the database's to tell: ask it now, so the scrape is current.
    let _ = host.health().await;
    ([(header::CONTENT_TYPE, Metrics::CONTENT_TYPE)], host.metrics().encode())
}
