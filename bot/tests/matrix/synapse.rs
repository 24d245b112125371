//! A real Synapse on 127.0.0.1 for the whole test binary: `matrix-synapse` from PyPI at a pinned
//! version, installed on first use into a virtualenv under `target/`, with a fresh SQLite
//! database and rate limits lifted (the test players are fast). Users are registered through the
//! shared-secret admin API (Synapse's `register_new_matrix_user`). Nothing is skipped: without
//! Python 3 or PyPI the tests fail and say why.

#![allow(dead_code)] // the tests and the load bench each use part of it

use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

/// The Synapse the tests run against; bump with care (the venv is rebuilt when it differs).
pub const SYNAPSE_VERSION: &str = "1.163.2";
const SHARED_SECRET: &str = "chimera-tests-shared-secret";

pub struct Synapse {
    pub url: String,
    /// Synapse's process, for what it costs (the load bench reads /proc).
    pub pid: u32,
    config: PathBuf,
    venv: PathBuf,
    pub dir: PathBuf,
}

static SYNAPSE: OnceLock<Synapse> = OnceLock::new();

/// The one Synapse of this test binary, started on first use.
pub fn synapse() -> &'static Synapse {
    SYNAPSE.get_or_init(start)
}

fn target_dir() -> PathBuf {
    match std::env::var_os("CARGO_TARGET_DIR") {
        Some(dir) => PathBuf::from(dir),
        None => Path::new(env!("CARGO_MANIFEST_DIR")).join("../target"),
    }
}

/// The virtualenv with the pinned Synapse, made on first use.
fn venv() -> PathBuf {
    let root = target_dir().join("synapse");
    let venv = root.join("venv");
    let python = venv.join("bin/python");
    // Synapse may add build details after its version (`1.163.2 (b=...)`).
    let check = format!("import synapse, sys; sys.exit(not synapse.__version__.startswith('{SYNAPSE_VERSION}'))");
    if Command::new(&python).args(["-c", &check]).status().is_ok_and(|s| s.success()) {
        return venv;
    }
    std::fs::create_dir_all(&root).expect("cannot create target/synapse");
    // Another test binary may be installing at the same time: one takes the lock file.
    let lock = root.join("install.lock");
    let started = Instant::now();
    while std::fs::OpenOptions::new().write(true).create_new(true).open(&lock).is_err() {
        assert!(started.elapsed() < Duration::from_secs(900), "{} stayed locked for 15 minutes", lock.display());
        std::thread::sleep(Duration::from_secs(2));
        if Command::new(&python).args(["-c", &check]).status().is_ok_and(|s| s.success()) {
            return venv;
        }
    }
    eprintln!("installing matrix-synapse {SYNAPSE_VERSION} into {} (first run only)", venv.display());
    let made = Command::new("python3").args(["-m", "venv"]).arg(&venv).status();
    let installed = made.is_ok_and(|s| s.success())
        && Command::new(venv.join("bin/pip"))
            .args(["install", "--quiet", &format!("matrix-synapse=={SYNAPSE_VERSION}")])
            .status()
            .is_ok_and(|s| s.success());
    let _ = std::fs::remove_file(&lock);
    assert!(
        installed,
        "cannot install matrix-synapse {SYNAPSE_VERSION}: these tests need python3 (with venv) and PyPI"
    );
    venv
}

fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0").and_then(|l| l.local_addr()).map(|a| a.port()).expect("a free port")
}

