//! Who may be invited to review (issue 32 item 1): the rules of the organisers' "Invite a
//! reviewer" form and of a pasted CSV of reviewers, checked before anything is stored.
//!
//! - A name (at most [`NAME_MAX_CHARS`]), an address the site can mail
//!   (`crate::forms::validate::is_valid_email`, stored trimmed and lower-cased as sign-in compares
//!   it), an affiliation (optional, at most [`AFFILIATION_MAX_CHARS`]) and topics, each one of
//!   the conference's focus areas (`site.focus_areas` in the content seed), matched without
//!   regard to case and stored as the seed spells them, in the seed's order.
//! - A CSV has the columns `name,email,affiliation,topics` (the last two may be left out),
//!   topics separated by `;`, an optional header row, at most [`MAX_ROWS`] reviewers. One bad
//!   row refuses the whole paste: every bad row is named by its line, so it can be fixed in
//!   one go.
//! - An address that is already a reviewer (invited, accepted or declined) cannot be invited
//!   again ([`taken`]); a removed one can.
//!
//! Pure: the caller reads the focus areas and the stored reviewers.

use std::collections::HashMap;

use crate::forms::validate::{is_allowed_char, is_valid_email};

/// Most reviewers one pasted CSV may invite.
pub const MAX_ROWS: usize = 500;
/// Longest name, in characters.
pub const NAME_MAX_CHARS: usize = 200;
/// Longest affiliation, in characters.
pub const AFFILIATION_MAX_CHARS: usize = 200;

/// A reviewer to invite, checked: `email` trimmed and lower-cased, `topics` among the focus
/// areas, as the seed spells them and in its order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Invitee {
    pub name: String,
    pub email: String,
    pub affiliation: String,
    pub topics: Vec<String>,
}

impl Invitee {
    /// The topics as `reviewers.topics` stores them: newline-separated.
    pub fn topics_text(&self) -> String {
        self.topics.join("\n")
    }
}

/// A field of the invitation form.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Field {
    Name,
    Email,
    Affiliation,
    Topics,
}

impl Field {
    /// The form field's name.
    pub fn name(self) -> &'static str {
        match self {
            Field::Name => "name",
            Field::Email => "email",
            Field::Affiliation => "affiliation",
            Field::Topics => "topics",
        }
    }
}

/// What is wrong with one field, in a sentence the form shows beside it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FieldError {
    pub field: Field,
    pub message: String,
}

fn error(field: Field, message: impl Into<String>) -> FieldError {
    FieldError { field, message: message.into() }
}

/// At most 40 characters of what was typed, for a message.
fn shown(value: &str) -> String {
    let short: String = value.chars().take(40).collect();
    if short.len() < value.len() { format!("{short}…") } else { short }
}

/// A text field's problem: control characters, or longer than `max`.
fn text_problem(label: &str, value: &str, max: usize) -> Option<String> {
    if !value.chars().all(|c| is_allowed_char(c) && c != '\n' && c != '\t') {
        return Some(format!("The {label} contains a control character; please type it on one line."));
    }
    let count = value.chars().count();
    (count > max).then(|| format!("The {label} is {count} characters long; at most {max} are accepted."))
}

