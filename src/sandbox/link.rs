//! The sandbox's links: what a link asks the builder to open (read by `route`, the one
//! parser of the address), the link that carries the open draft, and a player's "Edit a
//! copy". It must not read the address itself: the shell hands it the hash.

use crate::route::{Link, Payload, Target, View};

/// What the sandbox's link asks it to open.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Opening {
    Nothing,
    /// `edit=<id>`: a copy of a built-in (a player's "Edit a copy").
    Builtin(String),
    /// `sj=`: a scenario's text; `copy=1` makes it a copy with a new id.
    Json {
        text: String,
        copy: bool,
    },
    /// `sz=`: the same, compressed (the shell inflates it).
    Deflated {
        bytes: Vec<u8>,
        copy: bool,
    },
}

impl Opening {
    /// What `#/sandbox?...` asks for, as `route` reads it; a link it refuses (damaged, or
    /// not the sandbox's) opens nothing here (the drafts, as usual).
    pub fn of(hash: &str) -> Opening {
        let View::Sandbox { open: Some(open), copy } = Link::parse(hash).view else {
            return Opening::Nothing;
        };
        match open {
            Target::Builtin(id) => Opening::Builtin(id.to_string()),
            Target::Carried(Payload::Json(text)) => Opening::Json { text, copy },
            Target::Carried(Payload::Deflated(bytes)) => Opening::Deflated { bytes, copy },
        }
    }
}

/// The sandbox's link carrying the open draft as typed: compressed when the browser could,
/// else as text.
pub fn link_hash(deflated: &Option<Vec<u8>>, text: &str) -> String {
    let payload = match deflated {
        Some(bytes) => Payload::Deflated(bytes.clone()),
        None => Payload::Json(text.to_owned()),
    };
    Link::to(View::Sandbox { open: Some(Target::Carried(payload)), copy: false }).to_hash()
}

/// A player's "Edit a copy": the sandbox on a copy of the scenario of `view` (a built-in by
/// its id, a scenario carried in a link by that link's payload).
pub fn copy_hash(view: &View) -> Option<String> {
    let (open, copy) = match view {
        View::Scenario { id } => (Target::Builtin(id.clone()), false),
        View::Custom { payload } => (Target::Carried(payload.clone()), true),
        _ => return None,
    };
    Some(Link::to(View::Sandbox { open: Some(open), copy }).to_hash())
}
