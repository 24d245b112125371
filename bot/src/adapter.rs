//! What every chat adapter runs the same way: the process around it ([`run`]: its settings, its
//! logs, the async runtime, the stop signal) and the loops beside its connection
//! ([`Background`]: the scheduler and the heartbeat).
//!
//! What it guarantees, whatever the adapter:
//! - Settings are read after `.env` is loaded, and logging is on before anything can fail.
//! - The process exits within the adapter's [`Adapter::SHUTDOWN_GRACE`] of `serve` returning,
//!   whatever the network or a blocking thread is still doing.
//! - Games end on time, challenges expire and tournaments run on the adapter's tick, and
//!   Chimera's own moves go out as soon as they are made, not at the next tick.
//! - The process says it is alive on a timer of its own, well inside the window in which a
//!   heartbeat means alive, so a long tick never makes a process starting beside it take it for
//!   dead (see the host's `schedule.rs`).
//! - The loops stop when their [`Background`] is dropped.

use std::future::Future;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Duration;

use anyhow::Context as _;
use tokio::task::JoinHandle;
use tracing::warn;

use host::{Host, Places};

/// A chat adapter as the shared start-up runs it.
pub trait Adapter {
    /// What it reads from the environment (and `.env`).
    type Settings;
    /// Its log filter when `RUST_LOG` says nothing: its SDK's noise turned down.
    const LOG_FILTER: &'static str;
    /// How long the runtime waits for what is left once `serve` has returned.
    const SHUTDOWN_GRACE: Duration;

    fn settings() -> anyhow::Result<Self::Settings>;

    /// Serves until `stop` completes, then winds down.
    fn serve(
        settings: Self::Settings,
        stop: impl Future<Output = ()> + Send + 'static,
    ) -> impl Future<Output = anyhow::Result<()>>;
}

/// What `chimera discord` and `chimera matrix` take on the command line.
#[derive(clap::Args, Debug)]
pub struct AdapterArgs {
    /// A settings file to load before the environment (default: `.env`, if there is one).
    #[arg(long, value_name = "FILE")]
    pub env_file: Option<PathBuf>,
}

/// Reads the settings, then serves until SIGINT or SIGTERM.
pub fn run<A: Adapter>(env_file: Option<&Path>) -> anyhow::Result<ExitCode> {
    crate::settings::load_env(env_file)?;
    crate::settings::init_logging(A::LOG_FILTER);
    let settings = A::settings()?;
    let runtime =
        tokio::runtime::Builder::new_multi_thread().enable_all().build().context("cannot start the async runtime")?;
    let served = runtime.block_on(A::serve(settings, crate::settings::shutdown_signal()));
    // Whatever a stuck connection or a blocking thread left running is not waited for past this.
    runtime.shutdown_timeout(A::SHUTDOWN_GRACE);
    served?;
    Ok(ExitCode::SUCCESS)
}

/// The scheduler and the heartbeat of one adapter's host, running until dropped.
pub struct Background {
    tasks: Vec<JoinHandle<()>>,
}

impl Background {
    /// Starts the loops: the host's tick every `tick`, and what the host announces posted
    /// through `places`.
    pub fn start(host: &Host, places: impl Places + 'static, tick: Duration) -> Background {
        // Well inside the window in which a heartbeat means "alive", whatever the tick.
        let beat = tick.min(Duration::from_millis(host::ALIVE_WINDOW_MS as u64 / 4));
        let tasks =
            vec![tokio::spawn(schedule(host.clone(), places, tick)), tokio::spawn(heartbeat(host.clone(), beat))];
        Background { tasks }
    }
}

impl Drop for Background {
    fn drop(&mut self) {
        for task in &self.tasks {
            task.abort();
        }
    }
}

/// Runs `work` every `period`, a late tick delaying the next rather than bunching them.
pub async fn every<F: Future<Output = ()>>(period: Duration, mut work: impl FnMut() -> F) {
    let mut interval = tokio::time::interval(period);
    interval.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        interval.tick().await;
        work().await;
    }
}

/// Ends games on time, expires challenges, runs tournaments; Chimera's moves in games against
/// it go out as soon as they are made.
async fn schedule(host: Host, places: impl Places, every: Duration) {
    let mut interval = tokio::time::interval(every);
    interval.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        tokio::select! {
            _ = interval.tick() => host.tick(&places).await,
            _ = host.posts_waiting() => host.deliver(&places).await,
        };
    }
}

/// Says this process is alive on a timer of its own, so that a long tick (a tournament round
/// opening many threads) does not hold it up.
async fn heartbeat(host: Host, beat: Duration) {
    every(beat, || async {
        if let Err(e) = host.heartbeat().await {
            warn!("{e}");
        }
    })
    .await
}
