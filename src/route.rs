//! Hash routes of the web app, parsed and printed as plain strings.
//!
//! Owns the mapping between `location.hash` and [`Route`]; it must not touch the browser
//! (the shell reads the hash and hands it here), so every rule is tested natively.
//! Anything a user types into the address bar is untrusted: parsing never panics and an
//! unrecognised hash becomes [`Route::NotFound`] carrying what was asked for.

/// A place in the app.
#[derive(Clone, Debug, Eq, PartialEq)]
pub enum Route {
    /// `#/` (or no hash at all): the catalogue.
    Home,
    /// `#/s/<id>` with an optional `?t=<ms>` cursor time.
    Scenario { id: String, t_ms: Option<u64> },
    /// `#/compare/<id>`: variants of one scenario on one shared scrubber.
    Compare { id: String },
    /// Any other hash; `asked` is the hash as given, without the leading `#`.
    NotFound { asked: String },
}

impl Route {
    /// Parses a `location.hash` value (with or without its leading `#`).
    pub fn parse(hash: &str) -> Route {
        let raw = hash.strip_prefix('#').unwrap_or(hash);
        let (path, query) = match raw.split_once('?') {
            Some((path, query)) => (path, Some(query)),
            None => (raw, None),
        };
        let not_found = || Route::NotFound { asked: raw.to_owned() };
        let segments: Vec<&str> = path.trim_start_matches('/').split('/').collect();
        match segments.as_slice() {
            [""] => Route::Home,
            ["s", id] if is_scenario_id(id) => {
                let mut t_ms = None;
                for pair in query.unwrap_or("").split('&').filter(|p| !p.is_empty()) {
                    // Unknown parameters are ignored so that newer links still open.
                    if let Some(("t", value)) = pair.split_once('=') {
                        match value.parse::<u64>() {
                            Ok(ms) => t_ms = Some(ms),
                            Err(_) => return not_found(),
                        }
                    }
                }
                Route::Scenario { id: (*id).to_owned(), t_ms }
            }
            ["compare", id] if is_scenario_id(id) => Route::Compare { id: (*id).to_owned() },
            _ => not_found(),
        }
    }

    /// The hash that leads back to this route, starting with `#`.
    pub fn href(&self) -> String {
        match self {
            Route::Home => "#/".to_owned(),
            Route::Scenario { id, t_ms: None } => format!("#/s/{id}"),
            Route::Scenario { id, t_ms: Some(ms) } => format!("#/s/{id}?t={ms}"),
            Route::Compare { id } => format!("#/compare/{id}"),
            Route::NotFound { asked } => format!("#{asked}"),
        }
    }
}

/// Scenario ids are lower-case words joined by `-`, at most 64 bytes.
pub fn is_scenario_id(id: &str) -> bool {
    !id.is_empty()
        && id.len() <= 64
        && id.bytes().all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
        && !id.starts_with('-')
        && !id.ends_with('-')
}

#[cfg(test)]
mod tests {
    use super::Route;

    fn check(hash: &str, expect: Route) {
        assert_eq!(Route::parse(hash), expect, "parsing {hash:?}");
    }

    #[test]
    fn parses_home_scenario_and_unknown_routes() {
        check("", Route::Home);
        check("#", Route::Home);
        check("#/", Route::Home);
        check("#/s/gc-pause-fenced", Route::Scenario { id: "gc-pause-fenced".into(), t_ms: None });
        check(
            "#/s/gc-pause-fenced?t=31500",
            Route::Scenario { id: "gc-pause-fenced".into(), t_ms: Some(31_500) },
        );
        check("#/s/x?lang=vi&t=5", Route::Scenario { id: "x".into(), t_ms: Some(5) });
        check("#/nope", Route::NotFound { asked: "/nope".into() });
        check("#/s/", Route::NotFound { asked: "/s/".into() });
        check("#/s/Bad_Id", Route::NotFound { asked: "/s/Bad_Id".into() });
        check("#/s/a/b", Route::NotFound { asked: "/s/a/b".into() });
        check("#/s/a?t=-1", Route::NotFound { asked: "/s/a?t=-1".into() });
        check(
            "#/s/a?t=99999999999999999999999",
            Route::NotFound { asked: "/s/a?t=99999999999999999999999".into() },
        );
    }

    #[test]
    fn href_round_trips() {
        for route in [
            Route::Home,
            Route::Scenario { id: "a-b".into(), t_ms: None },
            Route::Scenario { id: "a-b".into(), t_ms: Some(0) },
            Route::Compare { id: "a-b".into() },
            Route::NotFound { asked: "/what".into() },
        ] {
            assert_eq!(Route::parse(&route.href()), route);
        }
    }
}
