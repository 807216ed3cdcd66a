//! The programme for attendee apps (issue 31 item 5, DESIGN.md section 14): `/schedule.xml`
//! and `/schedule.json`, the frab / c3voc schedule, before any version is published and after
//! two, checked against the format's own schemas (`tests/schemas/`) by `xmllint` (Debian's
//! `libxml2-utils`) and Python's `jsonschema` (Debian's `python3-jsonschema`). Both tools are
//! required: without one the test fails, naming the package (`.ci/run` installs them).

use std::collections::BTreeMap;
use std::io::Write;
use std::process::Command;

use axum::body::Body;
use axum::http::{Request, StatusCode};
use serde_json::Value;
use time::macros::datetime;

use crate::api_submission::{Form, submit};
use crate::common::fixture::{self, PROGRAMME_DAYS, SESSIONS, TIME_ZONE};
use crate::common::{BASE, TestApp, app};
use conference::mail::OutgoingMail;

fn schema(name: &str) -> String {
    format!("{}/tests/schemas/{name}", env!("CARGO_MANIFEST_DIR"))
}

/// `text` in a temporary file (the validators read files).
fn file_of(text: &str, suffix: &str) -> tempfile::NamedTempFile {
    let mut file = tempfile::Builder::new().suffix(suffix).tempfile().expect("temporary file");
    file.write_all(text.as_bytes()).expect("written");
    file
}

