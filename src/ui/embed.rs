//! The host-page channel of an embedded playground: one listener for the page's whole life
//! (installed before the first view mounts, so a command that arrives early is queued,
//! not lost), posting protocol messages and learning events to the allowed origins, and
//! heights to any parent. The rules (message shapes, origin check, when heights go) are in
//! `crate::embed` and `crate::xapi`; this is only the browser glue.

use std::cell::RefCell;
use std::rc::Rc;

use gloo_events::EventListener;
use wasm_bindgen::JsCast;
use wasm_bindgen::prelude::Closure;
use yew::prelude::*;

use crate::embed::{
    Envelope, Form, H5pMessage, Inbound, Outbound, Post, Sizer, To, h5p, inbound, origin_allowed,
};
use crate::route::Link;

#[derive(Default)]
struct Channel {
    installed: bool,
    /// The link the page shows now (origins, frame, actor); `App` keeps it current.
    link: Link,
    /// Commands that came before a view could take them.
    queue: Vec<Inbound>,
    handler: Option<Rc<dyn Fn(Inbound)>>,
    sizer: Sizer,
    /// A view has said `ready`: the page shows content, so its height means something (the
    /// body measured before the first view is a few pixels, which would shrink the frame).
    ready: bool,
    /// A listener in this page for what the views report (the SCORM session of a course
    /// package), whether or not a host page hears it too.
    observer: Option<fn(&Outbound)>,
    /// A listener in this page for the learning events (a cmi5 AU sends them to the LMS's
    /// LRS), whether or not a host page hears them too.
    statement_observer: Option<fn(&str)>,
    /// The latest `seek` not yet applied: a host that sends thousands at once gets the
    /// last one applied once, on the next turn of the event loop, not a render for each.
    pending_seek: Option<u64>,
    /// The learner a host named with `set-learner` (agent, registration), which replaces
    /// the link's `actor=` and `registration=` for this page's life.
    learner: (Option<String>, Option<String>),
}

thread_local! {
    static CHANNEL: RefCell<Channel> = RefCell::default();
}

/// Keeps the channel's link current (origins and frame may change with the hash). The
/// first call, from the root's first render and so before any view mounts, starts
/// listening (and, in an embed, measuring) for the page's whole life.
pub(crate) fn set_link(link: &Link) {
    let first = CHANNEL.with(|c| {
        let mut c = c.borrow_mut();
        c.link = link.clone();
        !std::mem::replace(&mut c.installed, true)
    });
    if first {
        install(link.embed);
    }
}

fn install(embed: bool) {
    let Some(window) = web_sys::window() else { return };
    // The page's inline script kept what came before the app ran (a host that posts on its
    // frame's `load` is early): read it, stop it, then listen.
    let early = js_sys::Reflect::get(&window, &"fpEarly".into()).unwrap_or_default();
    let _ = js_sys::Reflect::set(&window, &"fpEarly".into(), &wasm_bindgen::JsValue::NULL);
    if let Ok(early) = early.dyn_into::<js_sys::Array>() {
        for event in early.iter() {
            on_message(event.unchecked_ref());
        }
    }
    EventListener::new(&window, "message", on_message).forget();
    if !embed || !framed() {
        return;
    }
    send(Sizer::start());
    // Heights go when the content's size changes, not on a timer. (A browser may hold the
    // observer back in a frame out of view; every message a view posts measures too.)
    let measure = Closure::<dyn FnMut()>::new(measure);
    if let (Ok(observer), Some(body)) = (
        web_sys::ResizeObserver::new(measure.as_ref().unchecked_ref()),
        window.document().and_then(|d| d.body()),
    ) {
        observer.observe(&body);
        // The observer lives as long as the page.
        std::mem::forget(observer);
    }
    measure.forget();
}

/// Sends the content's height if it changed, once a view is ready.
fn measure() {
    // Heights are for a parent that frames this page.
    if !CHANNEL.with(|c| c.borrow().ready) || !framed() {
        return;
    }
    let (scroll, client) = heights();
    let posts = CHANNEL.with(|c| {
        let mut c = c.borrow_mut();
        let frame = c.link.options.frame.clone();
        c.sizer.on_height(scroll, client, frame.as_deref())
    });
    send(posts);
}

/// The link the channel holds: what learning events are addressed with.
pub(crate) fn link() -> Link {
    CHANNEL.with(|c| c.borrow().link.clone())
}

/// Lets `observer` hear every message the views post (see [`Channel::observer`]).
pub(crate) fn set_observer(observer: fn(&Outbound)) {
    CHANNEL.with(|c| c.borrow_mut().observer = Some(observer));
}

/// Lets `observer` hear every learning event the views post (see
/// [`Channel::statement_observer`]).
pub(crate) fn set_statement_observer(observer: fn(&str)) {
    CHANNEL.with(|c| c.borrow_mut().statement_observer = Some(observer));
}

