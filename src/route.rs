//! Links: the whole state of a view in the URL hash, versioned (`v=1`), parsed and printed.
//!
//! Owns the mapping between `location.hash` and [`Link`]: the view (a built-in scenario by
//! id, or a custom scenario carried in the link), the cursor time, what-if parameters,
//! language, embed mode and the origins allowed to talk to an embed. Anything in a URL is
//! untrusted: parsing never panics, and a malformed, truncated or newer link becomes
//! [`View::Invalid`] with a message for the learner. Pure; the shell reads the hash.

use crate::lang::Lang;
use crate::sim::scenario::ScenarioId;
use crate::whatif::WhatIf;

/// The link format this build writes and reads.
pub const VERSION: u32 = 1;

/// The longest hash we try to read (a custom scenario is at most 256 KiB of JSON; its
/// base64url text is a third longer).
pub const HASH_BYTES_MAX: usize = 400 * 1024;

#[derive(Clone, Debug, Default, Eq, PartialEq)]
pub struct Link {
    pub view: View,
    /// Cursor time (`t=`).
    pub t_ms: Option<u64>,
    /// What-if parameters that differ from the scenario as written.
    pub whatif: WhatIf,
    /// `lang=`; none means "from the browser".
    pub lang: Option<Lang>,
    /// `embed=1`: the compact player without site chrome.
    pub embed: bool,
    /// `reveal=1`: the instructor's "show everything" (no prompt stops, nothing hidden).
    pub reveal: bool,
    /// `q=`: the quiz question shown (1 for the first), so Back returns to it.
    pub question: Option<usize>,
    /// `questions=id,id,...`: the quiz asks only these, in this order (ids of the bank's
    /// questions: letters, digits and `-`; the quiz says which it does not know).
    pub questions: Vec<String>,
    /// `origins=`: origins allowed to exchange postMessage with an embed (none by default).
    pub origins: Vec<String>,
    /// How an embed behaves toward its host page and its learner (`frame=`, `steps=`, ...).
    pub options: EmbedOptions,
}

/// The link's options for a course page that embeds the playground. All optional; a link
/// without them behaves as before they existed.
#[derive(Clone, Debug, Default, Eq, PartialEq)]
pub struct EmbedOptions {
    /// `frame=`: an id echoed in every message, so a page with several embeds can tell
    /// them apart (letters, digits, `-`, `_` and `.`, at most 64).
    pub frame: Option<String>,
    /// `steps=milestones`: `step` messages only at milestones.
    pub steps: crate::embed::Steps,
    /// `actor=`: the xAPI agent (JSON) named in learning events; none: anonymous.
    pub actor: Option<String>,
    /// `from=`, `to=`: the stretch of the run (in ms) the learner cannot leave.
    pub from_ms: Option<u64>,
    pub to_ms: Option<u64>,
    /// `controls=`: how much of the player's chrome shows.
    pub controls: Controls,
    /// `theme=`: light, dark, or the reader's setting.
    pub theme: Theme,
    /// `autoplay=1`: start playing when loaded (prompts still stop it).
    pub autoplay: bool,
    /// `registration=`: the attempt's registration in learning events (a UUID, as an LMS
    /// or cmi5 gives it).
    pub registration: Option<String>,
    /// `base=`: the address activity ids are made from, so they stay the same when the site
    /// moves (an absolute `http(s)` address; the site's own by default).
    pub base: Option<String>,
    /// `tools=1`: an embed shows "Copy link", "Export and embed" and "Edit a copy", which
    /// lead out of the course page into the lab; hidden in embeds unless asked for.
    pub tools: bool,
}

/// `controls=` values, in the order of [`Controls`].
const CONTROLS: [&str; 3] = ["full", "compact", "none"];
/// `theme=` values, in the order of [`Theme`].
const THEMES: [&str; 3] = ["auto", "light", "dark"];

#[derive(Clone, Copy, Debug, Default, Eq, PartialEq)]
pub enum Controls {
    #[default]
    Full,
    /// Playback and the story only: no what-if, sharing, exports or event log.
    Compact,
    /// The timeline and the story, driven by the host page (or `autoplay=1`).
    None,
}

#[derive(Clone, Copy, Debug, Default, Eq, PartialEq)]
pub enum Theme {
    #[default]
    Auto,
    Light,
    Dark,
}

