//! The home view: the core path ("start here") with each lesson's time, then the
//! catalogue by chapter, one card per scenario: its setup and goal. A card never gives
//! away its outcome: the title's outcome (after its colon) shows once the learner has seen
//! the lesson to its end in this browser, and the card says so. Written as one piece of
//! markup (`path::home`): fifty cards as virtual nodes cost the first page more.

use yew::prelude::*;

use crate::ui::i18n::use_i18n;

#[component]
pub(crate) fn Home() -> Html {
    let m = use_i18n();
    let finished = crate::ui::hooks::finished();
    crate::ui::markup(crate::path::home(&m, &finished, crate::quiz::BANK_SIZE))
}
