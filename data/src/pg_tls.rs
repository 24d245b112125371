//! TLS to PostgreSQL, as libpq's `sslmode` and `sslrootcert` ask, over rustls.
//!
//! The URL's `sslmode` chooses (libpq's meanings):
//!
//! | `sslmode`          | encrypted                    | the server's certificate            |
//! |--------------------|------------------------------|-------------------------------------|
//! | `disable`          | never                        | -                                   |
//! | `prefer` (default) | if the server offers TLS     | not checked                         |
//! | `require`          | always                       | not checked; with `sslrootcert`, as `verify-ca` |
//! | `verify-ca`        | always                       | signed by a trusted CA              |
//! | `verify-full`      | always                       | signed by a trusted CA, for the host named in the URL |
//!
//! The trusted CAs are those of the PEM file `sslrootcert` names, or, with `sslrootcert=system`
//! or no `sslrootcert`, the system's. A connection that cannot be made as asked fails, with
//! the reason in words (a certificate from an unknown CA, one for another host), and never falls
//! back to less: only `prefer` goes without TLS, and only when the server has none.
//!
//! The postgres crate reads neither `verify-ca`, `verify-full` nor `sslrootcert`, so they are
//! taken out of the URL here before it reads the rest.

use std::fmt;
use std::future::Future;
use std::io;
use std::path::PathBuf;
use std::pin::Pin;
use std::str::FromStr;
use std::sync::Arc;
use std::task::{Context, Poll};

use postgres::config::SslMode as WireMode;
use postgres::tls::{ChannelBinding, MakeTlsConnect, TlsConnect, TlsStream};
use postgres::{Config, Socket};
use rustls::client::danger::{HandshakeSignatureValid, ServerCertVerified, ServerCertVerifier};
use rustls::client::WebPkiServerVerifier;
use rustls::crypto::{verify_tls12_signature, verify_tls13_signature, CryptoProvider};
use rustls::pki_types::pem::PemObject;
use rustls::pki_types::{CertificateDer, ServerName, UnixTime};
use rustls::{CertificateError, ClientConfig, DigitallySignedStruct, RootCertStore, SignatureScheme};
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};

/// libpq's `sslmode`.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum SslMode {
    Disable,
    Prefer,
    Require,
    VerifyCa,
    VerifyFull,
}

impl SslMode {
    pub fn as_str(self) -> &'static str {
        match self {
            SslMode::Disable => "disable",
            SslMode::Prefer => "prefer",
            SslMode::Require => "require",
            SslMode::VerifyCa => "verify-ca",
            SslMode::VerifyFull => "verify-full",
        }
    }
}

impl FromStr for SslMode {
    type Err = TlsSetupError;

    fn from_str(text: &str) -> Result<SslMode, TlsSetupError> {
        Ok(match text {
            "disable" => SslMode::Disable,
            "prefer" => SslMode::Prefer,
            "require" => SslMode::Require,
            "verify-ca" => SslMode::VerifyCa,
            "verify-full" => SslMode::VerifyFull,
            // libpq's `allow` tries without TLS first: nothing a deployment should choose.
            _ => return Err(TlsSetupError::UnknownMode(text.to_owned())),
        })
    }
}

/// TLS settings that cannot be used.
#[derive(Debug, thiserror::Error)]
pub enum TlsSetupError {
    #[error("sslmode={0:?} is not one of disable, prefer, require, verify-ca, verify-full")]
    UnknownMode(String),
    #[error("sslrootcert={path:?} cannot be read as PEM certificates: {why}")]
    RootCert { path: PathBuf, why: String },
    #[error("sslrootcert={path:?} holds no certificate")]
    NoRootCert { path: PathBuf },
    #[error("the system's trusted certificates cannot be read ({0}); name a CA file with sslrootcert=")]
    NoSystemRoots(String),
    #[error("cannot set up TLS: {0}")]
    Rustls(String),
}

/// A parsed URL and how to reach it.
#[derive(Clone)]
pub(crate) struct Target {
    pub(crate) config: Config,
    pub(crate) tls: Option<MakeRustls>,
}