#[derive(Clone, Debug, Default, Eq, PartialEq)]
pub enum View {
    /// `#/`
    #[default]
    Home,
    /// `#/s/<id>`: a built-in scenario.
    Scenario { id: ScenarioId },
    /// `#/s?sj=<base64url JSON>` or `#/s?sz=<base64url deflate-raw JSON>`: a scenario
    /// carried in the link itself.
    Custom { payload: Payload },
    /// `#/compare/<id>`
    Compare { id: ScenarioId },
    /// `#/export/<id>` (with the player's what-if parameters): the run's JSON and Mermaid
    /// downloads, on the lab page so the main page does not carry the exporters.
    Export { id: ScenarioId },
    /// `#/handout/<id>` (with the player's what-if parameters): a printable handout, on
    /// the lab page.
    Handout { id: ScenarioId },
    /// `#/quiz`
    Quiz,
    /// `#/challenge` (the chapter's list) or `#/challenge/<id>`: a challenge graded by the
    /// model.
    Challenge { id: Option<ScenarioId> },
    /// `#/sandbox`: the lesson builder, opening the author's drafts, or a copy of a
    /// built-in (`edit=<id>`), or a scenario carried in the link (`sj=`/`sz=`, made a copy
    /// with a new id by `copy=1`).
    Sandbox { open: Option<Target>, copy: bool },
    /// `#/explore`
    Explore,
    /// `#/break/<id>` or `#/break?sz=...`: the schedule search ("try to break it") on a
    /// built-in or on a scenario carried in the link (the lesson builder's draft).
    Break { target: Target },
    /// A route we do not know; `asked` is the path as given.
    NotFound { asked: String },
    /// A link we cannot read (malformed, truncated, or from a newer version).
    Invalid { message: String },
}

/// The two pages the site ships as, each with its own wasm bundle, so that the first
/// download (the catalogue and a scenario) carries no editor, console or explorer code.
#[derive(Clone, Copy, Debug, Eq, PartialEq)]
pub enum Page {
    /// `index.html`: the catalogue, the player of the built-in scenarios, their embeds.
    Main,
    /// `lab.html`: the quiz, comparisons, exports and handouts, the sandbox with its
    /// consoles, and the player of scenarios carried in a link (the sandbox's output).
    Lab,
    /// `explore.html`: the risk explorer, a bundle of its own because it runs the simulator
    /// millions of times and is built for speed, not size.
    Explore,
}

impl Page {
    /// The page's address relative to the other page (both sit in the same folder).
    pub fn path(self) -> &'static str {
        match self {
            Page::Main => "./",
            Page::Lab => "lab.html",
            Page::Explore => "explore.html",
        }
    }
}

impl View {
    /// The page that shows this view. Unknown and unreadable links belong to the main page,
    /// which explains them.
    pub fn page(&self) -> Page {
        match self {
            View::Quiz
            | View::Challenge { .. }
            | View::Compare { .. }
            | View::Export { .. }
            | View::Handout { .. }
            | View::Sandbox { .. }
            | View::Custom { .. } => Page::Lab,
            View::Explore | View::Break { .. } => Page::Explore,
            View::Home | View::Scenario { .. } | View::NotFound { .. } | View::Invalid { .. } => {
                Page::Main
            }
        }
    }
}

/// What a search runs on, or what the sandbox opens.
#[derive(Clone, Debug, Eq, PartialEq)]
pub enum Target {
    Builtin(ScenarioId),
    Carried(Payload),
}

/// A custom scenario inside a link, still encoded.
#[derive(Clone, Debug, Eq, PartialEq)]
pub enum Payload {
    /// The scenario's JSON text (from `sj=`).
    Json(String),
    /// deflate-raw compressed JSON (from `sz=`); the shell inflates it.
    Deflated(Vec<u8>),
}

impl EmbedOptions {
    /// The options' parameters, in the order links have always written them.
    fn to_query(&self, query: &mut Vec<(String, String)>) {
        let o = self;
        if let Some(frame) = &o.frame {
            query.push(("frame".into(), frame.clone()));
        }
        if o.steps == crate::embed::Steps::Milestones {
            query.push(("steps".into(), "milestones".into()));
        }
        if let Some(actor) = &o.actor {
            query.push(("actor".into(), actor.clone()));
        }
        if let Some(registration) = &o.registration {
            query.push(("registration".into(), registration.clone()));
        }
        if let Some(base) = &o.base {
            query.push(("base".into(), base.clone()));
        }
        if let Some(ms) = o.from_ms {
            query.push(("from".into(), ms.to_string()));
        }
        if let Some(ms) = o.to_ms {
            query.push(("to".into(), ms.to_string()));
        }
        if o.controls != Controls::Full {
            query.push(("controls".into(), CONTROLS[o.controls as usize].into()));
        }
        if o.theme != Theme::Auto {
            query.push(("theme".into(), THEMES[o.theme as usize].into()));
        }
        if o.autoplay {
            query.push(("autoplay".into(), "1".into()));
        }
        if o.tools {
            query.push(("tools".into(), "1".into()));
        }
    }
}

