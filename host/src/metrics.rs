//! What an operator watches: counters, gauges and histograms the host and its adapter keep as
//! they work, in Prometheus's types, and the health of the process ([`Health`]).
//!
//! Nothing here does I/O: the adapter's HTTP endpoint encodes [`Metrics`] as Prometheus text
//! (`/metrics`) and answers `/healthz` from [`Host::health`]. Each process serves one network, so
//! every series carries its `network`; a deployment of several processes is summed by Prometheus.

use std::time::Duration;

use prometheus_client::encoding::EncodeLabelSet;
use prometheus_client::metrics::counter::Counter;
use prometheus_client::metrics::family::Family;
use prometheus_client::metrics::gauge::Gauge;
use prometheus_client::metrics::histogram::Histogram;
use prometheus_client::registry::Registry;

use crate::Host;

/// Announcements waiting to be posted above which the process is not healthy: the network
/// refuses its posts, or they cannot keep up.
pub const OUTBOX_BOUND: u64 = 100;

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct Network {
    network: String,
}

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct CommandKind {
    network: String,
    kind: &'static str,
}

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct RefusalReason {
    network: String,
    reason: &'static str,
}

/// Why a command changed nothing, as `/metrics` counts it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RefusalKind {
    /// The user asked for something the rules or the game do not allow.
    Told,
    /// Chimera failed (the database, a stored game it cannot read).
    Broken,
    /// The user sent commands faster than the limit.
    TooFast,
}

impl RefusalKind {
    fn label(self) -> &'static str {
        match self {
            RefusalKind::Told => "told",
            RefusalKind::Broken => "broken",
            RefusalKind::TooFast => "too_fast",
        }
    }
}

/// The process's series, registered once.
pub struct Metrics {
    network: String,
    registry: Registry,
    commands: Family<CommandKind, Counter>,
    refusals: Family<RefusalReason, Counter>,
    answers: Family<Network, Histogram>,
    deferrals: Family<Network, Counter>,
    connected: Family<Network, Gauge>,
    outbox: Gauge,
    engine_queue: Gauge,
}

/// Answer latencies from 5 ms to about 20 s: a move is answered in milliseconds, an analysis in
/// seconds.
fn latency_buckets() -> impl Iterator<Item = f64> {
    prometheus_client::metrics::histogram::exponential_buckets(0.005, 2.0, 13)
}

impl Metrics {
    /// The series of a process serving `network`.
    pub fn new(network: &str) -> Metrics {
        let mut registry = Registry::with_prefix("chimera");
        let commands = Family::<CommandKind, Counter>::default();
        let refusals = Family::<RefusalReason, Counter>::default();
        let answers = Family::<Network, Histogram>::new_with_constructor(
            (|| Histogram::new(latency_buckets())) as fn() -> Histogram,
        );
        let deferrals = Family::<Network, Counter>::default();
        let connected = Family::<Network, Gauge>::default();
        let (outbox, engine_queue) = (Gauge::default(), Gauge::default());
        registry.register("commands", "Commands run, by kind", commands.clone());
        registry.register("refusals", "Commands that changed nothing, by reason", refusals.clone());
        registry.register("answer_seconds", "Time from a command's arrival to its answer being sent", answers.clone());
        registry.register("deferrals", "Commands deferred because the answer took long", deferrals.clone());
        registry.register("connected", "Whether the network's connection is up (1) or not (0)", connected.clone());
        registry.register("outbox_depth", "Announcements waiting to be posted", outbox.clone());
        registry.register("engine_queue", "Searches waiting for an engine thread", engine_queue.clone());
        let network = network.to_string();
        // Each series exists from the start, so a dashboard sees 0 rather than nothing.
        connected.get_or_create(&Network { network: network.clone() }).set(0);
        let _ = deferrals.get_or_create(&Network { network: network.clone() });
        let _ = answers.get_or_create(&Network { network: network.clone() });
        Metrics { network, registry, commands, refusals, answers, deferrals, connected, outbox, engine_queue }
    }

    fn labels(&self) -> Network {
        Network { network: self.network.clone() }
    }

    pub(crate) fn command(&self, kind: &'static str) {
        self.commands.get_or_create(&CommandKind { network: self.network.clone(), kind }).inc();
    }

    pub(crate) fn refused(&self, reason: RefusalKind) {
        self.refusals.get_or_create(&RefusalReason { network: self.network.clone(), reason: reason.label() }).inc();
    }

    pub(crate) fn set_connected(&self, up: bool) {
        self.connected.get_or_create(&self.labels()).set(i64::from(up));
    }

    /// The queue of the engine's threads, which the pool keeps up to date.
    pub(crate) fn engine_queue(&self) -> Gauge {
        self.engine_queue.clone()
    }