/// Hands a command to the view that takes commands, or keeps it until one mounts.
pub(crate) fn deliver(message: Inbound) {
    let handler = CHANNEL.with(|c| c.borrow().handler.clone());
    match handler {
        Some(handler) => handler(message),
        None => CHANNEL.with(|c| c.borrow_mut().queue.push(message)),
    }
}

/// `load-scenario`: the hash that opens the built-in with the link's embed options (the
/// caller goes there), or, for an id that names none, `None` after telling the host
/// (`error`, `unknown-scenario`): the view stays where it is, still listening, so an embed
/// never strands itself on a page that ignores its host.
pub(crate) fn scenario_hash(id: crate::sim::scenario::ScenarioId) -> Option<String> {
    if !crate::catalogue::is_builtin(id.as_str()) {
        post(&Outbound::Error { reason: "unknown-scenario", id: id.to_string() });
        return None;
    }
    let link = CHANNEL.with(|c| c.borrow().link.clone());
    let next = Link {
        view: crate::route::View::Scenario { id },
        t_ms: None,
        whatif: Default::default(),
        ..link
    };
    Some(next.to_hash())
}

/// Sends `message` to the parent window, once per allowed origin (the browser delivers it
/// only if the parent really has that origin). Nothing is sent when not embedded.
pub(crate) fn post(message: &Outbound) {
    if let Some(observer) = CHANNEL.with(|c| c.borrow().observer) {
        observer(message);
    }
    let text = CHANNEL.with(|c| message.to_json(c.borrow().link.options.frame.as_deref()));
    send(vec![Post { to: To::Listed, form: Form::Text, text }]);
    if matches!(message, Outbound::Ready { .. }) {
        CHANNEL.with(|c| c.borrow_mut().ready = true);
    }
    measure();
}

/// Sends a learning event (an xAPI statement's text) in H5P's envelope, as an object, to
/// the allowed origins only.
pub(crate) fn post_statement(statement: &str) {
    if let Some(observer) = CHANNEL.with(|c| c.borrow().statement_observer) {
        observer(statement);
    }
    send(vec![Post {
        to: To::Listed,
        form: Form::Object,
        text: crate::xapi::h5p_envelope(statement),
    }]);
}

/// Hands commands to `on_message` while the calling view is mounted, starting with the
/// ones that arrived before it.
#[hook]
pub(crate) fn use_host_messages(on_message: impl Fn(Inbound) + 'static) {
    let on_message: Rc<dyn Fn(Inbound)> = Rc::new(on_message);
    use_effect_with((), move |_| {
        let queued = CHANNEL.with(|c| {
            let mut c = c.borrow_mut();
            c.handler = Some(on_message.clone());
            std::mem::take(&mut c.queue)
        });
        for message in queued {
            on_message(message);
        }
        || CHANNEL.with(|c| c.borrow_mut().handler = None)
    });
}

fn on_message(event: &Event) {
    let Some(event) = event.dyn_ref::<web_sys::MessageEvent>() else { return };
    let data = event.data();
    // Hosts may post JSON text or an object; text goes through the browser's JSON parser
    // (the first page carries no JSON parser of its own), and the members are read as the
    // envelope types of `embed` say: a member of another type counts as absent.
    let value = match data.as_string() {
        Some(text) => match js_sys::JSON::parse(&text) {
            Ok(value) => value,
            Err(_) => return,
        },
        None => data,
    };
    if !value.is_object() {
        return;
    }
    let text = |key: &str| {
        js_sys::Reflect::get(&value, &key.into()).ok().and_then(|member| member.as_string())
    };
    // A whole number of 0 or more that a double holds exactly (JSON numbers are doubles).
    let whole = |key: &str| {
        js_sys::Reflect::get(&value, &key.into())
            .ok()
            .and_then(|member| member.as_f64())
            .filter(|n| n.fract() == 0.0 && (0.0..9_007_199_254_740_992.0).contains(n))
            .map(|n| n as u64)
    };
    // H5P's resizer talks about heights only, from any parent.
    let h5p_message = H5pMessage { context: text("context"), action: text("action") };
    if let Some(h5p) = h5p(h5p_message) {
        let (scroll, client) = heights();
        let now_ms = js_sys::Date::now() as u64;
        let posts = CHANNEL.with(|c| c.borrow_mut().sizer.on_h5p(h5p, scroll, client, now_ms));
        return send(posts);
    }
    let allowed = CHANNEL.with(|c| {
        let c = c.borrow();
        c.link.embed && origin_allowed(&c.link.origins, &event.origin())
    });
    // Only listed origins may drive the player.
    // `set-learner`'s agent, an object or its JSON text, checked as `actor=` is.
    let actor = js_sys::Reflect::get(&value, &"actor".into()).ok().and_then(|member| {
        let text = member.as_string().or_else(|| {
            member.is_object().then(|| js_sys::JSON::stringify(&member).ok()?.as_string()).flatten()
        })?;
        crate::ui::nav::checked_actor(&text)
    });
    let envelope = Envelope {
        protocol: text("protocol"),
        version: whole("version"),
        kind: text("type"),
        t_ms: whole("t_ms"),
        id: text("id"),
        data: text("data"),
        actor,
        registration: text("registration"),
    };
    match allowed.then(|| inbound(envelope)).flatten() {
        // Who learning events name: the channel's, not a view's.
        Some(Inbound::SetLearner { actor, registration }) => CHANNEL.with(|c| {
            let mut c = c.borrow_mut();
            c.learner.0 = actor.or(c.learner.0.take());
            c.learner.1 = registration.or(c.learner.1.take());
        }),
        Some(Inbound::Seek { t_ms }) => {
            let first = CHANNEL.with(|c| c.borrow_mut().pending_seek.replace(t_ms).is_none());
            if first {
                gloo_timers::callback::Timeout::new(0, || {
                    if let Some(t_ms) = CHANNEL.with(|c| c.borrow_mut().pending_seek.take()) {
                        deliver(Inbound::Seek { t_ms });
                    }
                })
                .forget();
            }
        }
        Some(message) => {
            // Commands keep their order: a seek still waiting goes first.
            if let Some(t_ms) = CHANNEL.with(|c| c.borrow_mut().pending_seek.take()) {
                deliver(Inbound::Seek { t_ms });
            }
            deliver(message);
        }
        None => {}
    }
}

