//! The schedule search's web workers: starts them, posts what `search::wire::Relay` says
//! to post, and tells the page where the search stands. It decides nothing: the relay
//! deals the chunks and each worker's replica runs them (src/bin/explore_worker.rs).

use std::cell::RefCell;
use std::rc::Rc;

use wasm_bindgen::JsCast;
use wasm_bindgen::JsValue;
use wasm_bindgen::prelude::Closure;
use web_sys::{MessageEvent, Worker};

use std::collections::VecDeque;

use crate::search::wire::{
    Ending, FromReplica, Relay, Replica, Request, Send, Standing, ToReplica, decode, encode,
};
use crate::ui::browser::{now_ms, worker_error};

/// The explore page's worker, which serves the search too (see explore_pool).
const WORKER_URL: &str = "fencing-explore-worker_loader.js";

/// What the pool tells the page after each message from a worker.
pub(crate) enum News {
    Standing(Standing),
    Ended(Ending),
}

/// Workers running one search, or the page's own thread (`n` = 0, or where workers
/// cannot start: the browser tests' runner serves no worker script). Dropping the pool
/// does not stop it: `stop` does.
pub(crate) enum SearchPool {
    Workers(Rc<RefCell<Shared>>),
    Page(Rc<RefCell<OnPage>>),
}

/// The search on the page's thread: one replica, driven in slices of about
/// [`SLICE_BUDGET_MS`] so input and painting run in between.
pub(crate) struct OnPage {
    relay: Relay,
    replica: Replica,
    inbox: VecDeque<ToReplica>,
    outbox: VecDeque<FromReplica>,
    stopped: bool,
}

const SLICE_BUDGET_MS: f64 = 20.0;

pub(crate) struct Shared {
    workers: Vec<Worker>,
    relay: Relay,
    /// The request, sent to every worker once all have loaded their wasm (`ready`): a
    /// message posted to a worker before that is lost, and every replica must hear every
    /// result.
    first: Vec<Send>,
    ready: usize,
    stopped: bool,
    on_message: Vec<Closure<dyn FnMut(MessageEvent)>>,
    on_error: Vec<Closure<dyn FnMut(JsValue)>>,
}

impl SearchPool {
    /// Starts `n` workers on a search of `lesson_json`, or says why workers cannot start.
    pub(crate) fn start(
        n: usize,
        request: &Request,
        lesson_json: &str,
        on_news: Rc<dyn Fn(News)>,
    ) -> Result<SearchPool, String> {
        if n == 0 {
            return Ok(SearchPool::on_page(request, lesson_json, on_news));
        }
        let mut workers = Vec::with_capacity(n);
        for _ in 0..n {
            match Worker::new(WORKER_URL) {
                Ok(worker) => workers.push(worker),
                Err(e) => {
                    workers.iter().for_each(Worker::terminate);
                    return Err(e.as_string().unwrap_or_else(|| format!("{e:?}")));
                }
            }
        }
        let (relay, first) = Relay::new(n, request, lesson_json);
        let shared = Rc::new(RefCell::new(Shared {
            workers,
            relay,
            first,
            ready: 0,
            stopped: false,
            on_message: Vec::new(),
            on_error: Vec::new(),
        }));
        for k in 0..n {
            let weak = Rc::downgrade(&shared);
            let news = on_news.clone();
            let on_message = Closure::<dyn FnMut(MessageEvent)>::new(move |e: MessageEvent| {
                let Some(shared) = weak.upgrade() else { return };
                let data = e.data();
                let sends = if data.as_string().as_deref() == Some("ready") {
                    let mut s = shared.borrow_mut();
                    s.ready += 1;
                    if s.ready < s.workers.len() {
                        return;
                    }
                    std::mem::take(&mut s.first)
                } else {
                    let reply = data
                        .dyn_ref::<js_sys::Uint8Array>()
                        .and_then(|bytes| decode::<FromReplica>(&bytes.to_vec()))
                        .unwrap_or_else(|| {
                            FromReplica::Error("a message the page cannot read".to_owned())
                        });
                    shared.borrow_mut().relay.on_reply(k, reply)
                };
                post(&shared, sends);
                let (standing, ending) = {
                    let s = shared.borrow();
                    (s.relay.standing(), s.relay.ending().cloned())
                };
                match ending {
                    Some(ending) => {
                        stop_all(&shared);
                        news(News::Ended(ending));
                    }
                    None => news(News::Standing(standing)),
                }
            });
            let weak = Rc::downgrade(&shared);
            let news = on_news.clone();
            let on_error = Closure::<dyn FnMut(JsValue)>::new(move |e: JsValue| {
                let Some(shared) = weak.upgrade() else { return };
                if shared.borrow().stopped {
                    return;
                }
                stop_all(&shared);
                news(News::Ended(Ending::Failed(worker_error(&e))));
            });
            let mut s = shared.borrow_mut();
            let worker = s.workers[k].clone();
            worker.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
            worker.set_onerror(Some(on_error.as_ref().unchecked_ref()));
            s.on_message.push(on_message);
            s.on_error.push(on_error);
        }
        Ok(SearchPool::Workers(shared))
    }