    /// A command was answered `took` after it arrived (the adapter measures: the answer is sent
    /// by it).
    pub fn answered(&self, took: Duration) {
        self.answers.get_or_create(&self.labels()).observe(took.as_secs_f64());
    }

    /// A command was deferred: its answer took longer than the network lets an answer wait.
    pub fn deferred(&self) {
        self.deferrals.get_or_create(&self.labels()).inc();
    }

    /// The series as Prometheus text (OpenMetrics); see [`Metrics::CONTENT_TYPE`].
    pub fn encode(&self) -> String {
        let mut text = String::new();
        // Writing into a String cannot fail.
        let _ = prometheus_client::encoding::text::encode(&mut text, &self.registry);
        text
    }

    /// The content type of [`Metrics::encode`]'s text.
    pub const CONTENT_TYPE: &'static str = "application/openmetrics-text; version=1.0.0; charset=utf-8";
}

/// Whether the process does its work: the network connected, the database answering, the
/// announcements going out.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Health {
    pub connected: bool,
    /// `Err` says why the database did not answer.
    pub database: Result<(), String>,
    /// Announcements waiting to be posted (unknown when the database did not answer).
    pub outbox: Option<u64>,
}

impl Health {
    pub fn is_healthy(&self) -> bool {
        self.connected && self.database.is_ok() && self.outbox.is_some_and(|n| n <= OUTBOX_BOUND)
    }

    /// One line per check, each `ok` or what is wrong.
    pub fn lines(&self) -> Vec<String> {
        let connected = if self.connected { "ok" } else { "not connected" };
        let database: String = match &self.database {
            Ok(()) => "ok".into(),
            Err(why) => format!("not reachable: {why}"),
        };
        let outbox = match self.outbox {
            Some(n) if n <= OUTBOX_BOUND => format!("ok ({n} waiting)"),
            Some(n) => format!("{n} announcements waiting, more than {OUTBOX_BOUND}"),
            None => "unknown".into(),
        };
        vec![format!("connection: {connected}"), format!("database: {database}"), format!("outbox: {outbox}")]
    }
}

impl Host {
    /// The process's series (see [`Metrics`]).
    pub fn metrics(&self) -> &Metrics {
        &self.inner.metrics
    }

    /// Asks the database, and brings the gauges that only it knows up to date.
    pub async fn health(&self) -> Health {
        let platform = self.settings().platform.clone();
        let (database, outbox) = match self.store().read(move |tx| tx.posts_waiting(&platform)).await {
            Ok(n) => {
                self.metrics().outbox.set(i64::try_from(n).unwrap_or(i64::MAX));
                (Ok(()), Some(n))
            }
            Err(e) => (Err(e.to_string()), None),
        };
        Health { connected: self.is_serving(), database, outbox }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn health(connected: bool, database: Result<(), String>, outbox: Option<u64>) -> Health {
        Health { connected, database, outbox }
    }

    #[test]
    fn health_fails_on_each_check_alone() {
        assert!(health(true, Ok(()), Some(OUTBOX_BOUND)).is_healthy());
        let broken = [
            health(false, Ok(()), Some(0)),
            health(true, Err("disk I/O error".into()), None),
            health(true, Ok(()), Some(OUTBOX_BOUND + 1)),
        ];
        for health in broken {
            assert!(!health.is_healthy(), "{:?}", health.lines());
        }
        assert_eq!(
            health(false, Err("disk I/O error".into()), None).lines(),
            ["connection: not connected", "database: not reachable: disk I/O error", "outbox: unknown"]
        );
        assert_eq!(health(true, Ok(()), Some(101)).lines()[2], "outbox: 101 announcements waiting, more than 100");
    }

    #[test]
    fn every_series_is_there_from_the_start() {
        let metrics = Metrics::new("console");
        let text = metrics.encode();
        for series in [
            "chimera_connected{network=\"console\"} 0",
            "chimera_deferrals_total{network=\"console\"} 0",
            "chimera_answer_seconds_count{network=\"console\"} 0",
            "chimera_outbox_depth 0",
            "chimera_engine_queue 0",
        ] {
            assert!(text.lines().any(|l| l == series), "{series} in\n{text}");
        }
        metrics.command("move");
        metrics.refused(RefusalKind::TooFast);
        metrics.answered(Duration::from_millis(30));
        let text = metrics.encode();
        assert!(text.contains("chimera_commands_total{network=\"console\",kind=\"move\"} 1"), "{text}");
        assert!(text.contains("chimera_refusals_total{network=\"console\",reason=\"too_fast\"} 1"), "{text}");
        assert!(text.contains("chimera_answer_seconds_bucket{le=\"0.04\",network=\"console\"} 1"), "{text}");
    }
}
