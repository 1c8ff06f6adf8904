//! Entry point of `course.html`, the page every SCO of a course package launches
//! (`scripts/package`): the lab's views, the built-in lessons compiled in, and the SCORM
//! session. A third bundle, so that neither the main page nor the lab carries the LMS code.

#[cfg(target_arch = "wasm32")]
fn main() {
    fencing_playground::ui::start_course();
}

#[cfg(not(target_arch = "wasm32"))]
fn main() {
    eprintln!("the course page runs inside an LMS: use `scripts/package scorm12` or `scorm2004`");
    std::process::exit(2);
}
