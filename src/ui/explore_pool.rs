//! The risk explorer's pool of web workers: it starts them, deals each a chunk at a time
//! (`explore::Dealer`), passes every result to the page, and stops them all at once. It
//! computes nothing itself; the workers run `explore::Trials` (src/bin/explore_worker.rs).

use std::cell::RefCell;
use std::rc::Rc;

use wasm_bindgen::JsCast;
use wasm_bindgen::JsValue;
use wasm_bindgen::prelude::Closure;
use web_sys::{MessageEvent, Worker};

use crate::explore::wire::{self, FromWorker, ToWorker};
use crate::explore::{Dealer, Done, Run};
use crate::ui::browser::worker_error;

/// The worker's script, next to the page (trunk writes it unhashed: a worker's name is
/// known at run time).
const WORKER_URL: &str = "fencing-explore-worker_loader.js";

/// What the pool tells the page.
pub(crate) enum PoolEvent {
    /// A chunk's result.
    Done(Done),
    /// A worker failed (an error, out of memory, a script that did not load); the pool has
    /// stopped every worker.
    Failed(String),
}

/// Workers running one run's chunks. Dropping the pool does not stop them: `stop` does.
pub(crate) struct Pool {
    shared: Rc<RefCell<Shared>>,
}

struct Shared {
    workers: Vec<Worker>,
    dealer: Dealer,
    /// Each worker's current point.
    current: Vec<usize>,
    stopped: bool,
    // The handlers live as long as the pool.
    on_message: Vec<Closure<dyn FnMut(MessageEvent)>>,
    on_error: Vec<Closure<dyn FnMut(JsValue)>>,
}

impl Pool {
    /// Starts `n` workers on `run`'s chunks, or says why workers cannot run here (the page
    /// then runs the trials itself). `on_event` gets every result and any failure.
    pub(crate) fn start(
        n: usize,
        run: &Run,
        on_event: Rc<dyn Fn(PoolEvent)>,
    ) -> Result<Pool, String> {
        let chunks = run.chunks();
        let dealer = Dealer::new(&chunks);
        let n = n.clamp(1, chunks.len().max(1));
        let mut workers = Vec::with_capacity(n);
        for _ in 0..n {
            match Worker::new(WORKER_URL) {
                Ok(worker) => workers.push(worker),
                Err(e) => {
                    for worker in &workers {
                        worker.terminate();
                    }
                    return Err(e.as_string().unwrap_or_else(|| format!("{e:?}")));
                }
            }
        }
        let current = (0..n).map(|k| dealer.start(k)).collect();
        let shared = Rc::new(RefCell::new(Shared {
            workers,
            dealer,
            current,
            stopped: false,
            on_message: Vec::new(),
            on_error: Vec::new(),
        }));
        let params = bytes(&ToWorker::Params(run.params().clone()));
        for k in 0..n {
            let weak = Rc::downgrade(&shared);
            let events = on_event.clone();
            let params = params.clone();
            let on_message = Closure::<dyn FnMut(MessageEvent)>::new(move |e: MessageEvent| {
                let Some(shared) = weak.upgrade() else { return };
                let data = e.data();
                if data.as_string().as_deref() == Some("ready") {
                    // The worker's wasm has loaded: now it can hear the run.
                    let worker = shared.borrow().workers[k].clone();
                    let _ = worker.post_message(&params);
                    return deal(&shared, k);
                }
                let message = data
                    .dyn_ref::<js_sys::Uint8Array>()
                    .and_then(|bytes| wire::decode::<FromWorker>(&bytes.to_vec()));
                match message {
                    Some(FromWorker::Done(done)) => {
                        if shared.borrow().stopped {
                            return;
                        }
                        events(PoolEvent::Done(done));
                        deal(&shared, k);
                    }
                    Some(FromWorker::Error(why)) => {
                        stop_all(&shared);
                        events(PoolEvent::Failed(why));
                    }
                    None => {
                        stop_all(&shared);
                        events(PoolEvent::Failed("a message the page cannot read".to_owned()));
                    }
                }
            });
            let weak = Rc::downgrade(&shared);
            let events = on_event.clone();
            let on_error = Closure::<dyn FnMut(JsValue)>::new(move |e: JsValue| {
                let Some(shared) = weak.upgrade() else { return };
                if shared.borrow().stopped {
                    return;
                }
                stop_all(&shared);
                events(PoolEvent::Failed(worker_error(&e)));
            });
            let mut s = shared.borrow_mut();
            let worker = s.workers[k].clone();
            worker.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
            worker.set_onerror(Some(on_error.as_ref().unchecked_ref()));
            s.on_message.push(on_message);
            s.on_error.push(on_error);
        }
        Ok(Pool { shared })
    }

    /// Stops every worker at once (Cancel, a new run, leaving the page, the run's end).
    pub(crate) fn stop(&self) {
        stop_all(&self.shared);
    }

    /// Workers still running.
    pub(crate) fn live(&self) -> usize {
        let s = self.shared.borrow();
        if s.stopped { 0 } else { s.workers.len() }
    }
}

/// Gives worker `k` its next chunk, if any is left.
fn deal(shared: &Rc<RefCell<Shared>>, k: usize) {
    let mut s = shared.borrow_mut();
    if s.stopped {
        return;
    }
    let mut current = s.current[k];
    let next = s.dealer.next(&mut current);
    s.current[k] = current;
    if let Some(chunk) = next {
        let _ = s.workers[k].post_message(&bytes(&ToWorker::Chunk(chunk)));
    }
}

/// A message as the bytes a worker reads (copied into a `Uint8Array`).
fn bytes(message: &ToWorker) -> JsValue {
    js_sys::Uint8Array::from(wire::encode(message).as_slice()).into()
}

fn stop_all(shared: &Rc<RefCell<Shared>>) {
    let mut s = shared.borrow_mut();
    s.stopped = true;
    for worker in &s.workers {
        worker.terminate();
    }
}
