//! What every chat adapter runs the same way: the process around it ([`run`]: its settings, its
//! logs, the async runtime, the stop signal) and the loops beside its connection
//! ([`Background`]: the scheduler and the heartbeat).
//!
//! What it guarantees, whatever the adapter:
//! - Settings are read after `.env` is loaded, and logging is on before anything can fail.
//! - The process exits within the adapter's [`Process::shutdown_grace`] of `serve` returning,
//!   whatever the network or a blocking thread is still doing.
//! - Games end on time, challenges expire and tournaments run on the adapter's tick, and
//!   Chimera's own moves go out as soon as they are made, not at the next tick.
//! - The process says it is alive on a timer of its own, well inside the window in which a
//!   heartbeat means alive, so a long tick never makes a process starting beside it take it for
//!   dead (see the host's `schedule.rs`).
//! - Finished games are searched for puzzles in the background, within the operator's CPU
//!   budget (`CHIMERA_PUZZLE_CPU`).
//! - The loops stop when their [`Background`] is dropped.

use std::future::Future;
use std::path::PathBuf;
use std::pin::Pin;
use std::process::ExitCode;
use std::time::Duration;

use anyhow::Context as _;
use tokio::task::JoinHandle;
use tracing::warn;

use host::{Host, Places};

/// How an adapter's process runs, besides its settings and its `serve`.
pub struct Process {
    /// The log filter when `RUST_LOG` says nothing: its SDK's noise turned down.
    pub log_filter: &'static str,
    /// How long the runtime waits for what is left once `serve` has returned.
    pub shutdown_grace: Duration,
}

/// What stops an adapter: SIGINT or SIGTERM.
pub type Stop = Pin<Box<dyn Future<Output = ()> + Send>>;

/// What `chimera discord` and `chimera matrix` take on the command line.
#[derive(clap::Args, Debug)]
pub struct AdapterArgs {
    /// A settings file to load before the environment (default: `.env`, if there is one).
    #[arg(long, value_name = "FILE")]
    pub env_file: Option<PathBuf>,
}

/// Reads the settings (`settings`, after `.env` is loaded), then serves (`serve`) until SIGINT
/// or SIGTERM.
pub fn run<S, E, F>(
    args: &AdapterArgs,
    process: Process,
    settings: impl FnOnce() -> Result<S, E>,
    serve: impl FnOnce(S, Stop) -> F,
) -> anyhow::Result<ExitCode>
where
    E: std::error::Error + Send + Sync + 'static,
    F: Future<Output = anyhow::Result<()>>,
{
    crate::settings::load_env(args.env_file.as_deref())?;
    crate::settings::init_logging(process.log_filter);
    let settings = settings()?;
    let runtime =
        tokio::runtime::Builder::new_multi_thread().enable_all().build().context("cannot start the async runtime")?;
    let served = runtime.block_on(serve(settings, Box::pin(crate::settings::shutdown_signal())));
    // Whatever a stuck connection or a blocking thread left running is not waited for past this.
    runtime.shutdown_timeout(process.shutdown_grace);
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
        let puzzles = host.clone();
        let tasks = vec![
            tokio::spawn(schedule(host.clone(), places, tick)),
            tokio::spawn(heartbeat(host.clone(), beat)),
            // Within its CPU budget; it returns at once when that is 0.
            tokio::spawn(async move { puzzles.run_puzzle_job().await }),
        ];
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