/// Checks one reviewer as typed (`topics`: the chosen focus areas, any case) against the
/// conference's `focus_areas`. Every field's problem is returned, in the form's order.
pub fn check(
    name: &str,
    email: &str,
    affiliation: &str,
    topics: &[&str],
    focus_areas: &[&str],
) -> Result<Invitee, Vec<FieldError>> {
    let (name, email, affiliation) = (name.trim(), email.trim(), affiliation.trim());
    let mut errors = Vec::new();
    if name.is_empty() {
        errors.push(error(Field::Name, "Please enter the reviewer's name."));
    } else if let Some(problem) = text_problem("name", name, NAME_MAX_CHARS) {
        errors.push(error(Field::Name, problem));
    }
    if email.is_empty() {
        errors.push(error(Field::Email, "Please enter the reviewer's e-mail address."));
    } else if !is_valid_email(email) {
        errors.push(error(
            Field::Email,
            format!("“{}” is not an e-mail address the site can write to (like name@university.edu).", shown(email)),
        ));
    }
    if let Some(problem) = text_problem("affiliation", affiliation, AFFILIATION_MAX_CHARS) {
        errors.push(error(Field::Affiliation, problem));
    }
    let mut chosen = Vec::new();
    let mut unknown = Vec::new();
    for topic in topics.iter().map(|t| t.trim()).filter(|t| !t.is_empty()) {
        match focus_areas.iter().find(|area| area.trim().eq_ignore_ascii_case(topic)) {
            Some(area) => chosen.push(area.trim()),
            None => unknown.push(format!("“{}”", shown(topic))),
        }
    }
    if !unknown.is_empty() {
        let areas = focus_areas.iter().map(|a| a.trim()).collect::<Vec<_>>().join(", ");
        let (what, are) = if unknown.len() == 1 { ("topic", "is") } else { ("topics", "are") };
        errors.push(error(
            Field::Topics,
            format!("The {what} {} {are} not among the conference's focus areas ({areas}).", unknown.join(", ")),
        ));
    }
    if !errors.is_empty() {
        return Err(errors);
    }
    // The seed's order, each once.
    let topics = focus_areas.iter().map(|area| area.trim()).filter(|area| chosen.contains(area)).fold(
        Vec::new(),
        |mut topics: Vec<String>, area| {
            if !topics.iter().any(|t| t == area) {
                topics.push(area.to_owned());
            }
            topics
        },
    );
    Ok(Invitee {
        name: name.to_owned(),
        email: crate::forms::validate::normalise_email(email),
        affiliation: affiliation.to_owned(),
        topics,
    })
}

/// Why `email` cannot be invited when it is already a reviewer in `state`; `None` when it
/// is not one, or was removed (then the invitation brings it back).
pub fn taken(email: &str, state: Option<&str>) -> Option<String> {
    let what = match state? {
        "invited" => "has been invited already and not answered yet (send the invitation again instead)",
        "accepted" => "is already a reviewer",
        "declined" => "declined an invitation already",
        _ => return None,
    };
    Some(format!("{email} {what}."))
}

/// A row of a pasted CSV, checked; `line` is where it starts (1 is the first line).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Row {
    pub line: u64,
    pub invitee: Invitee,
}

/// A bad row of a pasted CSV.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RowError {
    pub line: u64,
    pub message: String,
}

impl std::fmt::Display for RowError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Line {}: {}", self.line, self.message)
    }
}

/// Why a pasted CSV invites nobody.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ImportError {
    /// Nothing but blank lines (or a header).
    Empty,
    /// More than [`MAX_ROWS`] reviewers: how many.
    TooMany(usize),
    /// The bad rows, in line order.
    Rows(Vec<RowError>),
}

impl std::fmt::Display for ImportError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ImportError::Empty => f.write_str(
                "The text has no reviewer in it. Paste one reviewer a line: name, e-mail, affiliation, topics.",
            ),
            ImportError::TooMany(count) => write!(
                f,
                "The text has {count} reviewers; at most {MAX_ROWS} can be invited at a time. Please split it."
            ),
            ImportError::Rows(rows) => {
                let (count, verb) = if rows.len() == 1 {
                    ("1 line".to_owned(), "has")
                } else {
                    (format!("{} lines", rows.len()), "have")
                };
                write!(f, "Nobody was invited: {count} {verb} a problem. Fix them and send the whole list again.")
            }
        }
    }
}

/// Whether a record is the optional header row: `name,email,...` (any case, `e-mail` too).
fn is_header(record: &csv::StringRecord) -> bool {
    let field = |i: usize| record.get(i).map(|f| f.trim().to_ascii_lowercase());
    field(0).as_deref() == Some("name") && matches!(field(1).as_deref(), Some("email" | "e-mail"))
}

/// Line numbers of records, read forward through the text: the reader's own line count is
/// that of the blank lines it skipped before a record, so the record's first byte is found
/// past them and the newlines before it are counted.
struct Lines<'a> {
    bytes: &'a [u8],
    /// Where counting stopped, and the line there (1-based).
    at: usize,
    line: u64,
}