impl Link {
    /// A plain link to a view.
    pub fn to(view: View) -> Link {
        Link { view, ..Link::default() }
    }

    /// The settings `embed.js` carries into its frame's address, as the `data-*` attributes
    /// of its element (`data-ttl="3000"`): every parameter of this link but the view and
    /// the ones the script writes itself (`embed`, `frame`, `origins`), so the script
    /// snippet shows what the iframe snippet shows. Names are the link's parameter names.
    pub fn embed_attributes(&self) -> Vec<(String, String)> {
        let own = Link {
            embed: false,
            origins: Vec::new(),
            question: None,
            options: EmbedOptions {
                frame: None,
                actor: None,
                registration: None,
                ..self.options.clone()
            },
            ..self.clone()
        };
        let hash = own.to_hash();
        let query = hash.split_once('?').map_or("", |(_, query)| query);
        query
            .split('&')
            .filter_map(|pair| pair.split_once('='))
            .filter(|(name, _)| *name != "v")
            .map(|(name, value)| {
                let value = percent_decode(value).unwrap_or_else(|| value.to_owned());
                (name.to_owned(), value)
            })
            .collect()
    }

    /// Parses a `location.hash` value (with or without its leading `#`), reading `actor=`
    /// with serde_json ([`crate::xapi::parse_actor`]).
    pub fn parse(hash: &str) -> Link {
        Link::parse_with(hash, crate::xapi::parse_actor)
    }

