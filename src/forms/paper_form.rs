//! What the paper form offers, shared by its page (`handlers::pages::info`) and its API
//! (`handlers::api::submission`), so neither imports the other.

/// conferenceSource options of the paper form (spec section 5), value and label.
pub const CONFERENCE_SOURCES: [(&str, &str); 9] = [
    ("conference-alerts", "Conference Alerts"),
    ("email", "Email"),
    ("friend-colleague-supervisor", "Friend / Colleague / Supervisor"),
    ("conference-alarm", "Conference Alarm"),
    ("facebook", "Facebook"),
    ("google-search", "Google Search"),
    ("eventbrite", "Eventbrite"),
    ("linkedin", "LinkedIn"),
    ("others", "Others"),
];

/// Bytes for people: `834 bytes`, `12.5 KB`, `1.2 MB` (1 KB = 1024 bytes).
pub fn human_size(bytes: i64) -> String {
    const UNITS: [&str; 3] = ["KB", "MB", "GB"];
    if bytes < 1024 {
        return format!("{bytes} bytes");
    }
    let mut size = bytes as f64 / 1024.0;
    let mut unit = 0;
    while size >= 1024.0 && unit < UNITS.len() - 1 {
        size /= 1024.0;
        unit += 1;
    }
    format!("{:.1} {}", size, UNITS[unit])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_for_people() {
        assert_eq!(human_size(834), "834 bytes");
        assert_eq!(human_size(12_800), "12.5 KB");
        assert_eq!(human_size(20 * 1024 * 1024), "20.0 MB");
    }
}
