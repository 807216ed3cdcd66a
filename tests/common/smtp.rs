//! A real SMTP server for tests, on 127.0.0.1: it speaks enough of RFC 5321 (EHLO/HELO,
//! MAIL, RCPT, DATA, RSET, NOOP, QUIT) for lettre's client, and records every message it
//! accepts. It can be stopped (connections refused, open ones cut) and started again on the
//! same port, and told to refuse recipients with a permanent error.
//!
//! [`MailParts`] reads a recorded message back (with `mail-parser`): headers and the decoded
//! text and HTML parts.

use std::net::SocketAddr;
use std::sync::{Arc, Mutex};

use mail_parser::{MessageParser, MessagePart, MimeHeaders};
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

/// A mail read back with `mail-parser`: its top-level headers and its decoded text and HTML
/// parts.
#[derive(Debug, Clone, Default)]
pub struct MailParts {
    /// Each header as written, unfolded (RFC 5322 section 2.2.3), in order.
    pub headers: Vec<(String, String)>,
    /// The `text/plain` parts, transfer encoding undone, line breaks as `\n`.
    pub text: String,
    /// The `text/html` parts, likewise.
    pub html: String,
    /// File names of attachments.
    pub attachments: Vec<String>,
}

impl MailParts {
    /// Parses a whole RFC 5322 message with MIME parts; panics when it is not one.
    pub fn parse(raw: &str) -> MailParts {
        let message = MessageParser::default().parse(raw).expect("an RFC 5322 message");
        let headers = message
            .headers_raw()
            .map(|(name, value)| (name.to_owned(), value.replace("\r\n", "").trim().to_owned()))
            .collect();
        // Tests compare with the `\n` a visitor typed; the message carries CRLF.
        let bodies = |parts: &mut dyn Iterator<Item = &MessagePart<'_>>| {
            parts.filter_map(MessagePart::text_contents).collect::<String>().replace("\r\n", "\n")
        };
        // mail-parser lists a lone text part among the HTML bodies too (and the reverse).
        let text = bodies(&mut message.text_bodies().filter(|part| !part.is_text_html()));
        let html = bodies(&mut message.html_bodies().filter(|part| part.is_text_html()));
        let attachments =
            message.attachments().map(|part| part.attachment_name().unwrap_or_default().to_owned()).collect();
        MailParts { headers, text, html, attachments }
    }

    /// First value of a header, by case-insensitive name, as written (not RFC 2047 decoded).
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers.iter().find(|(n, _)| n.eq_ignore_ascii_case(name)).map(|(_, v)| v.as_str())
    }
}
