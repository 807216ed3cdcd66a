//! Between editions (DESIGN.md section 17): once the current edition's last day has ended in
//! the event's zone and the countdown's target has passed, the home page says the conference
//! took place instead of showing a countdown frozen at zero. Until then the countdown behaves
//! as the spec says (it stops at its target).

use time::format_description::well_known::Rfc3339;
use time::{Duration, OffsetDateTime};

use crate::clock::zone::Zone;

/// Whether the edition is over at `now`: its last day `end_date` (`YYYY-MM-DD`) has ended in
/// `zone` and the countdown's `target` (RFC 3339) has passed. A last day that is not a date
/// keeps the countdown (the seed check reports it); a target that is not a time counts as
/// passed, since the countdown shows zeros for it.
pub fn has_taken_place(end_date: &str, target: &str, zone: &Zone, now: OffsetDateTime) -> bool {
    let Some(last_day) = crate::clock::dates::parse(end_date) else { return false };
    let Some(day_after) = last_day.checked_add(Duration::days(1)) else { return false };
    let day_over = now >= zone.localize(day_after.midnight());
    let target_passed = OffsetDateTime::parse(target, &Rfc3339).map_or(true, |target| now >= target);
    day_over && target_passed
}

#[cfg(test)]
mod tests {
    use time::macros::datetime;

    use super::*;

    #[test]
    fn the_edition_is_over_when_its_last_day_ends_in_the_event_zone() {
        let singapore = Zone::fixed("Asia/Singapore", time::macros::offset!(+8));
        let over = |now| has_taken_place("2025-03-23", "2025-03-21T00:00:00+08:00", &singapore, now);
        // 24 March 00:00 in Singapore is 23 March 16:00 UTC.
        assert!(!over(datetime!(2025-03-23 15:59 UTC)), "a minute before: the last day");
        assert!(over(datetime!(2025-03-23 16:00 UTC)));
        assert!(over(datetime!(2025-03-23 16:01 UTC)));
        assert!(!over(datetime!(2025-03-20 12:00 UTC)), "before the conference");
    }

    #[test]
    fn a_countdown_target_after_the_last_day_keeps_the_countdown_until_it_passes() {
        let utc = Zone::fixed("UTC", time::UtcOffset::UTC);
        let now = datetime!(2025-04-01 00:00 UTC);
        assert!(!has_taken_place("2025-03-23", "2025-04-02T00:00:00Z", &utc, now));
        assert!(has_taken_place("2025-03-23", "2025-04-01T00:00:00Z", &utc, now), "at the target");
        assert!(has_taken_place("2025-03-23", "not a time", &utc, now), "a target that is no time shows zeros");
        assert!(!has_taken_place("23 March", "2025-03-21T00:00:00Z", &utc, now), "a last day that is no date");
    }
}