/// Reads `url`: `sslmode` and `sslrootcert` here, the rest by the postgres crate.
pub(crate) fn target(url: &str) -> crate::Result<Target> {
    let (url, mode, root) = take_tls_options(url)?;
    let mode = mode.as_deref().map(SslMode::from_str).transpose()?.unwrap_or(SslMode::Prefer);
    let mut config = Config::from_str(&url)?;
    let wire = match mode {
        SslMode::Disable => WireMode::Disable,
        SslMode::Prefer => WireMode::Prefer,
        _ => WireMode::Require,
    };
    config.ssl_mode(wire);
    let tls = match mode {
        SslMode::Disable => None,
        mode => Some(MakeRustls::new(mode, root)?),
    };
    Ok(Target { config, tls })
}

/// The URL without `sslmode` and `sslrootcert`, and their (percent-decoded) values.
fn take_tls_options(url: &str) -> Result<(String, Option<String>, Option<String>), TlsSetupError> {
    let Some((base, query)) = url.split_once('?') else { return Ok((url.to_owned(), None, None)) };
    let (mut mode, mut root, mut kept) = (None, None, Vec::new());
    for pair in query.split('&') {
        match pair.split_once('=') {
            Some(("sslmode", value)) => mode = Some(percent_decoded(value)),
            Some(("sslrootcert", value)) => root = Some(percent_decoded(value)),
            _ => kept.push(pair),
        }
    }
    let url = if kept.is_empty() { base.to_owned() } else { format!("{base}?{}", kept.join("&")) };
    Ok((url, mode, root))
}