    /// The search on the page's own thread.
    pub(crate) fn on_page(
        request: &Request,
        lesson_json: &str,
        on_news: Rc<dyn Fn(News)>,
    ) -> SearchPool {
        let (relay, first) = Relay::new(1, request, lesson_json);
        let inbox = first.into_iter().map(|s| match s {
            Send::To(_, message) | Send::All(message) => message,
        });
        let state = Rc::new(RefCell::new(OnPage {
            relay,
            replica: Replica::new(),
            inbox: inbox.collect(),
            outbox: VecDeque::new(),
            stopped: false,
        }));
        slice(Rc::downgrade(&state), on_news);
        SearchPool::Page(state)
    }

    /// Stops the search at once (Cancel, a new search, leaving the page, the end).
    pub(crate) fn stop(&self) {
        match self {
            SearchPool::Workers(shared) => stop_all(shared),
            SearchPool::Page(state) => state.borrow_mut().stopped = true,
        }
    }
}

/// Runs the page's search for one slice, then yields a macrotask before the next.
fn slice(weak: std::rc::Weak<RefCell<OnPage>>, news: Rc<dyn Fn(News)>) {
    gloo_timers::callback::Timeout::new(0, move || {
        let Some(state) = weak.upgrade() else { return };
        let start = now_ms();
        let ended = loop {
            let mut s = state.borrow_mut();
            if s.stopped {
                return;
            }
            if let Some(ending) = s.relay.ending().cloned() {
                break Some(ending);
            }
            if now_ms() - start >= SLICE_BUDGET_MS {
                break None;
            }
            let s = &mut *s;
            if let Some(reply) = s.outbox.pop_front() {
                for send in s.relay.on_reply(0, reply) {
                    let (Send::To(_, message) | Send::All(message)) = send;
                    s.inbox.push_back(message);
                }
            } else if let Some(message) = s.inbox.pop_front() {
                let replies = s.replica.handle(message);
                s.outbox.extend(replies);
            } else {
                break Some(Ending::Failed("the search stalled".to_owned()));
            }
        };
        match ended {
            Some(ending) => {
                state.borrow_mut().stopped = true;
                news(News::Ended(ending));
            }
            None => {
                news(News::Standing(state.borrow().relay.standing()));
                slice(weak, news);
            }
        }
    })
    .forget();
}

fn post(shared: &Rc<RefCell<Shared>>, sends: Vec<Send>) {
    let s = shared.borrow();
    if s.stopped {
        return;
    }
    for send in sends {
        match send {
            Send::To(k, message) => {
                if let Some(worker) = s.workers.get(k) {
                    let _ = worker.post_message(&bytes(&message));
                }
            }
            Send::All(message) => {
                let bytes = bytes(&message);
                for worker in &s.workers {
                    let _ = worker.post_message(&bytes);
                }
            }
        }
    }
}

/// A message as the bytes a worker reads (copied into a `Uint8Array`).
fn bytes(message: &ToReplica) -> JsValue {
    js_sys::Uint8Array::from(encode(message).as_slice()).into()
}

fn stop_all(shared: &Rc<RefCell<Shared>>) {
    let mut s = shared.borrow_mut();
    s.stopped = true;
    s.workers.iter().for_each(Worker::terminate);
}
