//! Entry point of the web app: mounts the Yew root; the native build only points to trunk.

#[cfg(target_arch = "wasm32")]
fn main() {
    fencing_playground::ui::start();
}

#[cfg(not(target_arch = "wasm32"))]
fn main() {
    eprintln!(
        "the web app runs in a browser: use `scripts/serve`, or `cargo run --bin fence` for the command line"
    );
    std::process::exit(2);
}
