//! A real SMTP server for tests, on 127.0.0.1: it speaks enough of RFC 5321 (EHLO/HELO,
//! MAIL, RCPT, DATA, RSET, NOOP, QUIT) for lettre's client, and records every message it
//! accepts. It can be stopped (connections refused, open ones cut) and started again on the
//! same port, and told to refuse recipients with a permanent error.
//!
//! [`MailParts`] reads a recorded message back: headers and the decoded text and HTML parts.

use std::net::SocketAddr;
use std::sync::{Arc, Mutex};

use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};
use tokio::net::{TcpListener, TcpStream};
use tokio::task::JoinHandle;

/// One message the sink accepted.
#[derive(Debug, Clone)]
pub struct Received {
    /// `MAIL FROM` address.
    pub from: String,
    /// `RCPT TO` addresses.
    pub to: Vec<String>,
    /// The message as sent after `DATA` (dot-stuffing undone, CRLF line ends).
    pub data: String,
}

/// A running (or stopped) SMTP sink.
pub struct SmtpSink {
    addr: SocketAddr,
    received: Arc<Mutex<Vec<Received>>>,
    tasks: Arc<Mutex<Vec<JoinHandle<()>>>>,
    /// SMTP reply sent to every `RCPT TO` instead of 250, e.g. `550 5.1.1 No such user`.
    reject_rcpt: Option<&'static str>,
}

impl SmtpSink {
    /// Starts a sink on a free loopback port.
    pub async fn start() -> SmtpSink {
        Self::start_with(SocketAddr::from(([127, 0, 0, 1], 0)), None).await
    }

    /// Starts a sink that answers every recipient with `reply` (e.g. a permanent 550).
    pub async fn start_rejecting(reply: &'static str) -> SmtpSink {
        Self::start_with(SocketAddr::from(([127, 0, 0, 1], 0)), Some(reply)).await
    }

    async fn start_with(addr: SocketAddr, reject_rcpt: Option<&'static str>) -> SmtpSink {
        let mut sink = SmtpSink { addr, received: Arc::default(), tasks: Arc::default(), reject_rcpt };
        sink.listen().await;
        sink
    }

    async fn listen(&mut self) {
        let listener = TcpListener::bind(self.addr).await.expect("the SMTP sink binds its port");
        self.addr = listener.local_addr().expect("bound address");
        let received = self.received.clone();
        let tasks = self.tasks.clone();
        let reject = self.reject_rcpt;
        let accept = tokio::spawn(async move {
            while let Ok((stream, _)) = listener.accept().await {
                let session = tokio::spawn(session(stream, received.clone(), reject));
                tasks.lock().unwrap().push(session);
            }
        });
        self.tasks.lock().unwrap().push(accept);
    }

    /// `SMTP_URL` for this sink (plain SMTP, no TLS).
    pub fn url(&self) -> String {
        format!("smtp://{}", self.addr)
    }

    /// Every message accepted so far, in order.
    pub fn received(&self) -> Vec<Received> {
        self.received.lock().unwrap().clone()
    }

    /// Stops listening and cuts every open connection: the server is down.
    pub async fn stop(&self) {
        let tasks: Vec<_> = self.tasks.lock().unwrap().drain(..).collect();
        for task in tasks {
            task.abort();
            let _ = task.await;
        }
    }

    /// Listens again on the same port, keeping what was received before: the server is back.
    pub async fn restart(&mut self) {
        self.listen().await;
    }
}

impl Drop for SmtpSink {
    fn drop(&mut self) {
        for task in self.tasks.lock().unwrap().drain(..) {
            task.abort();
        }
    }
}

async fn session(stream: TcpStream, received: Arc<Mutex<Vec<Received>>>, reject: Option<&'static str>) {
    let (read, mut write) = stream.into_split();
    let mut lines = BufReader::new(read);
    if write.write_all(b"220 localhost test SMTP sink\r\n").await.is_err() {
        return;
    }
    let mut from = String::new();
    let mut to = Vec::new();
    let mut line = String::new();
    loop {
        line.clear();
        match lines.read_line(&mut line).await {
            Ok(0) | Err(_) => return,
            Ok(_) => {}
        }
        let command = line.trim_end().to_owned();
        let verb = command.split([' ', ':']).next().unwrap_or("").to_ascii_uppercase();
        let reply: String = match verb.as_str() {
            "EHLO" => "250-localhost\r\n250-8BITMIME\r\n250 SMTPUTF8".into(),
            "HELO" => "250 localhost".into(),
            "MAIL" => {
                from = address_in(&command);
                to.clear();
                "250 2.1.0 OK".into()
            }
            "RCPT" => match reject {
                Some(refusal) => refusal.into(),
                None => {
                    to.push(address_in(&command));
                    "250 2.1.5 OK".into()
                }
            },
            "DATA" => {
                if write.write_all(b"354 End data with <CR><LF>.<CR><LF>\r\n").await.is_err() {
                    return;
                }
                let mut data = String::new();
                loop {
                    line.clear();
                    match lines.read_line(&mut line).await {
                        Ok(0) | Err(_) => return,
                        Ok(_) => {}
                    }
                    if line == ".\r\n" || line == ".\n" {
                        break;
                    }
                    // RFC 5321 section 4.5.2: a leading dot was doubled by the client.
                    data.push_str(line.strip_prefix('.').filter(|_| line.starts_with("..")).unwrap_or(&line));
                }
                received.lock().unwrap().push(Received { from: from.clone(), to: std::mem::take(&mut to), data });
                "250 2.0.0 Queued".into()
            }
            "RSET" => {
                from.clear();
                to.clear();
                "250 2.0.0 OK".into()
            }
            "NOOP" => "250 2.0.0 OK".into(),
            "QUIT" => {
                let _ = write.write_all(b"221 2.0.0 Bye\r\n").await;
                return;
            }
            _ => "502 5.5.2 Command not recognised".into(),
        };
        if write.write_all(format!("{reply}\r\n").as_bytes()).await.is_err() {
            return;
        }
    }
}