fn percent_decoded(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let hex = |b: u8| (b as char).to_digit(16);
        match (bytes[i], bytes.get(i + 1).copied().and_then(hex), bytes.get(i + 2).copied().and_then(hex)) {
            (b'%', Some(high), Some(low)) => {
                out.push((high * 16 + low) as u8);
                i += 3;
            }
            (b, _, _) => {
                out.push(b);
                i += 1;
            }
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// What a failed handshake is explained with.
#[derive(Debug)]
struct Asked {
    mode: SslMode,
    /// Where the trusted CAs came from, as the operator named it.
    roots: String,
}

/// Makes a rustls connection for each PostgreSQL connection.
#[derive(Clone)]
pub(crate) struct MakeRustls {
    config: Arc<ClientConfig>,
    context: Arc<Asked>,
}

impl MakeRustls {
    fn new(mode: SslMode, root: Option<String>) -> Result<MakeRustls, TlsSetupError> {
        let provider = Arc::new(rustls::crypto::ring::default_provider());
        // `require` checks the chain when it is given a CA, as libpq's does.
        let checked = match mode {
            SslMode::Disable | SslMode::Prefer => false,
            SslMode::Require => root.is_some(),
            SslMode::VerifyCa | SslMode::VerifyFull => true,
        };
        let roots_named = match root.as_deref() {
            None | Some("system") => "the system's trusted CAs".to_owned(),
            Some(path) => format!("sslrootcert={path}"),
        };
        let verifier: Arc<dyn ServerCertVerifier> = if checked {
            let roots = Arc::new(roots(root.as_deref())?);
            let webpki = WebPkiServerVerifier::builder_with_provider(roots, provider.clone())
                .build()
                .map_err(|e| TlsSetupError::Rustls(e.to_string()))?;
            Arc::new(Checked { webpki, names: mode == SslMode::VerifyFull })
        } else {
            Arc::new(Unchecked { provider: provider.clone() })
        };
        let config = ClientConfig::builder_with_provider(provider)
            .with_safe_default_protocol_versions()
            .map_err(|e| TlsSetupError::Rustls(e.to_string()))?
            .dangerous()
            .with_custom_certificate_verifier(verifier)
            .with_no_client_auth();
        Ok(MakeRustls { config: Arc::new(config), context: Arc::new(Asked { mode, roots: roots_named }) })
    }
}

fn roots(root: Option<&str>) -> Result<RootCertStore, TlsSetupError> {
    let mut store = RootCertStore::empty();
    match root {
        None | Some("system") => {
            let found = rustls_native_certs::load_native_certs();
            if found.certs.is_empty() {
                let why = found.errors.first().map_or("none found".to_owned(), |e| e.to_string());
                return Err(TlsSetupError::NoSystemRoots(why));
            }
            store.add_parsable_certificates(found.certs);
        }
        Some(path) => {
            let path = PathBuf::from(path);
            let certs = CertificateDer::pem_file_iter(&path)
                .and_then(|certs| certs.collect::<Result<Vec<_>, _>>())
                .map_err(|e| TlsSetupError::RootCert { path: path.clone(), why: e.to_string() })?;
            if certs.is_empty() {
                return Err(TlsSetupError::NoRootCert { path });
            }
            for cert in certs {
                store.add(cert).map_err(|e| TlsSetupError::RootCert { path: path.clone(), why: e.to_string() })?;
            }
        }
    }
    Ok(store)
}

/// `verify-ca` and `verify-full`: the chain up to a trusted CA, and for `verify-full` the name.
#[derive(Debug)]
struct Checked {
    webpki: Arc<WebPkiServerVerifier>,
    names: bool,
}

impl ServerCertVerifier for Checked {
    fn verify_server_cert(
        &self,
        end_entity: &CertificateDer<'_>,
        intermediates: &[CertificateDer<'_>],
        server_name: &ServerName<'_>,
        ocsp: &[u8],
        now: UnixTime,
    ) -> Result<ServerCertVerified, rustls::Error> {
        match self.webpki.verify_server_cert(end_entity, intermediates, server_name, ocsp, now) {
            // webpki checks the name last, after the chain: a name mismatch means the chain held.
            Err(rustls::Error::InvalidCertificate(
                CertificateError::NotValidForName | CertificateError::NotValidForNameContext { .. },
            )) if !self.names => Ok(ServerCertVerified::assertion()),
            verified => verified,
        }
    }

    fn verify_tls12_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> Result<HandshakeSignatureValid, rustls::Error> {
        self.webpki.verify_tls12_signature(message, cert, dss)
    }

    fn verify_tls13_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> Result<HandshakeSignatureValid, rustls::Error> {
        self.webpki.verify_tls13_signature(message, cert, dss)
    }

    fn supported_verify_schemes(&self) -> Vec<SignatureScheme> {
        self.webpki.supported_verify_schemes()
    }
}

/// `prefer` and `require`: encrypted, the certificate taken as it comes (libpq's meaning), but
/// the handshake still signed by its key.
#[derive(Debug)]
struct Unchecked {
    provider: Arc<CryptoProvider>,
}

impl ServerCertVerifier for Unchecked {
    fn verify_server_cert(
        &self,
        _: &CertificateDer<'_>,
        _: &[CertificateDer<'_>],
        _: &ServerName<'_>,
        _: &[u8],
        _: UnixTime,
    ) -> Result<ServerCertVerified, rustls::Error> {
        Ok(ServerCertVerified::assertion())
    }

    fn verify_tls12_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> Result<HandshakeSignatureValid, rustls::Error> {
        verify_tls12_signature(message, cert, dss, &self.provider.signature_verification_algorithms)
    }

    fn verify_tls13_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> Result<HandshakeSignatureValid, rustls::Error> {
        verify_tls13_signature(message, cert, dss, &self.provider.signature_verification_algorithms)
    }

    fn supported_verify_schemes(&self) -> Vec<SignatureScheme> {
        self.provider.signature_verification_algorithms.supported_schemes()
    }
}

/// Why a TLS connection to the server failed, in words an operator can act on.
#[derive(Debug)]
pub struct HandshakeError {
    mode: SslMode,
    roots: String,
    host: String,
    cause: io::Error,
}

impl fmt::Display for HandshakeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (mode, roots, host) = (self.mode.as_str(), &self.roots, &self.host);
        let rustls = self.cause.get_ref().and_then(|e| e.downcast_ref::<rustls::Error>());
        match rustls {
            Some(rustls::Error::InvalidCertificate(
                CertificateError::UnknownIssuer | CertificateError::BadSignature,
            )) => {
                write!(f, "sslmode={mode}: the server's certificate is not signed by a CA in {roots}")
            }
            Some(rustls::Error::InvalidCertificate(
                CertificateError::NotValidForName | CertificateError::NotValidForNameContext { .. },
            )) => write!(
                f,
                "sslmode={mode}: the server's certificate is not for the host {host:?} named in the URL \
                 (connect by the name in the certificate, or use sslmode=verify-ca)"
            ),
            Some(rustls::Error::InvalidCertificate(
                CertificateError::Expired | CertificateError::ExpiredContext { .. },
            )) => {
                write!(f, "sslmode={mode}: the server's certificate has expired")
            }
            Some(other) => write!(f, "sslmode={mode}: {other}"),
            None => write!(f, "sslmode={mode}: {}", self.cause),
        }
    }
}

impl std::error::Error for HandshakeError {}

impl MakeTlsConnect<Socket> for MakeRustls {
    type Stream = RustlsStream;
    type TlsConnect = RustlsConnect;
    type Error = io::Error;

    fn make_tls_connect(&mut self, host: &str) -> io::Result<RustlsConnect> {
        let name = match ServerName::try_from(host.to_owned()) {
            Ok(name) => name,
            // A Unix socket's path is no name; only `verify-full` needs one.
            Err(_) if self.context.mode != SslMode::VerifyFull => {
                ServerName::try_from("localhost").expect("a DNS name")
            }
            Err(e) => {
                let why = format!("sslmode=verify-full needs a host name to check the certificate against: {e}");
                return Err(io::Error::new(io::ErrorKind::InvalidInput, why));
            }
        };
        Ok(RustlsConnect {
            connector: tokio_rustls::TlsConnector::from(self.config.clone()),
            name,
            host: host.to_owned(),
            context: self.context.clone(),
        })
    }
}

pub(crate) struct RustlsConnect {
    connector: tokio_rustls::TlsConnector,
    name: ServerName<'static>,
    host: String,
    context: Arc<Asked>,
}

impl TlsConnect<Socket> for RustlsConnect {
    type Stream = RustlsStream;
    type Error = HandshakeError;
    type Future = Pin<Box<dyn Future<Output = Result<RustlsStream, HandshakeError>> + Send>>;

    fn connect(self, socket: Socket) -> Self::Future {
        Box::pin(async move {
            let RustlsConnect { connector, name, host, context } = self;
            connector.connect(name, socket).await.map(RustlsStream).map_err(|cause| HandshakeError {
                mode: context.mode,
                roots: context.roots.clone(),
                host,
                cause,
            })
        })
    }
}

/// A TLS connection to the server.
pub(crate) struct RustlsStream(tokio_rustls::client::TlsStream<Socket>);

impl AsyncRead for RustlsStream {
    fn poll_read(mut self: Pin<&mut Self>, cx: &mut Context<'_>, buf: &mut ReadBuf<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.0).poll_read(cx, buf)
    }
}

impl AsyncWrite for RustlsStream {
    fn poll_write(mut self: Pin<&mut Self>, cx: &mut Context<'_>, buf: &[u8]) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.0).poll_write(cx, buf)
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.0).poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.0).poll_shutdown(cx)
    }
}