    /// The same, with `actor` reading the agent in `actor=` (compact, or `None` when it
    /// names nobody): the web pages pass one that uses the browser's JSON parser, so the
    /// first page carries no JSON parser of its own (`ui::nav::checked_actor`).
    /// Longer than 100 lines: one arm per view and per query member, each a line or two.
    pub fn parse_with(hash: &str, actor: fn(&str) -> Option<String>) -> Link {
        let invalid = |message: String| Link::to(View::Invalid { message });
        if hash.len() > HASH_BYTES_MAX {
            return invalid(format!(
                "This link is {} bytes long, more than this playground reads.",
                hash.len()
            ));
        }
        let raw = hash.strip_prefix('#').unwrap_or(hash);
        let (path, query) = raw.split_once('?').unwrap_or((raw, ""));
        let mut link = Link::default();
        let mut payload: Option<Payload> = None;
        // The sandbox's own members: a built-in to copy, and whether a carried one is copied.
        let (mut edit, mut copy) = (None, false);
        for pair in query.split('&').filter(|p| !p.is_empty()) {
            let (name, value) = pair.split_once('=').unwrap_or((pair, ""));
            let Some(value) = percent_decode(value) else {
                return invalid(format!(
                    "The link's parameter {name} is not valid percent-encoding."
                ));
            };
            match name {
                "v" => match value.parse::<u32>() {
                    Ok(v) if v <= VERSION => {}
                    Ok(v) => {
                        return invalid(format!(
                            "This link was made by a newer version of the playground (link format v{v}; this one reads v{VERSION})."
                        ));
                    }
                    // Digits too many for any version this reader knows: a newer one.
                    Err(_) if !value.is_empty() && value.bytes().all(|b| b.is_ascii_digit()) => {
                        return invalid(format!(
                            "This link was made by a newer version of the playground (link format v{value}; this one reads v{VERSION})."
                        ));
                    }
                    Err(_) => return invalid(format!("The link's version v={value} is not a number.")),
                },
                "t" => match value.parse::<u64>() {
                    Ok(ms) => link.t_ms = Some(ms),
                    Err(_) => return invalid(format!("The link's time t={value} is not a whole number of milliseconds.")),
                },
                "lang" => match Lang::from_code(&value) {
                    Some(lang) => link.lang = Some(lang),
                    None => return bad_option(name, &value, "en, id or vi"),
                },
                "embed" | "reveal" | "autoplay" | "tools" => {
                    let on = match value.as_str() {
                        "1" => true,
                        "0" => false,
                        _ => return bad_option(name, &value, "1 or 0"),
                    };
                    match name {
                        "embed" => link.embed = on,
                        "reveal" => link.reveal = on,
                        "tools" => link.options.tools = on,
                        _ => link.options.autoplay = on,
                    }
                }
                "q" => match value.parse::<usize>() {
                    Ok(n) if n >= 1 => link.question = Some(n - 1),
                    _ => return invalid(format!("The link's quiz question q={value} is not a question number.")),
                },
                "questions" => {
                    let ids: Vec<String> =
                        value.split(',').filter(|id| !id.is_empty()).map(str::to_owned).collect();
                    let plain = |id: &String| {
                        id.len() <= 64 && id.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-')
                    };
                    if ids.is_empty() || ids.len() > 200 || !ids.iter().all(plain) {
                        return bad_option(name, &value, "question ids (letters, digits and -) separated by commas");
                    }
                    link.questions = ids;
                }
                "origins" => {
                    link.origins = value.split(',').filter_map(normal_origin).collect();
                }
                "frame" => match value.len() <= 64
                    && !value.is_empty()
                    && value.bytes().all(|b| b.is_ascii_alphanumeric() || b"-_.".contains(&b))
                {
                    true => link.options.frame = Some(value),
                    false => return bad_option(name, &value, "a frame id (letters, digits, - _ . up to 64)"),
                },
                "steps" => match one_of(&value, &["each", "milestones"]) {
                    Some(0) => link.options.steps = crate::embed::Steps::Each,
                    Some(_) => link.options.steps = crate::embed::Steps::Milestones,
                    None => return bad_option(name, &value, "each or milestones"),
                },
                // An agent is a name and an address or account: 2 KiB is far more than one
                // needs, and the actor is repeated in every statement sent.
                "actor" if value.len() > ACTOR_MAX => {
                    return invalid(format!(
                        "The link's actor= is {} bytes long; an xAPI agent may have at most {ACTOR_MAX} here.",
                        value.len()
                    ));
                }
                "actor" => match actor(&value) {
                    Some(actor) => link.options.actor = Some(actor),
                    None => return bad_option(name, &value, "an xAPI agent (JSON with mbox, account, openid or mbox_sha1sum)"),
                },
                "registration" => match crate::xapi::is_uuid(&value) {
                    true => link.options.registration = Some(value.to_ascii_lowercase()),
                    false => return bad_option(name, &value, "a UUID (8-4-4-4-12 hex digits)"),
                },
                "base" => match crate::xapi::activity_base(&value) {
                    Some(base) => link.options.base = Some(base),
                    None => return bad_option(name, &value, "an absolute http(s) address"),
                },
                "from" | "to" => match value.parse::<u64>() {
                    Ok(ms) if name == "from" => link.options.from_ms = Some(ms),
                    Ok(ms) => link.options.to_ms = Some(ms),
                    Err(_) => return bad_option(name, &value, "a whole number of milliseconds"),
                },
                "controls" => match one_of(&value, &CONTROLS) {
                    Some(i) => link.options.controls = [Controls::Full, Controls::Compact, Controls::None][i],
                    None => return bad_option(name, &value, "full, compact or none"),
                },
                "theme" => match one_of(&value, &THEMES) {
                    Some(i) => link.options.theme = [Theme::Auto, Theme::Light, Theme::Dark][i],
                    None => return bad_option(name, &value, "auto, light or dark"),
                },
                "edit" => match ScenarioId::parse(&value) {
                    Some(id) => edit = Some(id),
                    None => return bad_option(name, &value, "a scenario id"),
                },
                "copy" => copy = value == "1",
                "sj" => match base64url_decode(&value).and_then(|bytes| String::from_utf8(bytes).ok()) {
                    Some(json) => payload = Some(Payload::Json(json)),
                    None => return invalid("The scenario in this link is damaged (sj= is not base64url JSON); was it cut short?".to_owned()),
                },
                "sz" => match base64url_decode(&value) {
                    Some(bytes) if !bytes.is_empty() => payload = Some(Payload::Deflated(bytes)),
                    _ => return invalid("The scenario in this link is damaged (sz= is not base64url); was it cut short?".to_owned()),
                },
                other => {
                    // What-if knobs; other unknown names are ignored so newer links still open.
                    if let Err(message) = link.whatif.set_from_query(other, &value)
                        && !message.starts_with("unknown parameter") {
                            return invalid(format!("This link's parameter is not understood: {message}."));
                        }
                }
            }
        }
        if let (Some(from), Some(to)) = (link.options.from_ms, link.options.to_ms)
            && from > to
        {
            return invalid(format!(
                "The link's stretch of the run ends before it starts (from={from}, to={to})."
            ));
        }
        let segments: Vec<&str> = path.trim_start_matches('/').split('/').collect();
        link.view = match (segments.as_slice(), payload) {
            ([""], None) => View::Home,
            (["s"], Some(payload)) => View::Custom { payload },
            (["s", id], None) if let Some(id) = ScenarioId::parse(id) => View::Scenario { id },
            (["compare", id], None) if let Some(id) = ScenarioId::parse(id) => View::Compare { id },
            (["export", id], None) if let Some(id) = ScenarioId::parse(id) => View::Export { id },
            (["handout", id], None) if let Some(id) = ScenarioId::parse(id) => View::Handout { id },
            (["quiz"], None) => View::Quiz,
            (["challenge"], None) => View::Challenge { id: None },
            (["challenge", id], None) if let Some(id) = ScenarioId::parse(id) => {
                View::Challenge { id: Some(id) }
            }
            (["sandbox"], payload) => {
                let open = edit.map(Target::Builtin).or(payload.map(Target::Carried));
                View::Sandbox { open, copy }
            }
            (["explore"], None) => View::Explore,
            (["break", id], None) if let Some(id) = ScenarioId::parse(id) => {
                View::Break { target: Target::Builtin(id) }
            }
            (["break"], Some(payload)) => View::Break { target: Target::Carried(payload) },
            (["s"], None) => return invalid("This link names no scenario.".to_owned()),
            // A scenario payload only belongs on `#/s` (found by tests/fuzz: it used to
            // turn `#?sj=...` into a not-found page that printed back as home).
            (_, Some(_)) => {
                return invalid(
                    "This link carries a scenario but is not a scenario link (#/s?... or #/break?...).".to_owned(),
                );
            }
            _ => View::NotFound { asked: path.to_owned() },
        };
        link
    }