fn start() -> Synapse {
    let venv = venv();
    let dir = std::env::temp_dir().join(format!("chimera-synapse-{}-{}", std::process::id(), free_port()));
    std::fs::create_dir_all(&dir).expect("a directory for Synapse");
    let port = free_port();
    let config = dir.join("homeserver.yaml");
    let d = dir.display();
    // Rate limits far above what the tests send, so nothing waits on them.
    let fast = "{per_second: 10000, burst_count: 10000}";
    std::fs::write(
        &config,
        format!(
            "server_name: localhost
pid_file: {d}/homeserver.pid
public_baseurl: http://127.0.0.1:{port}/
listeners:
  - port: {port}
    bind_addresses: ['127.0.0.1']
    type: http
    tls: false
    x_forwarded: false
    resources:
      - names: [client]
        compress: false
database:
  name: sqlite3
  args:
    database: {d}/homeserver.db
media_store_path: {d}/media
signing_key_path: {d}/signing.key
registration_shared_secret: {SHARED_SECRET}
macaroon_secret_key: chimera-tests-macaroon
form_secret: chimera-tests-form
report_stats: false
bcrypt_rounds: 4
enable_metrics: false
trusted_key_servers: []
suppress_key_server_warning: true
presence:
  enabled: false
url_preview_enabled: false
rc_message: {fast}
rc_registration: {fast}
rc_login:
  address: {fast}
  account: {fast}
  failed_attempts: {fast}
rc_joins:
  local: {fast}
  remote: {fast}
rc_joins_per_room: {fast}
rc_invites:
  per_room: {fast}
  per_user: {fast}
  per_issuer: {fast}
rc_media_create: {fast}
rc_room_creation: {fast}
rc_key_requests: {fast}
rc_3pid_validation: {fast}
rc_admin_redaction: {fast}
rc_delayed_event_mgmt: {fast}
rc_reports: {fast}
"
        ),
    )
    .expect("writing Synapse's config");
    let python = venv.join("bin/python");
    let keys = Command::new(&python)
        .args(["-m", "synapse.app.homeserver", "--config-path"])
        .arg(&config)
        .arg("--generate-keys")
        .output()
        .expect("running Synapse");
    assert!(keys.status.success(), "Synapse cannot make its keys: {}", String::from_utf8_lossy(&keys.stderr));
    let log = std::fs::File::create(dir.join("synapse.log")).expect("Synapse's log");
    let (config_path, log_err) = (config.clone(), log.try_clone().expect("the log twice"));
    // Started from a thread that lives as long as the test binary: Synapse is told to die with
    // that thread (PR_SET_PDEATHSIG), so no server outlives the tests, whatever way they end.
    let (started_tx, started_rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        use std::os::unix::process::CommandExt;
        let mut command = Command::new(python);
        command
            .args(["-m", "synapse.app.homeserver", "--config-path"])
            .arg(&config_path)
            .stdin(Stdio::null())
            .stdout(log)
            .stderr(log_err);
        // SAFETY: prctl is async-signal-safe and touches nothing of the parent's.
        unsafe {
            command.pre_exec(|| {
                libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL);
                Ok(())
            });
        }
        let child = command.spawn();
        let ok = child.is_ok();
        let _ = started_tx.send(child.map(|c| c.id()).map_err(|e| e.to_string()));
        if ok {
            loop {
                std::thread::park();
            }
        }
    });
    let pid = started_rx.recv().expect("the starter thread").expect("Synapse starts");
    let url = format!("http://127.0.0.1:{port}");
    let deadline = Instant::now() + Duration::from_secs(120);
    while !answers(port) {
        if Instant::now() > deadline {
            let log = std::fs::read_to_string(dir.join("synapse.log")).unwrap_or_default();
            panic!("Synapse did not answer on {url} within 2 minutes; its log ends:\n{}", tail(&log, 40));
        }
        std::thread::sleep(Duration::from_millis(200));
    }
    Synapse { url, pid, config, venv, dir }
}

/// Whether Synapse answers `/_matrix/client/versions`.
fn answers(port: u16) -> bool {
    let Ok(mut stream) = TcpStream::connect(("127.0.0.1", port)) else { return false };
    let _ = stream.set_read_timeout(Some(Duration::from_secs(2)));
    let request = "GET /_matrix/client/versions HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n";
    let mut response = String::new();
    stream.write_all(request.as_bytes()).is_ok()
        && stream.read_to_string(&mut response).is_ok()
        && response.starts_with("HTTP/1.0 200")
}

fn tail(text: &str, lines: usize) -> String {
    let all: Vec<&str> = text.lines().collect();
    all[all.len().saturating_sub(lines)..].join("\n")
}

impl Synapse {
    /// Registers `name` with `password` through the shared-secret admin API.
    pub fn register(&self, name: &str, password: &str) {
        let out = Command::new(self.venv.join("bin/register_new_matrix_user"))
            .args(["-u", name, "-p", password, "--no-admin", "-c"])
            .arg(&self.config)
            .arg(&self.url)
            .output()
            .expect("running register_new_matrix_user");
        assert!(
            out.status.success(),
            "cannot register {name}: {}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
    }

    /// The last lines of Synapse's log, for a failing test's message.
    pub fn log_tail(&self) -> String {
        tail(&std::fs::read_to_string(self.dir.join("synapse.log")).unwrap_or_default(), 30)
    }
}
