//! Entry point of `lab.html` (quiz, comparisons, exports, handouts, sandbox, linked
//! scenarios): mounts its Yew root. A second bundle so that the first page's download
//! carries none of this code.

#[cfg(target_arch = "wasm32")]
fn main() {
    fencing_playground::ui::start_lab();
}

#[cfg(not(target_arch = "wasm32"))]
fn main() {
    eprintln!(
        "the lab runs in a browser: use `scripts/serve`, or `cargo run --bin fence` for the command line"
    );
    std::process::exit(2);
}