impl Lines<'_> {
    /// The line of the record starting at byte `start` (never before an earlier record's).
    fn of(&mut self, start: u64) -> u64 {
        let mut start = usize::try_from(start).unwrap_or(self.bytes.len()).clamp(self.at, self.bytes.len());
        while start < self.bytes.len() && (self.bytes[start] == b'\n' || self.bytes[start] == b'\r') {
            start += 1;
        }
        self.line += self.bytes[self.at..start].iter().filter(|&&b| b == b'\n').count() as u64;
        self.at = start;
        self.line
    }
}

/// Reads a pasted CSV of reviewers against the conference's `focus_areas`. Blank lines are
/// skipped; a header row is recognised by its first two columns (`name`, `email`). Every
/// row is checked as [`check`] does, and an address given twice is refused at its second
/// line.
pub fn parse(text: &str, focus_areas: &[&str]) -> Result<Vec<Row>, ImportError> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut reader =
        csv::ReaderBuilder::new().has_headers(false).flexible(true).trim(csv::Trim::All).from_reader(text.as_bytes());
    let mut lines = Lines { bytes: text.as_bytes(), at: 0, line: 1 };
    let mut rows = Vec::new();
    let mut errors = Vec::new();
    let mut first_line: HashMap<String, u64> = HashMap::new();
    let mut seen_any = false;
    let mut count = 0usize;
    for record in reader.records() {
        let record = match record {
            Ok(record) => record,
            Err(err) => {
                let line = err.position().map_or(0, |p| lines.of(p.byte()));
                errors.push(RowError { line, message: "This line cannot be read as CSV.".into() });
                continue;
            }
        };
        let line = record.position().map_or(0, |p| lines.of(p.byte()));
        if record.iter().all(str::is_empty) {
            continue;
        }
        let first = !seen_any;
        seen_any = true;
        if first && is_header(&record) {
            continue;
        }
        count += 1;
        if count > MAX_ROWS {
            continue;
        }
        if !(2..=4).contains(&record.len()) {
            errors.push(RowError {
                line,
                message: format!(
                    "it has {} column{}; a row has 2 to 4: name, e-mail, affiliation, topics (separated by “;”).",
                    record.len(),
                    if record.len() == 1 { "" } else { "s" }
                ),
            });
            continue;
        }
        let field = |i: usize| record.get(i).unwrap_or("");
        let topics: Vec<&str> = field(3).split(';').collect();
        match check(field(0), field(1), field(2), &topics, focus_areas) {
            Ok(invitee) => {
                if let Some(earlier) = first_line.get(&invitee.email) {
                    errors.push(RowError { line, message: format!("{} is on line {earlier} already.", invitee.email) });
                } else {
                    first_line.insert(invitee.email.clone(), line);
                    rows.push(Row { line, invitee });
                }
            }
            Err(problems) => {
                let message = problems.into_iter().map(|p| p.message).collect::<Vec<_>>().join(" ");
                errors.push(RowError { line, message });
            }
        }
    }
    if count > MAX_ROWS {
        return Err(ImportError::TooMany(count));
    }
    if !errors.is_empty() {
        errors.sort_by_key(|e| e.line);
        return Err(ImportError::Rows(errors));
    }
    if rows.is_empty() {
        return Err(ImportError::Empty);
    }
    Ok(rows)
}

#[cfg(test)]
mod tests {
    use super::*;

    const AREAS: [&str; 2] = ["Tidal Computing", "Lantern Studies"];

    #[test]
    fn one_reviewer_is_trimmed_lower_cased_and_takes_topics_as_the_seed_spells_them() {
        let invitee = check(
            "  Ada Lovelace ",
            " Ada@Engines.EXAMPLE ",
            " Analytical Engines ",
            &["lantern studies", "TIDAL COMPUTING", "Lantern Studies"],
            &AREAS,
        )
        .unwrap();
        assert_eq!(
            invitee,
            Invitee {
                name: "Ada Lovelace".into(),
                email: "ada@engines.example".into(),
                affiliation: "Analytical Engines".into(),
                topics: vec!["Tidal Computing".into(), "Lantern Studies".into()],
            }
        );
        assert_eq!(invitee.topics_text(), "Tidal Computing\nLantern Studies");
        assert_eq!(check("Ada", "ada@x.example", "", &[], &AREAS).unwrap().topics, Vec::<String>::new());
    }

