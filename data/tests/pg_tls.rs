//! PostgreSQL over TLS, against a server of its own: a second cluster, made and started here with
//! the server binaries of this machine (`initdb`, `pg_ctl`), listening on a free port of
//! 127.0.0.1 with SSL on, a certificate for `localhost` signed by a CA made here (openssl), and
//! `pg_hba.conf` refusing every connection without TLS (so each success below went over TLS).
//!
//! The binaries are found in `CHIMERA_TEST_PG_BIN`, else the newest `/usr/lib/postgresql/*/bin`,
//! else on `PATH`. Without them (or without `openssl`) the test says so on the terminal and
//! passes, except under `CI=true`, where it fails: CI cannot pass without having run it.
//!
//! `initdb` refuses to run as root, and the server refuses to run as root. When the tests run as
//! root (a container), the cluster is made and run as the `postgres` user (`runuser -u
//! postgres`), in a directory handed to that user; as anyone else, as themselves.

use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;

use data::{Location, Store};

/// Where `initdb` and `pg_ctl` are, if anywhere.
fn server_binaries() -> Option<PathBuf> {
    if let Some(dir) = std::env::var_os("CHIMERA_TEST_PG_BIN") {
        return Some(PathBuf::from(dir));
    }
    let mut versions: Vec<(u32, PathBuf)> = std::fs::read_dir("/usr/lib/postgresql")
        .into_iter()
        .flatten()
        .flatten()
        .filter_map(|entry| Some((entry.file_name().to_str()?.parse().ok()?, entry.path().join("bin"))))
        .filter(|(_, bin)| bin.join("initdb").is_file() && bin.join("pg_ctl").is_file())
        .collect();
    versions.sort();
    if let Some((_, bin)) = versions.pop() {
        return Some(bin);
    }
    let on_path = Command::new("initdb").arg("--version").output().is_ok_and(|o| o.status.success());
    on_path.then(PathBuf::new)
}

fn openssl_present() -> bool {
    Command::new("openssl").arg("version").output().is_ok_and(|o| o.status.success())
}

fn running_as_root() -> bool {
    Command::new("id").arg("-u").output().is_ok_and(|o| String::from_utf8_lossy(&o.stdout).trim() == "0")
}

