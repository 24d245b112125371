//! The bot processes under test: started, sampled for memory, killed with SIGKILL at random
//! moments and started again on the same database (and Matrix store), stopped with SIGTERM at
//! the end. Each process's lives are kept for the report.

use std::collections::HashMap;
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// One life of a bot process: from a start to its kill or stop.
pub struct Life {
    pub started: Instant,
    pub lasted: Duration,
    /// Resident memory (KiB) by seconds since the start.
    pub samples: Vec<(f64, u64)>,
    /// The kernel's high-water mark of resident memory (KiB), read last before the end.
    pub peak_kb: u64,
    /// How it ended: `SIGKILL`, `SIGTERM`, or an exit of its own.
    pub ended: String,
}

impl Life {
    /// The median resident memory (MiB) after the first ten seconds of the life: its steady
    /// state once the start-up (catching up on games, loading fonts) is over.
    pub fn steady_mb(&self) -> Option<f64> {
        let mut later: Vec<u64> = self.samples.iter().filter(|(t, _)| *t >= 10.0).map(|(_, kb)| *kb).collect();
        if later.len() < 3 {
            return None;
        }
        later.sort_unstable();
        Some(later[later.len() / 2] as f64 / 1024.0)
    }
}

/// A bot process and its lives.
pub struct Supervised {
    pub name: &'static str,
    program: PathBuf,
    args: Vec<String>,
    env: HashMap<String, String>,
    logs: PathBuf,
    child: Option<Child>,
    pub lives: Vec<Life>,
    /// Exits the harness did not cause (a panic, an error at start-up).
    pub own_exits: Vec<String>,
}

impl Supervised {
    pub fn new(name: &'static str, args: &[&str], env: HashMap<String, String>, logs: PathBuf) -> Supervised {
        Supervised {
            name,
            program: PathBuf::from(env!("CARGO_BIN_EXE_chimera")),
            args: args.iter().map(|a| a.to_string()).collect(),
            env,
            logs,
            child: None,
            lives: Vec::new(),
            own_exits: Vec::new(),
        }
    }

    pub fn start(&mut self) {
        assert!(self.child.is_none(), "{} runs already", self.name);
        let life = self.lives.len() + 1;
        let log = std::fs::File::create(self.logs.join(format!("{}-{life}.log", self.name))).expect("a log file");
        let child = Command::new(&self.program)
            .args(&self.args)
            .envs(&self.env)
            .stdin(Stdio::null())
            .stdout(log.try_clone().expect("a log file"))
            .stderr(log)
            .spawn()
            .expect("the chimera binary starts");
        self.child = Some(child);
        self.lives.push(Life {
            started: Instant::now(),
            lasted: Duration::ZERO,
            samples: Vec::new(),
            peak_kb: 0,
            ended: String::new(),
        });
    }

    /// Records the resident memory now; notices a process that ended by itself.
    pub fn sample(&mut self) {
        let Some(child) = self.child.as_mut() else { return };
        if let Ok(Some(status)) = child.try_wait() {
            let n = self.lives.len();
            let life = self.lives.last_mut().expect("a life");
            life.lasted = life.started.elapsed();
            life.ended = format!("exited by itself: {status}");
            let lasted = life.lasted.as_secs_f64();
            let log = std::fs::read_to_string(self.logs.join(format!("{}-{n}.log", self.name))).unwrap_or_default();
            let mut tail: Vec<&str> = log.lines().rev().take(6).collect();
            tail.reverse();
            self.own_exits.push(format!(
                "{} life {n}: {status} after {lasted:.0} s; its log ends: {}",
                self.name,
                tail.join(" / ")
            ));
            self.child = None;
            return;
        }
        let (rss, peak) = memory_kb(child.id());
        let life = self.lives.last_mut().expect("a life");
        if rss > 0 {
            life.samples.push((life.started.elapsed().as_secs_f64(), rss));
        }
        life.peak_kb = life.peak_kb.max(peak);
    }

    /// Whether the process is running (it may have ended by itself since the last sample).
    pub fn running(&self) -> bool {
        self.child.is_some()
    }

    /// SIGKILL, as a host that dies does it.
    pub fn kill(&mut self) {
        self.sample();
        let Some(mut child) = self.child.take() else { return };
        let _ = child.kill();
        let _ = child.wait();
        let life = self.lives.last_mut().expect("a life");
        life.lasted = life.started.elapsed();
        life.ended = "SIGKILL".into();
    }

    /// SIGTERM, and a wait for the bot to finish what it has; SIGKILL after `patience`.
    pub fn terminate(&mut self, patience: Duration) {
        self.sample();
        let Some(mut child) = self.child.take() else { return };
        // SAFETY: kill(2) on the pid of a child this harness started and has not reaped.
        unsafe {
            libc::kill(child.id() as libc::pid_t, libc::SIGTERM);
        }
        let deadline = Instant::now() + patience;
        let ended = loop {
            match child.try_wait() {
                Ok(Some(status)) if status.success() => break "SIGTERM".to_string(),
                Ok(Some(status)) => {
                    self.own_exits.push(format!("{} did not stop cleanly on SIGTERM: {status}", self.name));
                    break format!("SIGTERM, then {status}");
                }
                _ if Instant::now() > deadline => {
                    self.own_exits.push(format!("{} did not stop within {patience:?} of SIGTERM", self.name));
                    let _ = child.kill();
                    let _ = child.wait();
                    break "SIGTERM, then SIGKILL".to_string();
                }
                _ => std::thread::sleep(Duration::from_millis(100)),
            }
        };
        let life = self.lives.last_mut().expect("a life");
        life.lasted = life.started.elapsed();
        life.ended = ended;
    }
}

impl Drop for Supervised {
    fn drop(&mut self) {
        if let Some(mut child) = self.child.take() {
            let _ = child.kill();
            let _ = child.wait();
        }
    }
}

/// Resident memory now and its high-water mark, in KiB (Linux `/proc`); zeros when unreadable.
pub fn memory_kb(pid: u32) -> (u64, u64) {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
    let field = |name: &str| {
        status
            .lines()
            .find(|l| l.starts_with(name))
            .and_then(|l| l.split_whitespace().nth(1))
            .and_then(|kb| kb.parse::<u64>().ok())
            .unwrap_or(0)
    };
    (field("VmRSS:"), field("VmHWM:"))
}
