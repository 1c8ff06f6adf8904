//! The web worker of explore.html's two pages: it says `ready`, then serves either the risk
//! explorer (the run's parameters, then chunks of trials, each answered with its tallies, in
//! postcard: `explore::wire`) or the schedule search (a replica of the search, in postcard too: `search::wire`). It
//! owns only the message loop; the work is `explore::Trials`' and `search::wire::Replica`'s.
//! Natively it is empty (`fence explore` and `fence search --threads` use threads).

#[cfg(not(target_arch = "wasm32"))]
fn main() {}

#[cfg(target_arch = "wasm32")]
fn main() {
    use std::cell::RefCell;

    use fencing_playground::explore::wire::{self, FromWorker, ToWorker};
    use fencing_playground::explore::{Run, Trials};
    use fencing_playground::search::wire::{self as search_wire, ToReplica};
    use wasm_bindgen::JsCast;
    use wasm_bindgen::prelude::Closure;
    use web_sys::{DedicatedWorkerGlobalScope, MessageEvent};

    // Invariant: this binary only ever runs as a dedicated worker (explore.html starts it).
    let scope: DedicatedWorkerGlobalScope = js_sys::global().unchecked_into();
    let trials: RefCell<Option<Trials>> = RefCell::new(None);
    let replica = RefCell::new(fencing_playground::search::wire::Replica::new());
    let reply_to = scope.clone();
    let on_message = Closure::<dyn FnMut(MessageEvent)>::new(move |event: MessageEvent| {
        let data = event.data();
        let Some(bytes) = data.dyn_ref::<js_sys::Uint8Array>().map(js_sys::Uint8Array::to_vec)
        else {
            let why = "not a message for this worker (text, not bytes)".to_owned();
            let bytes = js_sys::Uint8Array::from(wire::encode(&FromWorker::Error(why)).as_slice());
            let _ = reply_to.post_message(&bytes);
            return;
        };
        // The search's messages first (one worker serves both pages); then the explorer's.
        if let Some(message) = search_wire::decode::<ToReplica>(&bytes) {
            for reply in replica.borrow_mut().handle(message) {
                let bytes = js_sys::Uint8Array::from(search_wire::encode(&reply).as_slice());
                let _ = reply_to.post_message(&bytes);
            }
            return;
        }
        let reply = match wire::decode(&bytes) {
            Some(ToWorker::Params(params)) => match Run::new(params) {
                Ok(run) => {
                    *trials.borrow_mut() = Some(run.trials());
                    return;
                }
                Err(why) => FromWorker::Error(why),
            },
            Some(ToWorker::Chunk(chunk)) => match trials.borrow_mut().as_mut() {
                Some(trials) => FromWorker::Done(trials.run(chunk)),
                None => FromWorker::Error("a chunk came before the parameters".to_owned()),
            },
            None => FromWorker::Error("not a message for the explorer's worker".to_owned()),
        };
        let bytes = js_sys::Uint8Array::from(wire::encode(&reply).as_slice());
        let _ = reply_to.post_message(&bytes);
    });
    scope.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
    // The worker lives as long as its page keeps it; so does its handler.
    on_message.forget();
    // Messages that came before the handler (while the wasm loaded) are gone: the page
    // sends the parameters and the first chunk when it hears this.
    let _ = scope.post_message(&"ready".into());
}