/// The address between `<` and `>` of a MAIL or RCPT command.
fn address_in(command: &str) -> String {
    let start = command.find('<').map_or(0, |i| i + 1);
    let end = command[start..].find('>').map_or(command.len(), |i| start + i);
    command[start..end].to_owned()
}

/// A mail read back: its top-level headers (unfolded) and its decoded text and HTML parts.
#[derive(Debug, Clone, Default)]
pub struct MailParts {
    pub headers: Vec<(String, String)>,
    pub text: String,
    pub html: String,
    /// File names of attachments.
    pub attachments: Vec<String>,
}

impl MailParts {
    /// Parses a whole RFC 5322 message with MIME parts.
    pub fn parse(raw: &str) -> MailParts {
        let mut mail = MailParts::default();
        let (headers, body) = split_head(raw);
        mail.headers = headers;
        mail.walk(&mail.headers.clone(), body);
        mail
    }

    /// First value of a header, by case-insensitive name.
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers.iter().find(|(n, _)| n.eq_ignore_ascii_case(name)).map(|(_, v)| v.as_str())
    }

    fn walk(&mut self, headers: &[(String, String)], body: &str) {
        let get = |name: &str| {
            headers.iter().find(|(n, _)| n.eq_ignore_ascii_case(name)).map(|(_, v)| v.clone()).unwrap_or_default()
        };
        let content_type = get("Content-Type");
        let lower = content_type.to_ascii_lowercase();
        if lower.starts_with("multipart/") {
            let boundary = parameter(&content_type, "boundary").expect("a multipart has a boundary");
            let delimiter = format!("--{boundary}");
            for part in body.split(&delimiter).skip(1) {
                if part.starts_with("--") {
                    break;
                }
                let part = part.strip_prefix("\r\n").unwrap_or(part);
                let (part_headers, part_body) = split_head(part);
                self.walk(&part_headers, part_body);
            }
            return;
        }
        let decoded = decode(body, &get("Content-Transfer-Encoding"));
        let disposition = get("Content-Disposition");
        if disposition.to_ascii_lowercase().starts_with("attachment") {
            self.attachments.push(parameter(&disposition, "filename").unwrap_or_default());
        } else if lower.starts_with("text/html") {
            self.html.push_str(&decoded);
        } else if lower.starts_with("text/plain") || lower.is_empty() {
            self.text.push_str(&decoded);
        }
    }
}

fn split_head(raw: &str) -> (Vec<(String, String)>, &str) {
    let (head, body) = raw.split_once("\r\n\r\n").unwrap_or((raw, ""));
    let mut headers: Vec<(String, String)> = Vec::new();
    for line in head.split("\r\n") {
        if line.starts_with([' ', '\t']) {
            if let Some((_, value)) = headers.last_mut() {
                value.push(' ');
                value.push_str(line.trim());
            }
        } else if let Some((name, value)) = line.split_once(':') {
            headers.push((name.trim().to_owned(), value.trim().to_owned()));
        }
    }
    (headers, body)
}

fn parameter(header: &str, name: &str) -> Option<String> {
    header.split(';').skip(1).find_map(|p| {
        let (key, value) = p.trim().split_once('=')?;
        key.trim().eq_ignore_ascii_case(name).then(|| value.trim().trim_matches('"').to_owned())
    })
}

/// A MIME part's body decoded by its `Content-Transfer-Encoding` (RFC 2045 section 6), line
/// breaks as `\n`. Lettre writes base64 in 76-character lines and quoted-printable with soft
/// breaks; both crates are the ones lettre encodes with.
fn decode(body: &str, encoding: &str) -> String {
    use base64::Engine as _;
    let body = body.trim_end_matches("\r\n");
    match encoding.trim().to_ascii_lowercase().as_str() {
        "base64" => {
            let compact: String = body.split_ascii_whitespace().collect();
            let bytes = base64::engine::general_purpose::STANDARD.decode(compact).expect("base64 part");
            String::from_utf8(bytes).expect("UTF-8 part")
        }
        "quoted-printable" => {
            let bytes =
                quoted_printable::decode(body, quoted_printable::ParseMode::Strict).expect("quoted-printable part");
            String::from_utf8(bytes).expect("UTF-8 part")
        }
        _ => body.to_owned(),
    }
    .replace("\r\n", "\n")
}