/// Runs `command`, panicking with its output if it fails.
fn run(mut command: Command, what: &str) {
    let output = command.output().unwrap_or_else(|e| panic!("{what}: cannot run {command:?}: {e}"));
    assert!(
        output.status.success(),
        "{what} failed ({}):\n{}\n{}",
        output.status,
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
}

/// A CA, a second CA that signed nothing the server has, and the server's key and certificate
/// (for `localhost` only: not for `127.0.0.1`).
fn make_certificates(dir: &Path) {
    let openssl = |args: &[&str]| {
        let mut command = Command::new("openssl");
        command.current_dir(dir).args(args);
        command
    };
    let ec = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"];
    for (name, subject) in [("ca", "/CN=Chimera test CA"), ("wrong-ca", "/CN=Some other CA")] {
        let (key, crt) = (format!("{name}.key"), format!("{name}.crt"));
        let mut args = vec!["req", "-x509"];
        args.extend(ec);
        args.extend(["-keyout", &key, "-out", &crt, "-days", "2", "-subj", subject]);
        args.extend([
            "-addext",
            "basicConstraints=critical,CA:TRUE",
            "-addext",
            "keyUsage=critical,keyCertSign,cRLSign",
        ]);
        run(openssl(&args), "making a CA");
    }
    let mut args = vec!["req", "-new"];
    args.extend(ec);
    args.extend(["-keyout", "server.key", "-out", "server.csr", "-subj", "/CN=localhost"]);
    run(openssl(&args), "making the server's key");
    std::fs::write(
        dir.join("server.ext"),
        "subjectAltName=DNS:localhost\nbasicConstraints=CA:FALSE\nkeyUsage=critical,digitalSignature\nextendedKeyUsage=serverAuth\n",
    )
    .unwrap();
    run(
        openssl(&[
            "x509",
            "-req",
            "-in",
            "server.csr",
            "-CA",
            "ca.crt",
            "-CAkey",
            "ca.key",
            "-CAcreateserial",
            "-out",
            "server.crt",
            "-days",
            "2",
            "-extfile",
            "server.ext",
        ]),
        "signing the server's certificate",
    );
}

/// A PostgreSQL cluster with SSL on, stopped when dropped.
struct Cluster {
    dir: tempfile::TempDir,
    bin: PathBuf,
    root: bool,
    port: u16,
}

impl Cluster {
    fn start(bin: PathBuf) -> Cluster {
        let root = running_as_root();
        let dir = tempfile::tempdir().unwrap();
        make_certificates(dir.path());
        // Any free port: asked of the kernel, then given to the server.
        let port = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
        let cluster = Cluster { dir, bin, root, port };
        if root {
            let mut chown = Command::new("chown");
            chown.args(["-R", "postgres:postgres"]).arg(cluster.dir.path());
            run(chown, "handing the directory to the postgres user");
        }
        let data = cluster.data();
        let mut initdb = cluster.as_server_user("initdb");
        initdb.arg("-D").arg(&data).args(["-U", "postgres", "--auth=trust", "--no-sync", "-E", "UTF8"]);
        run(initdb, "initdb");
        let key = cluster.dir.path().join("server.key");
        let mut conf = std::fs::OpenOptions::new().append(true).open(data.join("postgresql.conf")).unwrap();
        writeln!(
            conf,
            "port = {port}\nlisten_addresses = '127.0.0.1'\nunix_socket_directories = '{dir}'\nssl = on\n\
             ssl_cert_file = '{dir}/server.crt'\nssl_key_file = '{key}'\nfsync = off",
            dir = cluster.dir.path().display(),
            key = key.display(),
        )
        .unwrap();
        // Every TCP connection must be TLS: the plaintext ones are refused.
        std::fs::write(
            data.join("pg_hba.conf"),
            "local all all trust\nhostssl all all 127.0.0.1/32 trust\nhostnossl all all 127.0.0.1/32 reject\n",
        )
        .unwrap();
        // The server refuses a key that others can read.
        let mut chmod = Command::new("chmod");
        chmod.arg("600").arg(&key);
        run(chmod, "closing the server's key");
        let mut start = cluster.as_server_user("pg_ctl");
        start
            .arg("-D")
            .arg(&data)
            .arg("-l")
            .arg(cluster.dir.path().join("server.log"))
            .args(["-w", "-t", "60", "start"]);
        if let Err(e) = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| run(start, "pg_ctl start"))) {
            let log = std::fs::read_to_string(cluster.dir.path().join("server.log")).unwrap_or_default();
            eprintln!("server log:\n{log}");
            std::panic::resume_unwind(e);
        }
        cluster
    }

    fn data(&self) -> PathBuf {
        self.dir.path().join("data")
    }

    /// `tool` of the server binaries, run as the user the server runs as.
    fn as_server_user(&self, tool: &str) -> Command {
        let program = if self.bin.as_os_str().is_empty() { PathBuf::from(tool) } else { self.bin.join(tool) };
        if self.root {
            let mut command = Command::new("runuser");
            command.args(["-u", "postgres", "--"]).arg(program);
            command
        } else {
            Command::new(program)
        }
    }

    /// The URL of the cluster's `postgres` database by `host` (at 127.0.0.1 whatever the name),
    /// with `options` appended.
    fn url(&self, host: &str, options: &str) -> Location {
        let separator = if options.is_empty() { "" } else { "&" };
        Location::parse(&format!(
            "postgres://postgres@{host}:{}/postgres?hostaddr=127.0.0.1{separator}{options}",
            self.port
        ))
        .unwrap()
    }

    fn file(&self, name: &str) -> String {
        self.dir.path().join(name).display().to_string()
    }
}