    /// The hash that leads back to this link, starting with `#`.
    pub fn to_hash(&self) -> String {
        let (path, mut query): (String, Vec<(String, String)>) = match &self.view {
            View::Home => ("/".to_owned(), Vec::new()),
            View::Scenario { id } => (format!("/s/{id}"), Vec::new()),
            View::Custom { payload: Payload::Json(json) } => {
                ("/s".to_owned(), vec![("sj".into(), base64url_encode(json.as_bytes()))])
            }
            View::Custom { payload: Payload::Deflated(bytes) } => {
                ("/s".to_owned(), vec![("sz".into(), base64url_encode(bytes))])
            }
            View::Compare { id } => (format!("/compare/{id}"), Vec::new()),
            View::Export { id } => (format!("/export/{id}"), Vec::new()),
            View::Handout { id } => (format!("/handout/{id}"), Vec::new()),
            View::Quiz => ("/quiz".to_owned(), Vec::new()),
            View::Challenge { id: None } => ("/challenge".to_owned(), Vec::new()),
            View::Challenge { id: Some(id) } => (format!("/challenge/{id}"), Vec::new()),
            View::Sandbox { open, copy } => {
                let mut query = match open {
                    None => Vec::new(),
                    Some(Target::Builtin(id)) => vec![("edit".into(), id.to_string())],
                    Some(Target::Carried(Payload::Json(json))) => {
                        vec![("sj".into(), base64url_encode(json.as_bytes()))]
                    }
                    Some(Target::Carried(Payload::Deflated(bytes))) => {
                        vec![("sz".into(), base64url_encode(bytes))]
                    }
                };
                if *copy {
                    query.push(("copy".into(), "1".into()));
                }
                ("/sandbox".to_owned(), query)
            }
            View::Explore => ("/explore".to_owned(), Vec::new()),
            View::Break { target: Target::Builtin(id) } => (format!("/break/{id}"), Vec::new()),
            View::Break { target: Target::Carried(Payload::Json(json)) } => {
                ("/break".to_owned(), vec![("sj".into(), base64url_encode(json.as_bytes()))])
            }
            View::Break { target: Target::Carried(Payload::Deflated(bytes)) } => {
                ("/break".to_owned(), vec![("sz".into(), base64url_encode(bytes))])
            }
            View::NotFound { asked } => (asked.clone(), Vec::new()),
            View::Invalid { .. } => ("/".to_owned(), Vec::new()),
        };
        let plain = matches!(self.view, View::Home | View::NotFound { .. } | View::Invalid { .. });
        if let Some(t) = self.t_ms {
            query.push(("t".into(), t.to_string()));
        }
        for (name, value) in self.whatif.to_query() {
            query.push((name.to_owned(), value));
        }
        if let Some(lang) = self.lang {
            query.push(("lang".into(), lang.code().to_owned()));
        }
        if self.embed {
            query.push(("embed".into(), "1".into()));
        }
        if self.reveal {
            query.push(("reveal".into(), "1".into()));
        }
        if !self.questions.is_empty() {
            query.push(("questions".into(), self.questions.join(",")));
        }
        if let Some(q) = self.question {
            query.push(("q".into(), (q + 1).to_string()));
        }
        if !self.origins.is_empty() {
            query.push(("origins".into(), self.origins.join(",")));
        }
        self.options.to_query(&mut query);
        if query.is_empty() && plain {
            return format!("#{path}");
        }
        let mut text = format!("#{path}?v={VERSION}");
        for (name, value) in query {
            text.push('&');
            text.push_str(&name);
            text.push('=');
            text.push_str(&percent_encode(&value));
        }
        text
    }
}

