//! The builder's effects: keeping the drafts in storage (and saying what became of it),
//! carrying the open draft in the address, and opening what arrives later (a built-in to
//! copy, a compressed link). Each is a hook over the builder's state; no state lives here.

use std::rc::Rc;

use yew::prelude::*;

use super::{DRAFTS_KEY, codec};
use crate::sandbox::BLANK;
use crate::sandbox::builder::{Builder, Msg, Status};
use crate::ui::hooks::Reduced;

/// Every change is kept at once, and whatever goes wrong is said: a failed save, drafts
/// dropped to make room, no storage at all.
#[hook]
pub(super) fn use_kept(state: &UseReducerHandle<Reduced<Builder>>) {
    let record = state.drafts.write();
    let storage_now = state.storage.clone();
    let dispatch = state.dispatcher();
    use_effect_with((record, storage_now), move |(record, storage_now)| {
        if !storage_now.writable() {
            return;
        }
        let saved = crate::ui::local_storage()
            .is_some_and(|storage| storage.set_item(DRAFTS_KEY, &record.text).is_ok());
        let now = storage_now.after_save(saved, record);
        if now != *storage_now {
            dispatch.dispatch(Msg::Storage(now));
        }
    });
}

/// The address carries the open draft as typed (compressed where the browser can).
#[hook]
pub(super) fn use_draft_in_link(text: String) {
    use_effect_with(text, |text| {
        let text = text.clone();
        // A newer text, or leaving the page, makes this one's link stale: it is dropped.
        let stale = Rc::new(std::cell::Cell::new(false));
        let dropped = stale.clone();
        wasm_bindgen_futures::spawn_local(async move {
            let hash = crate::sandbox::link_hash(
                &crate::ui::share::deflate(text.as_bytes()).await.ok(),
                &text,
            );
            if !stale.get() && crate::ui::nav::current_hash().starts_with("#/sandbox") {
                crate::ui::nav::record_hash(&hash);
            }
        });
        move || dropped.set(true)
    });
}

/// What the link or a first visit asks for that must be fetched or inflated first: a
/// built-in to copy (a player's "Edit a copy", the lesson a first visit starts from), or a
/// compressed scenario; each opened once it is here.
#[hook]
pub(super) fn use_arrivals(state: &UseReducerHandle<Reduced<Builder>>) {
    {
        let dispatch = state.dispatcher();
        let fetch = state.fetch.clone();
        use_effect_with((), move |_| {
            if let Some(id) = fetch {
                wasm_bindgen_futures::spawn_local(async move {
                    match crate::ui::lessons::load(&id).await {
                        Ok(s) => {
                            let text = codec::write_scenario(&s).pretty();
                            dispatch.dispatch(Msg::Arrived { text, copy: true });
                        }
                        Err(why) => {
                            dispatch.dispatch(Msg::Arrived { text: BLANK.to_owned(), copy: true });
                            dispatch.dispatch(Msg::Say(Status::Imported(why)));
                        }
                    }
                });
            }
            || ()
        });
    }
    {
        let dispatch = state.dispatcher();
        use_effect_with((), move |_| {
            let hash = crate::ui::nav::current_hash();
            if let crate::sandbox::Opening::Deflated { bytes, copy } =
                crate::sandbox::Opening::of(&hash)
            {
                wasm_bindgen_futures::spawn_local(async move {
                    match crate::ui::share::inflate(&bytes).await {
                        Ok(text) => dispatch.dispatch(Msg::Arrived { text, copy }),
                        Err(why) => dispatch.dispatch(Msg::Say(Status::Imported(why))),
                    }
                });
            }
            || ()
        });
    }
}