impl Drop for Cluster {
    fn drop(&mut self) {
        let mut stop = self.as_server_user("pg_ctl");
        stop.arg("-D").arg(self.data()).args(["-m", "immediate", "-w", "stop"]);
        let _ = stop.output();
    }
}

/// Opens the store at `location` and writes and reads through it.
fn works(location: &Location) -> Result<(), String> {
    let mut store = Store::open(location).map_err(|e| e.to_string())?;
    let id = store.write(|tx| tx.upsert_player("tls", "someone", "Someone", 0)).map_err(|e| e.to_string())?.id;
    let player = store.read(|tx| tx.player(id)).map_err(|e| e.to_string())?;
    assert_eq!(player.display_name, "Someone");
    Ok(())
}

#[test]
fn sslmode_and_sslrootcert_are_honoured_against_a_server_with_tls() {
    let (Some(bin), true) = (server_binaries(), openssl_present()) else {
        if std::env::var("CI").is_ok_and(|ci| ci == "true") {
            panic!("no PostgreSQL server binaries (initdb, pg_ctl) or no openssl, and CI=true requires this test to run; set CHIMERA_TEST_PG_BIN");
        }
        let _ = writeln!(
            std::io::stderr(),
            "PostgreSQL TLS test skipped: no server binaries (initdb, pg_ctl; set CHIMERA_TEST_PG_BIN) or no openssl"
        );
        return;
    };
    let cluster = Cluster::start(bin);
    let (ca, wrong) = (cluster.file("ca.crt"), cluster.file("wrong-ca.crt"));

    // verify-full with the CA that signed the server's certificate, by the name in it.
    let full = cluster.url("localhost", &format!("sslmode=verify-full&sslrootcert={ca}"));
    works(&full).unwrap();

    // verify-full with another CA: refused, saying why.
    let error = works(&cluster.url("localhost", &format!("sslmode=verify-full&sslrootcert={wrong}"))).unwrap_err();
    assert!(error.contains("not signed by a CA in sslrootcert=") && error.contains("wrong-ca.crt"), "{error}");
    assert!(error.contains("verify-full"), "{error}");

    // verify-full by a name the certificate is not for: refused, saying why; verify-ca, which
    // checks the CA and not the name, connects.
    let error = works(&cluster.url("127.0.0.1", &format!("sslmode=verify-full&sslrootcert={ca}"))).unwrap_err();
    assert!(error.contains("not for the host \"127.0.0.1\""), "{error}");
    works(&cluster.url("127.0.0.1", &format!("sslmode=verify-ca&sslrootcert={ca}"))).unwrap();
    let error = works(&cluster.url("127.0.0.1", &format!("sslmode=verify-ca&sslrootcert={wrong}"))).unwrap_err();
    assert!(error.contains("not signed by a CA"), "{error}");

    // require encrypts without checking; with a CA it checks the chain, as libpq's does.
    works(&cluster.url("localhost", "sslmode=require")).unwrap();
    let error = works(&cluster.url("localhost", &format!("sslmode=require&sslrootcert={wrong}"))).unwrap_err();
    assert!(error.contains("not signed by a CA"), "{error}");

    // prefer (the default) takes the TLS the server offers.
    works(&cluster.url("localhost", "")).unwrap();
    works(&cluster.url("localhost", "sslmode=prefer")).unwrap();

    // disable goes without, and this server refuses that: the successes above were over TLS.
    let error = works(&cluster.url("localhost", "sslmode=disable")).unwrap_err();
    assert!(error.contains("no encryption"), "{error}");

    // The async store's pool connects the same way.
    let runtime = tokio::runtime::Builder::new_multi_thread().worker_threads(1).enable_all().build().unwrap();
    runtime.block_on(async {
        let store = data::AsyncStore::open(&full).await.unwrap();
        let found = store.read(|tx| tx.find_player("tls", "someone")).await.unwrap();
        assert!(found.is_some());
    });
}