/// The longest `actor=` a link may carry, in bytes.
const ACTOR_MAX: usize = 2048;

fn bad_option(name: &str, value: &str, expected: &str) -> Link {
    Link::to(View::Invalid { message: format!("The link's {name}={value} is not {expected}.") })
}

fn one_of(value: &str, names: &[&str]) -> Option<usize> {
    names.iter().position(|n| *n == value)
}

/// `https://course.example:8443` as given, without a path; anything else is dropped.
fn normal_origin(text: &str) -> Option<String> {
    let text = text.trim().trim_end_matches('/');
    let rest = text.strip_prefix("https://").or_else(|| text.strip_prefix("http://"))?;
    let valid = !rest.is_empty()
        && rest.len() <= 253
        && rest.bytes().all(|b| {
            b.is_ascii_alphanumeric()
                || b == b'.'
                || b == b'-'
                || b == b':'
                || b == b'['
                || b == b']'
        });
    valid.then(|| text.to_owned())
}

const UNRESERVED: &[u8] = b"-._~";

pub fn percent_encode(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for byte in text.bytes() {
        if byte.is_ascii_alphanumeric() || UNRESERVED.contains(&byte) || byte == b',' {
            out.push(char::from(byte));
        } else {
            out.push_str(&format!("%{byte:02X}"));
        }
    }
    out
}

/// Decodes `%XX` escapes (and `+` as a space); `None` for a broken escape or invalid UTF-8.
pub fn percent_decode(text: &str) -> Option<String> {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'%' => {
                let hex = bytes.get(i + 1..i + 3)?;
                let hex = std::str::from_utf8(hex).ok()?;
                out.push(u8::from_str_radix(hex, 16).ok()?);
                i += 3;
            }
            b'+' => {
                out.push(b' ');
                i += 1;
            }
            b => {
                out.push(b);
                i += 1;
            }
        }
    }
    String::from_utf8(out).ok()
}

const B64: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

/// base64url without padding.
pub fn base64url_encode(bytes: &[u8]) -> String {
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let n =
            chunk.iter().enumerate().fold(0u32, |n, (i, &b)| n | (u32::from(b) << (16 - 8 * i)));
        let chars = chunk.len() + 1;
        for i in 0..chars {
            out.push(char::from(B64[((n >> (18 - 6 * i)) & 63) as usize]));
        }
    }
    out
}

/// Decodes base64url (padding optional); `None` for any other character or a bad length.
pub fn base64url_decode(text: &str) -> Option<Vec<u8>> {
    let text = text.trim_end_matches('=');
    if text.len() % 4 == 1 {
        return None;
    }
    let mut out = Vec::with_capacity(text.len() * 3 / 4);
    let mut acc = 0u32;
    let mut bits = 0;
    for c in text.bytes() {
        let value = B64.iter().position(|&b| b == c)? as u32;
        acc = (acc << 6) | value;
        bits += 6;
        if bits >= 8 {
            bits -= 8;
            out.push((acc >> bits) as u8);
            acc &= (1 << bits) - 1;
        }
    }
    Some(out)
}

#[cfg(test)]
mod tests;
