//! Reading iCalendar answers back (RFC 5545): the programme's, the talks' and the moved-talk
//! mail's calendars are checked entry by entry.

/// The events of an iCalendar text, each as its unfolded content lines (section 3.1). Fails
/// when the text is not one `VCALENDAR` with CRLF line ends.
pub fn events(calendar: &str) -> Vec<Vec<String>> {
    assert!(calendar.starts_with("BEGIN:VCALENDAR\r\n"), "{calendar}");
    assert!(calendar.trim_end().ends_with("END:VCALENDAR"), "{calendar}");
    let unfolded = calendar.replace("\r\n ", "");
    let mut events = Vec::new();
    let mut current: Option<Vec<String>> = None;
    for line in unfolded.split("\r\n") {
        match line {
            "BEGIN:VEVENT" => current = Some(Vec::new()),
            "END:VEVENT" => events.push(current.take().expect("an event ends after it began")),
            _ => {
                if let Some(event) = current.as_mut() {
                    event.push(line.to_owned());
                }
            }
        }
    }
    events
}

/// The value of property `name` (without parameters) of an event from [`events`].
pub fn property<'a>(event: &'a [String], name: &str) -> Option<&'a str> {
    event.iter().find_map(|line| line.strip_prefix(name).and_then(|rest| rest.strip_prefix(':')))
}
