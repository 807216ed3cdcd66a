//! The query string of the organisers' lists: filters, search, sort and page, each checked
//! against the values a list knows. Anything else is a 400 page that says what was wrong
//! (never a 500, never silently ignored, so a mistyped bookmark does not show a wrong view).

use time::Date;
use time::macros::format_description;

use crate::db;
use crate::error::AppError;

/// Longest search text: longer would only slow the `LIKE` down.
const SEARCH_MAX_CHARS: usize = 200;
/// Highest page number taken (50 rows a page: far beyond any conference).
const PAGE_MAX: i64 = 100_000;

/// A list's query parameters: known names only, each at most once. Empty values (an unset
/// `<select>` or search box) mean "no filter".
#[derive(Debug, Clone, Default)]
pub struct Params {
    pairs: Vec<(String, String)>,
}

impl Params {
    /// Reads `raw` (the query string) for a list whose parameters are `known` (`page` is
    /// always known).
    pub fn parse(raw: Option<&str>, known: &[&str]) -> Result<Params, AppError> {
        let pairs: Vec<(String, String)> = serde_urlencoded::from_str(raw.unwrap_or(""))
            .map_err(|_| AppError::BadRequest("The address's query string cannot be read.".into()))?;
        for (at, (name, _)) in pairs.iter().enumerate() {
            if name != "page" && !known.contains(&name.as_str()) {
                let names = known.join(", ");
                return Err(AppError::BadRequest(format!(
                    "This list has no filter called \"{}\". It knows: {names}, page.",
                    shown(name)
                )));
            }
            if pairs[..at].iter().any(|(earlier, _)| earlier == name) {
                return Err(AppError::BadRequest(format!("The filter \"{name}\" is given twice.")));
            }
        }
        let pairs = pairs.into_iter().map(|(name, value)| (name, value.trim().to_owned())).collect();
        Ok(Params { pairs })
    }

    /// The value of `name`, when given and not empty.
    pub fn get(&self, name: &str) -> Option<&str> {
        self.pairs.iter().find(|(n, _)| n == name).map(|(_, v)| v.as_str()).filter(|v| !v.is_empty())
    }

    /// The value of `name`, as typed (empty when not given), to show again in the form.
    pub fn value(&self, name: &str) -> String {
        self.get(name).unwrap_or("").to_owned()
    }

    /// `name`'s value among `choices` (`(value in the URL, what it means)`).
    pub fn one_of<T: Copy>(&self, name: &str, choices: &[(&str, T)]) -> Result<Option<T>, AppError> {
        let Some(value) = self.get(name) else { return Ok(None) };
        match choices.iter().find(|(choice, _)| *choice == value) {
            Some((_, meaning)) => Ok(Some(*meaning)),
            None => {
                let allowed: Vec<&str> = choices.iter().map(|(choice, _)| *choice).collect();
                Err(AppError::BadRequest(format!(
                    "\"{}\" is not a value of the filter \"{name}\". Use one of: {}.",
                    shown(value),
                    allowed.join(", ")
                )))
            }
        }
    }

    /// `name` as a date `YYYY-MM-DD`.
    pub fn date(&self, name: &str) -> Result<Option<Date>, AppError> {
        let Some(value) = self.get(name) else { return Ok(None) };
        Date::parse(value, format_description!("[year]-[month]-[day]")).map(Some).map_err(|_| {
            AppError::BadRequest(format!("\"{}\" is not a date for \"{name}\": write it as YYYY-MM-DD.", shown(value)))
        })
    }

    /// The search text `q`.
    pub fn search(&self) -> Result<Option<String>, AppError> {
        let Some(value) = self.get("q") else { return Ok(None) };
        if value.chars().count() > SEARCH_MAX_CHARS || !db::storable(value) {
            return Err(AppError::BadRequest(format!(
                "The search text must be at most {SEARCH_MAX_CHARS} characters, without NUL characters."
            )));
        }
        Ok(Some(value.to_owned()))
    }

    /// The page number (1 when not given).
    pub fn page(&self) -> Result<i64, AppError> {
        let Some(value) = self.get("page") else { return Ok(1) };
        value.parse::<i64>().ok().filter(|page| (1..=PAGE_MAX).contains(page)).ok_or_else(|| {
            AppError::BadRequest(format!("\"{}\" is not a page number (1 to {PAGE_MAX}).", shown(value)))
        })
    }

    /// The query string of this view without its page, e.g. `paper_type=Abstract&q=tide`:
    /// for the CSV link and the pages' links.
    pub fn filters(&self) -> String {
        let kept: Vec<(&str, &str)> = self
            .pairs
            .iter()
            .filter(|(name, value)| name != "page" && !value.is_empty())
            .map(|(name, value)| (name.as_str(), value.as_str()))
            .collect();
        serde_urlencoded::to_string(kept).unwrap_or_default()
    }

    /// The filters as JSON, for the audit entry of a CSV download.
    pub fn details(&self) -> serde_json::Value {
        let map: serde_json::Map<String, serde_json::Value> = self
            .pairs
            .iter()
            .filter(|(name, value)| name != "page" && !value.is_empty())
            .map(|(name, value)| (name.clone(), serde_json::Value::String(value.clone())))
            .collect();
        serde_json::Value::Object(map)
    }
}

/// At most 60 characters of what was sent, for an error message.
fn shown(value: &str) -> String {
    value.chars().take(60).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unknown_names_and_values_are_refused_with_a_reason() {
        assert!(Params::parse(Some("colour=red"), &["q"]).is_err());
        assert!(Params::parse(Some("q=a&q=b"), &["q"]).is_err());
        let params = Params::parse(Some("kind=gift&page=0"), &["kind"]).unwrap();
        let err = params.one_of("kind", &[("plan", 1)]).unwrap_err();
        assert!(err.to_string().contains("Use one of: plan"), "{err}");
        assert!(params.page().is_err());
        let params = Params::parse(Some("kind=&q=+tide+&page=2"), &["kind", "q"]).unwrap();
        assert_eq!(params.one_of("kind", &[("plan", 1)]).unwrap(), None, "empty is no filter");
        assert_eq!(params.filters(), "q=tide");
        assert_eq!(params.page().unwrap(), 2);
    }
}