impl TlsStream for RustlsStream {
    /// No channel binding: SCRAM authenticates without it (`SCRAM-SHA-256`, not `-PLUS`), and
    /// the certificate checks above are what tie the connection to the server.
    fn channel_binding(&self) -> ChannelBinding {
        ChannelBinding::none()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tls_options_are_taken_out_of_the_url_and_the_rest_is_kept() {
        let (url, mode, root) = take_tls_options(
            "postgres://u@h/d?sslmode=verify-full&options=-csearch_path%3Ds&sslrootcert=%2Fetc%2Fca%20x.pem",
        )
        .unwrap();
        assert_eq!(url, "postgres://u@h/d?options=-csearch_path%3Ds");
        assert_eq!(mode.as_deref(), Some("verify-full"));
        assert_eq!(root.as_deref(), Some("/etc/ca x.pem"));
        assert_eq!(take_tls_options("postgres://h/d?sslmode=require").unwrap().0, "postgres://h/d");
    }

    #[test]
    fn an_unknown_mode_or_an_unreadable_ca_file_is_an_error_that_says_so() {
        let Err(e) = target("postgres://h/d?sslmode=verify_full") else { panic!("verify_full is no mode") };
        assert!(e.to_string().contains("verify_full") && e.to_string().contains("verify-full"), "{e}");
        let Err(e) = target("postgres://h/d?sslmode=verify-full&sslrootcert=/nonexistent/ca.pem") else {
            panic!("no such file")
        };
        assert!(e.to_string().contains("/nonexistent/ca.pem"), "{e}");
        assert!(target("postgres://h/d?sslmode=disable").unwrap().tls.is_none());
        assert!(target("postgres://h/d").unwrap().tls.is_some());
    }
}