    #[test]
    fn every_bad_field_is_named() {
        let errors = check(" ", "not-an-address", "Lab\u{7}", &["Tidal Computing", "Astrology"], &AREAS).unwrap_err();
        let fields: Vec<Field> = errors.iter().map(|e| e.field).collect();
        assert_eq!(fields, [Field::Name, Field::Email, Field::Affiliation, Field::Topics]);
        assert!(errors[1].message.contains("“not-an-address” is not an e-mail address"), "{}", errors[1].message);
        assert_eq!(
            errors[3].message,
            "The topic “Astrology” is not among the conference's focus areas (Tidal Computing, Lantern Studies)."
        );
        let missing = check("Ada", "", "", &[], &AREAS).unwrap_err();
        assert_eq!(missing[0].message, "Please enter the reviewer's e-mail address.");
        let long = "x".repeat(NAME_MAX_CHARS + 1);
        assert!(check(&long, "a@b.example", "", &[], &AREAS).unwrap_err()[0].message.contains("at most 200"));
    }

    #[test]
    fn an_address_is_taken_unless_removed() {
        assert_eq!(taken("a@b.example", None), None);
        assert_eq!(taken("a@b.example", Some("removed")), None);
        assert_eq!(taken("a@b.example", Some("accepted")).unwrap(), "a@b.example is already a reviewer.");
        assert!(taken("a@b.example", Some("invited")).unwrap().contains("send the invitation again"));
        assert!(taken("a@b.example", Some("declined")).unwrap().contains("declined"));
    }

    #[test]
    fn a_csv_with_or_without_header_reads_every_row_with_its_line() {
        let text = "\u{feff}Name,E-mail,Affiliation,Topics\n\
                    Ada Lovelace,ada@engines.example,Analytical Engines,Tidal Computing;lantern studies\n\
                    \n\
                    \"Hopper, Grace\",GRACE@navy.example\n";
        let rows = parse(text, &AREAS).unwrap();
        assert_eq!(rows.len(), 2);
        assert_eq!(rows[0].line, 2);
        assert_eq!(rows[0].invitee.topics, ["Tidal Computing", "Lantern Studies"]);
        assert_eq!((rows[1].line, rows[1].invitee.name.as_str()), (4, "Hopper, Grace"));
        assert_eq!(rows[1].invitee.email, "grace@navy.example");
        assert_eq!(rows[1].invitee.affiliation, "");
        let headless = parse("Ada,ada@engines.example,,\r\nBen,ben@x.example,Lab,", &AREAS).unwrap();
        assert_eq!(headless.iter().map(|r| r.line).collect::<Vec<_>>(), [1, 2]);
    }

    #[test]
    fn every_bad_row_is_named_by_its_line_and_nothing_is_kept() {
        let text = "name,email,affiliation,topics\n\
                    Ada,ada@engines.example,,\n\
                    ,nobody@x.example,,\n\
                    Ben,not-mail,,Astrology\n\
                    Cy,ADA@engines.example,,\n\
                    just one column\n";
        let ImportError::Rows(errors) = parse(text, &AREAS).unwrap_err() else { panic!("row errors") };
        let lines: Vec<u64> = errors.iter().map(|e| e.line).collect();
        assert_eq!(lines, [3, 4, 5, 6]);
        assert!(errors[0].message.contains("name"), "{}", errors[0]);
        assert!(errors[1].message.contains("not-mail") && errors[1].message.contains("Astrology"), "{}", errors[1]);
        assert_eq!(errors[2].to_string(), "Line 5: ada@engines.example is on line 2 already.");
        assert!(errors[3].message.contains("1 column"), "{}", errors[3]);
    }

    #[test]
    fn an_empty_paste_and_one_past_the_limit_invite_nobody() {
        assert_eq!(parse("", &AREAS), Err(ImportError::Empty));
        assert_eq!(parse("name,email\n\n", &AREAS), Err(ImportError::Empty));
        let many: String = (0..=MAX_ROWS).map(|i| format!("R{i},r{i}@x.example\n")).collect();
        assert_eq!(parse(&many, &AREAS), Err(ImportError::TooMany(MAX_ROWS + 1)));
        let enough: String = (0..MAX_ROWS).map(|i| format!("R{i},r{i}@x.example\n")).collect();
        assert_eq!(parse(&enough, &AREAS).unwrap().len(), MAX_ROWS);
    }
}