fn send(posts: Vec<Post>) {
    let Some(window) = web_sys::window() else { return };
    let (embed, origins) = CHANNEL.with(|c| {
        let c = c.borrow();
        (c.link.embed, c.link.origins.clone())
    });
    if !embed {
        return;
    }
    // Outside a frame the parent is this window (harmless, and what the browser tests hear).
    let Ok(Some(parent)) = window.parent() else { return };
    for post in posts {
        let value = match post.form {
            Form::Text => wasm_bindgen::JsValue::from_str(&post.text),
            Form::Object => match js_sys::JSON::parse(&post.text) {
                Ok(value) => value,
                Err(_) => continue,
            },
        };
        match post.to {
            To::Any => {
                let _ = parent.post_message(&value, "*");
            }
            To::Listed => {
                for origin in &origins {
                    let _ = parent.post_message(&value, origin);
                }
            }
        }
    }
}

/// Whether this page runs inside a frame.
fn framed() -> bool {
    web_sys::window().and_then(|w| Some(w.parent().ok()??.ne(&w))).unwrap_or(false)
}

/// The content's height and the frame's visible height, in CSS pixels.
fn heights() -> (u32, u32) {
    let document = web_sys::window().and_then(|w| w.document());
    let scroll = document.as_ref().and_then(|d| d.body()).map_or(0, |b| b.scroll_height());
    let client = document.and_then(|d| d.document_element()).map_or(0, |e| e.client_height());
    (u32::try_from(scroll).unwrap_or(0), u32::try_from(client).unwrap_or(0))
}

/// What every learning event is addressed with: a fresh id, the time, the learner (from
/// the host's `set-learner`, else `actor=`, else anonymous), the registration and the
/// language.
pub(crate) fn statement_context(lang: crate::i18n::Lang) -> crate::xapi::Context {
    let mut bytes = [0u8; 16];
    for b in &mut bytes {
        // Statement ids need to be unique, not secret.
        *b = (js_sys::Math::random() * 256.0) as u8;
    }
    let (link, learner) = CHANNEL.with(|c| {
        let c = c.borrow();
        (c.link.clone(), c.learner.clone())
    });
    crate::xapi::Context {
        id: crate::xapi::uuid(bytes),
        timestamp: js_sys::Date::new_0().to_iso_string().into(),
        actor: learner.0.or(link.options.actor),
        home_page: activity_base(),
        lang: match lang {
            crate::i18n::Lang::En => "en-US",
            other => other.code(),
        },
        registration: learner.1.or(link.options.registration),
    }
}

/// What activity ids are made from: the link's `base=` (the course's stable address), else
/// the site's folder.
pub(crate) fn activity_base() -> String {
    let base = CHANNEL.with(|c| c.borrow().link.options.base.clone());
    base.unwrap_or_else(site_address)
}

/// The folder the site is served from (`https://example.org/course/playground/`):
/// activity ids are this plus a view, so they mean the same on either page.
pub(crate) fn site_address() -> String {
    let href = web_sys::window().and_then(|w| w.location().href().ok()).unwrap_or_default();
    let page = href.split(['#', '?']).next().unwrap_or_default();
    match page.rsplit_once('/') {
        Some((folder, _)) => format!("{folder}/"),
        None => page.to_owned(),
    }
}