/// Runs `program` with `args`; its standard output, or a failure naming the package to install.
fn run(program: &str, package: &str, args: &[&str]) -> (bool, String, String) {
    let output = Command::new(program).args(args).output().unwrap_or_else(|err| {
        panic!("{program} is needed to check the programme's exports ({err}): apt-get install -y {package}")
    });
    (
        output.status.success(),
        String::from_utf8_lossy(&output.stdout).into_owned(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

/// An XML answer, on disk for xmllint.
struct Xml {
    text: String,
    file: tempfile::NamedTempFile,
}

impl Xml {
    fn of(text: String) -> Xml {
        let file = file_of(&text, ".xml");
        Xml { text, file }
    }

    fn path(&self) -> &str {
        self.file.path().to_str().unwrap()
    }

    /// Whether it is valid against the frab schedule XSD; xmllint's own words when not.
    fn validate(&self) -> Result<(), String> {
        let (ok, _, stderr) =
            run("xmllint", "libxml2-utils", &["--noout", "--schema", &schema("frab-schedule.xsd"), self.path()]);
        if ok { Ok(()) } else { Err(stderr) }
    }

    fn assert_valid(&self) {
        if let Err(errors) = self.validate() {
            panic!("/schedule.xml is not valid against frab-schedule.xsd:\n{errors}\n{}", self.text);
        }
    }

    /// The value of an XPath 1.0 expression (`count(...)`, `string(...)`), without the line
    /// feed xmllint ends it with.
    fn xpath(&self, expression: &str) -> String {
        let (ok, mut stdout, stderr) = run("xmllint", "libxml2-utils", &["--xpath", expression, self.path()]);
        assert!(ok, "xmllint --xpath {expression}: {stderr}");
        if stdout.ends_with('\n') {
            stdout.pop();
        }
        stdout
    }

    fn count(&self, expression: &str) -> usize {
        self.xpath(&format!("count({expression})")).trim().parse().expect("a count")
    }
}

/// Checks `document` against `schema` (JSON Schema draft 6) with Python's `jsonschema`, whose
/// draft-6 format checker is given the formats Debian's version leaves unchecked (`date`,
/// `date-time`, `uuid`), strictly, from Python's standard library.
const JSON_SCHEMA_CHECK: &str = r#"
import datetime, json, re, sys, uuid
import jsonschema

schema = json.load(open(sys.argv[1]))
document = json.load(open(sys.argv[2]))
jsonschema.Draft6Validator.check_schema(schema)
checker = jsonschema.Draft6Validator.FORMAT_CHECKER

@checker.checks("uuid", raises=ValueError)
def is_uuid(value):
    return isinstance(value, str) and str(uuid.UUID(value)) == value.lower()

@checker.checks("date", raises=ValueError)
def is_date(value):
    return isinstance(value, str) and bool(re.fullmatch(r"\d{4}-\d\d-\d\d", value)) and bool(datetime.date.fromisoformat(value))

@checker.checks("date-time", raises=ValueError)
def is_date_time(value):
    if not isinstance(value, str) or not re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)", value):
        return False
    return bool(datetime.datetime.fromisoformat(value.replace("Z", "+00:00")))

errors = sorted(jsonschema.Draft6Validator(schema, format_checker=checker).iter_errors(document), key=str)
for error in errors:
    print("/".join(str(p) for p in error.absolute_path), ":", error.message)
sys.exit(1 if errors else 0)
"#;

/// Whether `text` is valid against the frab schedule JSON Schema; the validator's words when not.
fn validate_json(text: &str) -> Result<(), String> {
    let file = file_of(text, ".json");
    let (ok, stdout, stderr) = run(
        "python3",
        "python3-jsonschema",
        &["-c", JSON_SCHEMA_CHECK, &schema("frab-schedule.schema.json"), file.path().to_str().unwrap()],
    );
    assert!(!stderr.contains("No module named 'jsonschema'"), "apt-get install -y python3-jsonschema: {stderr}");
    if ok { Ok(()) } else { Err(format!("{stdout}{stderr}")) }
}

fn assert_valid_json(text: &str) {
    if let Err(errors) = validate_json(text) {
        panic!("/schedule.json is not valid against frab-schedule.schema.json:\n{errors}\n{text}");
    }
}

/// Both exports as served, each checked against its schema.
async fn exports(app: &TestApp) -> (Xml, Value) {
    let xml = app.request("/schedule.xml", &[]).await;
    assert_eq!(xml.status, StatusCode::OK);
    assert_eq!(xml.header("content-type"), Some("application/xml; charset=utf-8"));
    let xml = Xml::of(xml.text());
    xml.assert_valid();
    let json = app.request("/schedule.json", &[]).await;
    assert_eq!(json.status, StatusCode::OK);
    assert_eq!(json.header("content-type"), Some("application/json"));
    assert_valid_json(&json.text());
    (xml, serde_json::from_slice(&json.body).expect("JSON"))
}

/// What every attendee app reads of an event. The XSD's opening comment names the apps
/// (Giggity first) without their fields; these are the ones Giggity shows and keys on (the
/// event's `id` and `guid`, its title, day, start, duration and room; then subtitle, track,
/// type, abstract, description, speakers and links), which EventFahrplan reads too.
const GIGGITY_NON_EMPTY: [&str; 7] = ["@guid", "@id", "title", "date", "start", "duration", "room"];
const GIGGITY_PRESENT: [&str; 10] =
    ["subtitle", "track", "type", "language", "abstract", "description", "persons", "links", "url", "slug"];

fn assert_giggity_fields(xml: &Xml) {
    let events = xml.count("//event");
    assert!(events > 0, "events in {}", xml.text);
    for field in GIGGITY_NON_EMPTY {
        assert_eq!(xml.count(&format!("//event[not(normalize-space({field}))]")), 0, "every event has a {field}");
    }
    for field in GIGGITY_PRESENT {
        assert_eq!(xml.count(&format!("//event[not({field})]")), 0, "every event has <{field}>");
    }
    assert_eq!(xml.count("/schedule/conference[normalize-space(title)]"), 1, "the conference's title");
    assert_eq!(xml.count("//day[not(@date) or not(@index)]"), 0, "every day has its date and index");
    assert_eq!(xml.count("//day/room[not(normalize-space(@name))]"), 0, "every room has a name");
    // Each event sits in the room it names, on the day of its date.
    assert_eq!(xml.count("//room/event[room != ../@name]"), 0);
    assert_eq!(xml.count("//day/room/event[substring(date, 1, 10) != ../../@date]"), 0);
}

/// Every event of the JSON form: (guid, the event).
fn json_events(json: &Value) -> BTreeMap<String, Value> {
    let mut events = BTreeMap::new();
    for day in json["schedule"]["conference"]["days"].as_array().expect("days") {
        for (room, list) in day["rooms"].as_object().expect("rooms") {
            for event in list.as_array().unwrap() {
                assert_eq!(event["room"].as_str(), Some(room.as_str()), "an event sits in its room");
                events.insert(event["guid"].as_str().unwrap().to_owned(), event.clone());
            }
        }
    }
    events
}

/// Every event of the XML form: guid → title.
fn xml_events(xml: &Xml) -> BTreeMap<String, String> {
    (1..=xml.count("//event"))
        .map(|n| {
            let guid = xml.xpath(&format!("string((//event)[{n}]/@guid)"));
            (guid, xml.xpath(&format!("string((//event)[{n}]/title)")))
        })
        .collect()
}

/// The XML and the JSON hold the same events, titles and version.
fn assert_same_events(xml: &Xml, json: &Value) {
    let from_json: BTreeMap<String, String> =
        json_events(json).into_iter().map(|(guid, e)| (guid, e["title"].as_str().unwrap().to_owned())).collect();
    assert_eq!(xml_events(xml), from_json, "the same events in both forms");
    assert_eq!(xml.xpath("string(/schedule/version)"), json["schedule"]["version"].as_str().unwrap());
}

/// Public data only: no e-mail address (the submitters', the site's) and no phone number.
fn assert_no_private_data(text: &str, submitters: &[&str]) {
    assert!(!text.contains('@'), "no e-mail address: {text}");
    for address in submitters {
        assert!(!text.contains(address));
    }
    assert!(!text.contains(fixture::PHONE) && !text.contains("+639171234567"), "no phone number");
    assert!(!text.contains("paper.pdf") && !text.contains("papers/"), "no paper file");
}

#[tokio::test]
async fn before_publishing_the_exports_hold_the_seed_sessions_as_events() {
    let app = app().await;
    let (xml, json) = exports(&app).await;
    assert_giggity_fields(&xml);
    assert_same_events(&xml, &json);
    assert_eq!(xml.xpath("string(/schedule/version)"), "unpublished");
    assert_eq!(xml.xpath("string(//conference/acronym)"), "fixcon_2025");
    assert_eq!(xml.xpath("string(//conference/title)"), fixture::NAME);
    assert_eq!(xml.xpath("string(//conference/time_zone_name)"), TIME_ZONE);
    assert_eq!(xml.xpath("string(//conference/base_url)"), format!("{BASE}/"));
    assert_eq!(xml.xpath("string(/schedule/url)"), format!("{BASE}/schedule.xml"));
    assert_eq!(xml.xpath("string(//conference/days)"), "3");
    for (index, (date, _)) in PROGRAMME_DAYS.iter().enumerate() {
        assert_eq!(xml.xpath(&format!("string(//day[@index={}]/@date)", index + 1)), *date);
    }
    assert_eq!(xml.xpath("string(//day[1]/@start)"), "2025-03-21T09:00:00+08:00", "the first session's start");
    assert_eq!(xml.xpath("string(//day[1]/@end)"), "2025-03-21T11:00:00+08:00", "the last session's end");

    // Each session is an event of its own, at its time in its room.
    assert_eq!(xml.count("//event"), SESSIONS.len());
    for session in SESSIONS {
        let event = format!("//event[title = '{}']", session.title);
        assert_eq!(xml.xpath(&format!("string({event}/date)")), session.start, "{}", session.slug);
        assert_eq!(xml.xpath(&format!("string({event}/start)")), &session.start[11..16]);
        assert_eq!(xml.xpath(&format!("string({event}/room)")), session.room);
        assert_eq!(xml.xpath(&format!("string({event}/track)")), session.track.unwrap_or(""));
        assert_eq!(xml.xpath(&format!("string({event}/url)")), format!("{BASE}/schedule/sessions/{}", session.slug));
    }
    assert_eq!(xml.xpath("string(//event[title = 'Fixture session A']/duration)"), "03:00");
    assert_eq!(xml.xpath("string(//event[title = 'Fixture closing']/type)"), "ceremony");
    let events = json_events(&json);
    let opening = events.values().find(|e| e["title"] == "Opening of the fixture symposium").unwrap();
    assert_eq!(opening["end"], "2025-03-21T10:00:00+08:00");
    assert_eq!(opening["track"], Value::Null);
    assert_eq!(json["schedule"]["conference"]["daysCount"], 3);
    let tracks: Vec<&str> = json["schedule"]["conference"]["tracks"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["slug"].as_str().unwrap())
        .collect();
    assert_eq!(tracks, fixture::TRACKS.map(|(slug, _)| slug));

    assert_no_private_data(&xml.text, &[]);
    assert_no_private_data(&json.to_string(), &[]);

    // Served from memory like the pages, ahead of the stack, with an ETag.
    for path in ["/schedule.xml", "/schedule.json"] {
        let answer = app.router.dispatch(Request::get(path).body(Body::empty()).unwrap(), None);
        assert!(matches!(answer, conference::http::cache_hits::HitOrMiss::Hit(_)), "{path} is answered from memory");
        let first = app.request(path, &[]).await;
        let etag = first.header("etag").expect("an ETag").to_owned();
        let again = app.request(path, &[("if-none-match", &etag)]).await;
        assert_eq!(again.status, StatusCode::NOT_MODIFIED, "{path}");
    }
}

/// A paper as the public form submits it, then accepted (as the decisions would); its id.
async fn accepted_paper(app: &TestApp, email: &str, title: &str, author: &str, co_authors: &str) -> i64 {
    let form = Form::valid()
        .with("email", email)
        .with("paperTitle", title)
        .with("authorName", author)
        .with("coAuthorName", co_authors);
    let (status, answer) = submit(app, &form).await;
    assert_eq!(status, StatusCode::CREATED, "{answer}");
    let reference = answer["reference"].as_str().unwrap();
    sqlx::query("UPDATE submissions SET state = 'accepted' WHERE reference = $1")
        .bind(reference)
        .execute(&app.pool)
        .await
        .unwrap();
    sqlx::query_scalar("SELECT id FROM submissions WHERE reference = $1")
        .bind(reference)
        .fetch_one(&app.pool)
        .await
        .unwrap()
}

async fn place(app: &TestApp, paper: i64, session: &str, minutes: i64) {
    let mut tx = conference::db::begin_write(&app.pool).await.unwrap();
    conference::repo::programme::place(&mut tx, paper, session, minutes, "2025-02-01T08:00:00Z").await.unwrap();
    tx.commit().await.unwrap();
}

/// Publishes the placement as version `number` named `name`, and loads it as every instance
/// would within a second.
async fn publish(app: &TestApp, number: i64, name: &str) {
    let mail = |_: &conference::programme::Published,
                talk: &conference::programme::Talk,
                paper: &conference::programme::draft::Paper| {
        OutgoingMail {
            to: paper.email.clone(),
            reply_to: None,
            subject: format!("{} moved", talk.title),
            text_body: String::new(),
            html_body: String::new(),
            attachment: None,
            dedupe_key: None,
            list_unsubscribe: None,
        }
    };
    conference::programme::publish::publish(
        &app.pool,
        number,
        name,
        "chair@example.org",
        None,
        datetime!(2025-02-01 09:00 UTC),
        &mail,
    )
    .await
    .unwrap_or_else(|err| panic!("version {number} publishes: {err}"));
    assert!(app.state.content.reload().await.unwrap(), "a new snapshot");
}

const ODD_TITLE: &str = "Tides & <Lanterns>: \"quoted\" and 'single'";
const SUBMITTERS: [&str; 3] = ["ana.cruz@example.org", "carla@example.org", "dan@example.org"];

#[tokio::test]
async fn a_published_programme_gives_each_talk_an_event_with_a_guid_kept_across_versions() {
    let app = app().await;
    let odd = accepted_paper(&app, SUBMITTERS[0], ODD_TITLE, "Ana Cruz", "Ben Reyes").await;
    let light = accepted_paper(&app, SUBMITTERS[1], "Lantern light on water", "Carla Santos", "Eli Tan").await;
    let signals = accepted_paper(&app, SUBMITTERS[2], "Harbour signals", "Dan Uy", "Fay Lim").await;
    place(&app, odd, "session-a", 30).await;
    place(&app, light, "session-a", 20).await;
    place(&app, signals, "session-b", 45).await;
    publish(&app, 1, "First programme").await;

    let (xml, json) = exports(&app).await;
    assert_giggity_fields(&xml);
    assert_same_events(&xml, &json);
    assert_eq!(xml.xpath("string(/schedule/version)"), "First programme");
    assert_eq!(json["schedule"]["version"], "First programme");

    // Every talk is an event (the keynote is its speaker's talk); a session without talks is
    // one; a session with talks is not (its title is theirs as a subtitle).
    let titles: Vec<String> = xml_events(&xml).into_values().collect();
    for title in [ODD_TITLE, "Lantern light on water", "Harbour signals", "Keynote: Computing with tides"] {
        assert_eq!(titles.iter().filter(|t| *t == title).count(), 1, "{title} is one event: {titles:?}");
    }
    for session in ["Opening of the fixture symposium", "Lantern posters online", "Fixture closing"] {
        assert!(titles.iter().any(|t| t == session), "{session}: a session without talks is an event");
    }
    for session in ["Fixture session A", "Fixture session B"] {
        assert!(!titles.iter().any(|t| t == session), "{session} holds talks: no event of its own");
    }
    assert_eq!(titles.len(), 7);
    let keynote = "//event[title = 'Keynote: Computing with tides']";
    assert_eq!(xml.xpath(&format!("string({keynote}/persons/person)")), "Prof. Caspian Threlkeld");
    assert_eq!(xml.xpath(&format!("string({keynote}/type)")), "keynote");
    let about = xml.xpath(&format!("string({keynote}/description)"));
    assert!(about.starts_with("Speaker: Prof. Caspian Threlkeld\nRole: Professor of Tidal Computing"), "{about}");

    // The title with markup characters arrives as it was typed, escaped in the XML text.
    assert!(xml.text.contains("Tides &amp; &lt;Lanterns&gt;: &quot;quoted&quot; and &apos;single&apos;"));
    let odd_event = "//event[starts-with(title, 'Tides')]";
    assert_eq!(xml.xpath(&format!("string({odd_event}/title)")), ODD_TITLE);
    assert_eq!(xml.xpath(&format!("string({odd_event}/subtitle)")), "Fixture session A");
    assert_eq!(xml.xpath(&format!("string({odd_event}/date)")), "2025-03-22T09:00:00+08:00");
    assert_eq!(xml.xpath(&format!("string({odd_event}/start)")), "09:00");
    assert_eq!(xml.xpath(&format!("string({odd_event}/duration)")), "00:30");
    assert_eq!(xml.xpath(&format!("string({odd_event}/room)")), "Tide Room A");
    assert_eq!(xml.xpath(&format!("string({odd_event}/track)")), "Tidal Computing");
    assert_eq!(xml.xpath(&format!("string({odd_event}/type)")), "talk");
    assert_eq!(xml.xpath(&format!("string({odd_event}/language)")), "en");
    assert_eq!(xml.count(&format!("{odd_event}/persons/person")), 2);
    assert_eq!(xml.xpath(&format!("string({odd_event}/persons/person[2])")), "Ben Reyes");
    assert_eq!(
        xml.xpath(&format!("string({odd_event}/links/link/@href)")),
        format!("{BASE}/schedule/sessions/session-a")
    );
    let url = xml.xpath(&format!("string({odd_event}/url)"));
    assert!(url.starts_with(&format!("{BASE}/schedule/talks/tides-lanterns")), "{url}");
    let slug = xml.xpath(&format!("string({odd_event}/slug)"));
    let id = xml.xpath(&format!("string({odd_event}/@id)"));
    assert_eq!(slug, format!("fixcon_2025-{id}-tides-lanterns-quoted-and-single"));
    assert_eq!(xml.xpath("string(//event[title = 'Lantern light on water']/start)"), "09:30", "after the first");
    let events = json_events(&json);
    let odd_json = events.values().find(|e| e["title"] == ODD_TITLE).expect("the talk in the JSON");
    assert_eq!(odd_json["persons"][0]["name"], "Ana Cruz");
    assert_eq!(odd_json["end"], "2025-03-22T09:30:00+08:00");
    // One person, one guid, in every talk they give.
    let ana = xml.xpath(&format!("string({odd_event}/persons/person[1]/@guid)"));
    assert_eq!(odd_json["persons"][0]["guid"].as_str(), Some(ana.as_str()));

    assert_no_private_data(&xml.text, &SUBMITTERS);
    assert_no_private_data(&json.to_string(), &SUBMITTERS);

    // Version 2 moves one talk: every event keeps its guid and id, the moved one has its new
    // time and room, and the version's name changes.
    place(&app, light, "session-b", 20).await;
    publish(&app, 2, "Second programme").await;
    let (xml2, json2) = exports(&app).await;
    assert_giggity_fields(&xml2);
    assert_same_events(&xml2, &json2);
    assert_eq!(xml2.xpath("string(/schedule/version)"), "Second programme");
    assert_eq!(xml_events(&xml2), xml_events(&xml), "the same guids for the same events");
    let ids = |xml: &Xml| -> Vec<String> {
        (1..=xml.count("//event")).map(|n| xml.xpath(&format!("string((//event)[{n}]/@id)"))).collect()
    };
    let (mut before, mut after) = (ids(&xml), ids(&xml2));
    before.sort();
    after.sort();
    assert_eq!(before, after, "the same ids");
    let moved = "//event[title = 'Lantern light on water']";
    assert_eq!(xml2.xpath(&format!("string({moved}/room)")), "Tide Room B");
    assert_eq!(xml2.xpath(&format!("string({moved}/start)")), "09:45", "after the talk already there");
    assert_eq!(xml2.xpath(&format!("string({moved}/subtitle)")), "Fixture session B");
}

/// The checks above mean something: both validators refuse a schedule an app could not read.
#[tokio::test]
async fn the_validators_refuse_a_broken_schedule() {
    let app = app().await;
    let (xml, json) = exports(&app).await;
    let broken = Xml::of(xml.text.replacen("<duration>01:00</duration>", "<duration>1 hour</duration>", 1));
    let errors = broken.validate().expect_err("a duration apps cannot read");
    assert!(errors.contains("duration"), "{errors}");
    let broken = Xml::of(xml.text.replacen("<room>Lantern Hall</room>", "", 1));
    let errors = broken.validate().expect_err("an event without its room");
    assert!(errors.contains("room"), "{errors}");

    let mut broken = json.clone();
    let day = &mut broken["schedule"]["conference"]["days"][0]["rooms"];
    let event = &mut day.as_object_mut().unwrap().values_mut().next().unwrap()[0];
    event["date"] = "2025-03-21 09:00".into();
    event["guid"] = "not-a-uuid".into();
    let errors = validate_json(&broken.to_string()).expect_err("a date without its offset, a guid that is none");
    assert!(errors.contains("is not a 'date-time'") && errors.contains("is not a 'uuid'"), "{errors}");
    let mut broken = json.clone();
    broken["schedule"]["conference"].as_object_mut().unwrap().remove("acronym");
    assert!(validate_json(&broken.to_string()).is_err(), "the conference without an acronym");
}

/// A day of the conference without sessions (the site's dates reach past the programme) is a
/// day of its own in both forms, midnight to midnight in the event's zone, with no rooms.
#[tokio::test]
async fn a_conference_day_without_sessions_is_an_empty_day() {
    let app = app().await;
    let seed = fixture::SEED.replacen(
        "'2025-03-23',\n    '2025-03-21T00:00:00+08:00'",
        "'2025-03-24',\n    '2025-03-21T00:00:00+08:00'",
        1,
    );
    assert_ne!(seed, fixture::SEED, "the site's end date moved");
    conference::seed::apply::seed_with(&app.pool, seed).await.expect("seed applies");
    assert!(app.state.content.reload().await.unwrap());
    let (xml, json) = exports(&app).await;
    assert_eq!(xml.xpath("string(//conference/end)"), "2025-03-24");
    assert_eq!(xml.xpath("string(//conference/days)"), "4");
    assert_eq!(xml.xpath("string(//day[@index=4]/@date)"), "2025-03-24");
    assert_eq!(xml.xpath("string(//day[@index=4]/@start)"), "2025-03-24T00:00:00+08:00");
    assert_eq!(xml.xpath("string(//day[@index=4]/@end)"), "2025-03-25T00:00:00+08:00");
    assert_eq!(xml.count("//day[@index=4]/room"), 0);
    let last = &json["schedule"]["conference"]["days"][3];
    assert_eq!(last["date"], "2025-03-24");
    assert_eq!(last["rooms"], serde_json::json!({}));
}
