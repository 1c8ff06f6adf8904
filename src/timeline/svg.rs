//! The swimlane timeline as SVG text: one lane per actor, spans for pauses, beliefs (with
//! their tokens), lock lifetimes and the row's `last_fence`, arrows for requests and
//! replication, a marker per event (a write's with the token it carried), the cursor line.
//!
//! Pure: it formats a [`Layout`] at a cursor into a string. The page sets it as the drawing
//! (one string instead of hundreds of virtual nodes keeps the first page small and a seek
//! cheap) and the lab saves the same string as a file. It never translates: every word a
//! learner reads in it arrives in [`View`].

use super::{Layout, SpanKind, marker_class};
use crate::markup::Markup;
use crate::sim::Trace;
use crate::sim::event::{Actor, EventKind};
use crate::sim::token::token_text;

/// The lane names' column, left of 0 s.
pub const LEFT: f64 = 84.0;
pub const WIDTH: f64 = 1000.0;
/// Room on the right for the last marker's token label: nothing is clipped at the edge.
const PLOT: f64 = WIDTH - LEFT - 30.0;
/// Room left of 0 s for a marker at the very start.
pub const PAD: f64 = 8.0;
const LANE: f64 = 46.0;
const LANE_COMPACT: f64 = 30.0;
const LANE_CROWDED: f64 = 36.0;
const TOP: f64 = 22.0;

/// Whether the drawing shows what has not happened yet.
#[derive(Clone, Copy, Debug, Default, Eq, PartialEq)]
pub enum Future {
    /// The whole run, the future faded.
    #[default]
    Shown,
    /// Only what happened up to the cursor: a prompt ahead must not be answered by the
    /// picture.
    Hidden,
}

/// What to draw, and the words to draw it with.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct View {
    pub cursor: usize,
    pub time_ms: u64,
    /// A shorter drawing (the compare view), without the fence labels.
    pub compact: bool,
    /// The time at the right edge, when several timelines share one scale.
    pub scale_end_ms: Option<u64>,
    pub future: Future,
    /// The drawing's accessible name.
    pub label: String,
    /// What each lane reads at the cursor (a node's counter and lock, the row).
    pub readouts: Vec<(Actor, String)>,
    /// The axis's unit of seconds in the reader's language (`s`, `dtk`, `giây`); `s` when
    /// empty.
    pub unit: String,
}

/// Where things sit in the drawing, shared by the text and the page's tooltip.
#[derive(Clone, Copy, Debug)]
pub struct Geometry {
    end_ms: f64,
    lane_h: f64,
    pub height: f64,
}

impl Geometry {
    pub fn new(layout: &Layout, view: &View) -> Geometry {
        // Many lanes get thinner ones, so the story under the drawing stays in view.
        let lane_h = match (view.compact, layout.lanes.len()) {
            (true, _) => LANE_COMPACT,
            (false, 0..=6) => LANE,
            (false, _) => LANE_CROWDED,
        };
        Geometry {
            end_ms: view.scale_end_ms.unwrap_or(layout.end_ms).max(1) as f64,
            lane_h,
            height: TOP + layout.lanes.len() as f64 * lane_h + 8.0,
        }
    }

    pub fn x(&self, t_ms: u64) -> f64 {
        LEFT + PAD + (t_ms as f64 / self.end_ms) * (PLOT - PAD)
    }

    /// The top of an actor's lane.
    pub fn lane_y(&self, layout: &Layout, actor: Actor) -> f64 {
        let i = layout.lanes.iter().position(|l| l.actor == actor).unwrap_or(0);
        TOP + i as f64 * self.lane_h
    }

    pub fn lane_h(&self) -> f64 {
        self.lane_h
    }
}

/// Longer than 100 lines: one drawing written in paint order (axis, lanes with their spans,
/// arrows, markers, readouts, cursor); each part is a loop over the layout.
pub fn render(trace: &Trace, layout: &Layout, view: &View) -> Markup {
    let g = Geometry::new(layout, view);
    let h = g.lane_h;
    let (shown_ms, shown_events) = match view.future {
        Future::Shown => (u64::MAX, usize::MAX),
        Future::Hidden => (view.time_ms, view.cursor),
    };
    // With the future hidden, a span is drawn once the event that opened it is applied.
    let begun = |actor: Actor, span: &super::Span| {
        view.future == Future::Shown || super::span_begun(trace, actor, span, view.cursor)
    };
    let now_actor = view.cursor.checked_sub(1).map(|i| trace.events()[i].actor);
    let scenario = trace.setup();
    let holder = |name: &str| {
        let i = scenario.workers.iter().position(|w| w.name == name).unwrap_or(0) % 6;
        HOLDERS[i]
    };
    // A belief's bar (its top and height in the lane) above the lane's marks, which sit
    // `mark_dy` below its middle, and how far apart stacked marks stand: a compact lane
    // (30 units) is too short for the full lane's spacing.
    let (bar, mark_dy, stack_dy) = match view.compact {
        true => ((1.0, 10.0), 3.0, 9.0),
        false => ((3.0, 12.0), 0.0, 12.0),
    };
    let mut o = Markup::new();
    let class = if view.compact { "swimlanes compact" } else { "swimlanes" };
    o.fill(
        r#"<svg class="$" data-testid="swimlanes" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 % %" role="img" aria-label="$">"#,
        &[WIDTH, g.height],
        &[class, &view.label],
    );
    o.fixed(DEFS);

    let step = nice_step(layout.end_ms);
    o.fixed(r#"<g class="axis">"#);
    for t in (0..=layout.end_ms / step).map(|i| i * step) {
        let x = g.x(t);
        o.fill(
            r#"<line x1="%" x2="%" y1="%" y2="%" class="grid"/><text x="%" y="%" class="axis-label">$ $</text>"#,
            &[x, x, TOP - 4.0, g.height - 8.0, x, TOP - 8.0],
            &[&(t / 1000).to_string(), if view.unit.is_empty() { "s" } else { &view.unit }],
        );
    }
    o.fixed("</g>");

    // The row's steps whose value is printed (its time and value): a write that stored its
    // token there is not labelled again above its mark.
    let mut fence_labels: Vec<(u64, &str)> = Vec::new();
    for (i, lane) in layout.lanes.iter().enumerate() {
        let y = TOP + i as f64 * h;
        let owner = match lane.actor {
            Actor::Worker(w) => holder(&scenario.workers[w.index()].name),
            _ => HOLDERS[0],
        };
        let bg = lane_bg(now_actor == Some(lane.actor), i);
        o.fill(
            r#"<g class="lane" data-lane="$"><rect x="0" y="%" width="%" height="%" class="$"/><text x="6" y="%" class="lane-label">$</text>"#,
            &[y, WIDTH, h, y + h / 2.0 + 4.0],
            &[&lane.label, bg, &lane.label],
        );
        for span in lane.spans.iter().filter(|s| begun(lane.actor, s)) {
            let to_ms = span.to_ms.min(shown_ms);
            let (x1, x2) = (g.x(span.from_ms), g.x(to_ms).max(g.x(span.from_ms) + 1.5));
            match &span.kind {
                SpanKind::Belief { until_ms, token } => {
                    let solid = g.x((*until_ms).min(to_ms)).max(x1);
                    o.fill(
                        r#"<g class="$"><title>$</title><rect x="%" y="%" width="%" height="%" class="belief-valid"/>"#,
                        &[x1, y + bar.0, solid - x1, bar.1],
                        &[owner, &span.label],
                    );
                    if x2 > solid {
                        o.fill(
                            r#"<rect x="%" y="%" width="%" height="%" class="belief-stale"/>"#,
                            &[solid, y + bar.0 + 1.0, x2 - solid, bar.1 - 2.0],
                            &[],
                        );
                    }
                    // Above the grant's dot (at `x1`, the lane's middle), clear of it.
                    if let Some(token) = token {
                        o.fill(
                            r#"<text x="%" y="%" class="token-label" data-testid="token-label">$</text>"#,
                            &[x1 + 3.0, y + bar.0 + 10.0],
                            &[token],
                        );
                    }
                    o.fixed("</g>");
                }
                SpanKind::Lock { holder: value, hidden_from_ms } => {
                    // max/min, not clamp: clamp's panic message formats floats, which alone links
                    // about 5 KB of gzip float formatting into the first page.
                    let hidden_x = hidden_from_ms.map(|t| g.x(t).max(x1).min(x2));
                    let name = crate::sim::state::lock_value_owner(value);
                    let bar_end = hidden_x.unwrap_or(x2);
                    o.fill(
                        r#"<g class="$"><title>$</title><rect x="%" y="%" width="%" height="%" class="lock-bar"/>"#,
                        &[x1, y + 8.0, bar_end - x1, h - 22.0],
                        &[holder(name), &span.label],
                    );
                    if let Some(hx) = hidden_x {
                        o.fill(
                            r#"<rect x="%" y="%" width="%" height="%" class="lock-hidden"/>"#,
                            &[hx, y + 8.0, x2 - hx, h - 22.0],
                            &[],
                        );
                    }
                    // The owner's name fits a short bar; the value is in the title.
                    if x2 - x1 > 16.0 {
                        o.fill(
                            r#"<text x="%" y="%" class="lock-label">$</text>"#,
                            &[x1 + 3.0, y + h / 2.0 + 1.0],
                            &[name],
                        );
                    }
                    o.fixed("</g>");
                }
                SpanKind::Fence { value } => {
                    o.fill(
                        r#"<g class="fence"><title>$</title><path d="M% % V% H%" class="fence-line"/>"#,
                        &[x1, y + h - 14.0, y + h - 6.0, x2],
                        &[&span.label],
                    );
                    if !view.compact {
                        o.fill(
                            r#"<text x="%" y="%" class="fence-label" data-testid="fence-label">$</text>"#,
                            &[x1 + 3.0, y + h - 9.0],
                            &[value],
                        );
                        fence_labels.push((span.from_ms, value));
                    }
                    o.fixed("</g>");
                }
                kind => {
                    let class = match kind {
                        SpanKind::Paused => "span-paused",
                        SpanKind::Hung => "span-hung",
                        SpanKind::Blocked => "span-blocked",
                        SpanKind::Crashed => "span-crashed",
                        _ => "span-down",
                    };
                    o.fill(
                        r#"<rect x="%" y="%" width="%" height="%" class="$"><title>$</title></rect>"#,
                        &[x1, y + 20.0, x2 - x1, h - 24.0],
                        &[class, &span.label],
                    );
                }
            }
        }
        o.fixed("</g>");
    }

    // A crowded run (thousands of events: a sandbox scenario, a run cut short at the event
    // limit) draws one mark where several of the same kind would cover each other to the
    // unit: 20,000 marks in one spot are one to the eye but 60,000 elements for the page to
    // parse on every seek. A lesson's few dozen marks are all drawn, every one clickable.
    let crowded = |n: usize| n > CROWDED_MARKS;
    let thin_arrows = crowded(layout.arrows.len());
    let mut drawn_arrows: Vec<(Actor, Actor, &str, i64, i64)> = Vec::new();
    for arrow in layout.arrows.iter().filter(|a| a.event.index() < shown_events) {
        let class = if arrow.event.index() >= view.cursor { "arrow future" } else { "arrow" };
        let (y1, y2) = (g.lane_y(layout, arrow.from), g.lane_y(layout, arrow.to));
        if thin_arrows {
            let at = (g.x(arrow.sent_ms).round() as i64, g.x(arrow.at_ms).round() as i64);
            let same = |d: &&mut (Actor, Actor, &str, i64, i64)| {
                d.0 == arrow.from && d.1 == arrow.to && d.2 == class
            };
            match drawn_arrows.iter_mut().find(same) {
                Some(d) if (d.3, d.4) == at => continue,
                Some(d) => (d.3, d.4) = at,
                None => drawn_arrows.push((arrow.from, arrow.to, class, at.0, at.1)),
            }
        }
        o.fill(
            r#"<line x1="%" y1="%" x2="%" y2="%" class="$" marker-end="url(#head)"/>"#,
            &[g.x(arrow.sent_ms), y1 + h / 2.0 + mark_dy, g.x(arrow.at_ms), y2 + h / 2.0 + mark_dy],
            &[class],
        );
    }

    let thin_markers = crowded(layout.lanes.iter().map(|l| l.markers.len()).sum());
    for lane in &layout.lanes {
        // The unit each kind and state of mark was last drawn at in this lane: a lane's
        // marks come in time order, so a mark that would cover the last one is the same
        // unit. The current mark is always drawn.
        let mut last_unit = [[i64::MIN; 3]; MARKERS.len()];
        // Marks closer than a mark's width (several things at one moment: a finding and a
        // hazard, a resume and a write) stand one above the other, not on top of each other:
        // the previous mark's x and its row among the three (middle, above, below).
        let mut previous: Option<(f64, usize)> = None;
        for &id in lane.markers.iter().filter(|&&id| id.index() < shown_events) {
            let event = &trace.events()[id.index()];
            let x = g.x(event.at_ms);
            let row = match previous {
                Some((px, row)) if !thin_markers && x - px < MARK_W => row + 1,
                _ => 0,
            };
            // A fourth mark at one moment goes a little right of the first three.
            let cx = x + (row / 3) as f64 * 10.0;
            let cy = g.lane_y(layout, event.actor) + h / 2.0 + mark_dy + STACK[row % 3] * stack_dy;
            let kind = marker_class(&event.kind);
            let (class, shape) = MARKERS[kind as usize];
            let (state, state_index) = match id.index() + 1 {
                c if c == view.cursor => (" current", 0),
                c if c > view.cursor => (" future", 1),
                _ => ("", 2),
            };
            if thin_markers && state_index != 0 {
                let unit = cx.round() as i64;
                if last_unit[kind as usize][state_index] == unit {
                    continue;
                }
                last_unit[kind as usize][state_index] = unit;
            }
            previous = Some((x, row));
            o.fill(
                r#"<g class="$$" data-testid="event" data-id="$" data-at-ms="$" data-kind="$" tabindex="0">"#,
                &[],
                &[class, state, &id.to_string(), &event.at_ms.to_string(), event.kind.tag()],
            );
            o.fill(shape, &[cx, cy], &[]);
            // A write carries its token: the label says which one the database compared.
            // A write that stored its token as the row's new value has it printed on the
            // row's step, at the same moment: once is enough.
            if let EventKind::Wrote { token: Some(t), .. } = &event.kind {
                let text = token_text(scenario.tokens, *t);
                if !fence_labels.contains(&(event.at_ms, text.as_str())) {
                    o.fill(
                        r#"<text x="%" y="%" class="write-token" data-testid="write-token">$</text>"#,
                        &[cx, cy - 9.0],
                        &[&text],
                    );
                }
            }
            o.fixed("</g>");
        }
    }

    let cursor_x = g.x(view.time_ms);
    // Keep a readout inside the drawing: left of the cursor near the right edge.
    let anchor_end = cursor_x > LEFT + PLOT * 0.7;
    let tx = if anchor_end { cursor_x - 4.0 } else { cursor_x + 4.0 };
    let class = if anchor_end { "readout end" } else { "readout" };
    for (actor, text) in &view.readouts {
        let Some(lane) = layout.lanes.iter().find(|l| l.actor == *actor) else { continue };
        o.fill(
            r#"<text x="%" y="%" class="$" data-testid="readout" data-lane="$">$</text>"#,
            &[tx, g.lane_y(layout, *actor) + h - 3.0],
            &[class, &lane.label, text],
        );
    }
    o.fill(
        r#"<line x1="%" x2="%" y1="%" y2="%" class="cursor"/></svg>"#,
        &[cursor_x, cursor_x, TOP - 4.0, g.height - 4.0],
        &[],
    );
    o
}

/// The lane names alone, drawn to the same scale as `render`'s left margin (short of the
/// 0 s mark, whose label stays in view): a phone shows
/// the drawing wider than the screen, and the page pins this over its left edge so the
/// names stay in view while the drawing scrolls under them. Hidden from screen readers
/// (the drawing itself names its lanes).
pub fn lane_names(trace: &Trace, layout: &Layout, view: &View) -> Markup {
    let g = Geometry::new(layout, view);
    let now_actor = view.cursor.checked_sub(1).map(|i| trace.events()[i].actor);
    let mut o = Markup::new();
    o.fill(
        r#"<svg class="swimlanes lane-names" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 % %" aria-hidden="true">"#,
        &[LEFT - PAD, g.height],
        &[],
    );
    for (i, lane) in layout.lanes.iter().enumerate() {
        let y = TOP + i as f64 * g.lane_h;
        o.fill(
            r#"<rect x="0" y="%" width="%" height="%" class="$"/><text x="6" y="%" class="lane-label">$</text>"#,
            &[y, LEFT - PAD, g.lane_h, y + g.lane_h / 2.0 + 4.0],
            &[lane_bg(now_actor == Some(lane.actor), i), &lane.label],
        );
    }
    o.fixed("</svg>");
    o
}

/// A lane's background: the lane of the step just taken stands out (what changed is
/// there), the others alternate.
fn lane_bg(now: bool, index: usize) -> &'static str {
    match (now, index.is_multiple_of(2)) {
        (true, _) => "lane-bg now",
        (false, true) => "lane-bg even",
        (false, false) => "lane-bg",
    }
}

/// The class of each holder's colour (one per worker, repeating after six).
const HOLDERS: [&str; 6] = ["holder-0", "holder-1", "holder-2", "holder-3", "holder-4", "holder-5"];

/// A marker's class and shape by [`super::MarkerClass`], drawn from its centre (cx, cy): the
/// shape carries the meaning, the colour only repeats it.
/// More marks than this (arrows, or markers over all lanes) and the drawing is thinned.
const CROWDED_MARKS: usize = 1_000;

/// The width of a mark: two closer than this in one lane are stacked.
const MARK_W: f64 = 12.0;

/// Where stacked marks stand, in turn: in the lane's middle, above it, below it (in steps
/// of the lane's spacing).
const STACK: [f64; 3] = [0.0, -1.0, 1.0];

const MARKERS: [(&str, &str); 5] = [
    ("marker ok", r#"<circle cx="%" cy="%" r="5"/>"#),
    ("marker refused", r#"<path d="M% % m-4 -4 l8 8 m0 -8 l-8 8" class="cross"/>"#),
    ("marker violation", r#"<path d="M% % m0 -7 l7 12 h-14 z"/>"#),
    ("marker warning", r#"<path d="M% % m0 -6 l6 6 l-6 6 l-6 -6 z"/>"#),
    ("marker fact", r#"<circle cx="%" cy="%" r="4"/>"#),
];

/// Hatching for pauses and (the other way, red) for nodes that are down; dots for a hung
/// thread; the arrowhead of requests.
const DEFS: &str = r#"<defs><pattern id="hatch" width="6" height="6" patternUnits="userSpaceOnUse" patternTransform="rotate(45)"><line x1="0" y1="0" x2="0" y2="6" class="hatch-line"/></pattern><pattern id="down" width="6" height="6" patternUnits="userSpaceOnUse" patternTransform="rotate(-45)"><line x1="0" y1="0" x2="0" y2="6" class="hatch-down-line"/></pattern><pattern id="dots" width="5" height="5" patternUnits="userSpaceOnUse"><circle cx="2.5" cy="2.5" r="1" class="dot"/></pattern><marker id="head" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="6" markerHeight="6" orient="auto-start-reverse"><path d="M0 0 L10 5 L0 10 z" class="arrow-head"/></marker></defs>"#;

/// A tick step giving about 6 to 12 ticks.
fn nice_step(end_ms: u64) -> u64 {
    [
        1_000, 2_000, 5_000, 10_000, 15_000, 30_000, 60_000, 120_000, 300_000, 600_000, 1_800_000,
        3_600_000,
    ]
    .into_iter()
    .find(|step| end_ms / step <= 12)
    .unwrap_or(7_200_000)
}

#[cfg(test)]
mod tests {
    use super::{Future, View, render};
    use crate::catalogue;
    use crate::sim;

    fn drawing(id: &str, view: impl Fn(&sim::Trace) -> View) -> String {
        let trace = sim::run(&catalogue::find(id).expect("built-in").setup);
        let layout = super::super::build(&trace);
        render(&trace, &layout, &view(&trace)).into_string()
    }

    /// The texts of the elements with this test id, in order.
    fn texts(svg: &str, testid: &str) -> Vec<String> {
        svg.split(&format!("data-testid=\"{testid}\">"))
            .skip(1)
            .map(|rest| rest.split('<').next().unwrap_or("").to_owned())
            .collect()
    }

    #[test]
    fn tokens_are_drawn_on_grants_writes_and_the_row() {
        let svg = drawing("gc-pause-fenced", |t| View {
            cursor: t.len(),
            time_ms: t.end_ms(),
            ..View::default()
        });
        assert_eq!(texts(&svg, "token-label"), ["33", "34"], "A's and B's grants");
        assert_eq!(
            texts(&svg, "write-token"),
            ["33"],
            "A's rejected write; B's accepted one is the row's step to 34"
        );
        assert_eq!(texts(&svg, "fence-label"), ["0", "34"], "last_fence steps to 34");
        assert!(
            svg.contains(r#"data-kind="write-rejected" tabindex="0"><path"#),
            "a rejected write is a cross"
        );
    }

    /// Issue 30, item 13: no two marks of any built-in's whole run are drawn on top of
    /// each other (the checker's finding and hazard at one moment stand one above the
    /// other), and the checker's two marks at 2 s of the failover lesson are both drawn.
    #[test]
    fn no_two_marks_cover_each_other() {
        for (scenario, compact) in catalogue::all().iter().flat_map(|s| [(s, false), (s, true)]) {
            let svg = drawing(scenario.id.as_str(), |t| View {
                cursor: t.len(),
                time_ms: t.end_ms(),
                compact,
                ..View::default()
            });
            // Each mark's centre: the first two numbers after its shape's opening.
            let centres: Vec<(f64, f64)> = svg
                .split(r#"data-testid="event""#)
                .skip(1)
                .filter_map(|rest| {
                    let shape = rest.split_once("><")?.1;
                    let numbers: Vec<f64> = shape
                        .split(|c: char| !(c.is_ascii_digit() || c == '.'))
                        .filter_map(|n| n.parse().ok())
                        .take(2)
                        .collect();
                    Some((*numbers.first()?, *numbers.get(1)?))
                })
                .collect();
            assert_eq!(centres.len(), svg.matches(r#"data-testid="event""#).count());
            for (i, a) in centres.iter().enumerate() {
                for b in &centres[i + 1..] {
                    // A compact lane (the compare view's) stacks them 9 units apart.
                    let apart = (a.0 - b.0).abs() >= 8.5 || (a.1 - b.1).abs() >= 8.5;
                    assert!(apart, "{} ({compact:?}): marks at {a:?} and {b:?} cover", scenario.id);
                }
            }
        }
    }

    #[test]
    fn a_hidden_future_draws_nothing_after_the_cursor() {
        let svg = drawing("gc-pause-unfenced", |_| View {
            cursor: 3,
            time_ms: 30_001,
            future: Future::Hidden,
            label: "a <b> & \"c\"".into(),
            ..View::default()
        });
        assert_eq!(svg.matches(r#"data-testid="event""#).count(), 3);
        assert_eq!(texts(&svg, "token-label"), ["33"], "B's grant at 31 s is not drawn yet");
        assert!(texts(&svg, "write-token").is_empty());
        assert!(svg.contains(r#"aria-label="a &lt;b&gt; &amp; &quot;c&quot;""#));
        // At A's late write (40 s, after A resumed at the same instant) the row's step to 33
        // has not happened yet: the drawing must not show it.
        let at_prompt = drawing("gc-pause-unfenced", |_| View {
            cursor: 9,
            time_ms: 40_000,
            future: Future::Hidden,
            ..View::default()
        });
        assert_eq!(texts(&at_prompt, "fence-label"), ["0", "34"]);
    }

    /// Issue 29, item 4: a run of thousands of events (there, 20,000 at the event limit)
    /// drew every mark, 60,000 elements the page parsed for seconds on every seek.
    #[test]
    fn a_crowded_run_draws_one_mark_per_unit_and_a_lesson_every_mark() {
        use super::super::{build, marker_class};
        use super::Geometry;
        let trace = sim::run(&catalogue::find("gc-pause-fenced").expect("built-in").setup);
        let layout = build(&trace);
        let every: usize = layout.lanes.iter().map(|l| l.markers.len()).sum();
        let lesson = drawing("gc-pause-fenced", |t| View {
            cursor: t.len(),
            time_ms: t.end_ms(),
            ..View::default()
        });
        assert_eq!(lesson.matches(r#"data-testid="event""#).count(), every);

        // A watchdog renewing every millisecond for 10 s: thousands of renewals in one lane.
        let crowded = crate::catalogue::load::parse_scenario(CROWDED).expect("a valid scenario");
        let trace = sim::run_events_only(&crowded.setup);
        let layout = build(&trace);
        let cursor = trace.len() / 2;
        let view = View { cursor, time_ms: trace.events()[cursor - 1].at_ms, ..View::default() };
        let svg = render(&trace, &layout, &view).into_string();
        let g = Geometry::new(&layout, &view);
        // Where a mark sits: its lane, its kind, before/at/after the cursor, and its unit.
        let spot = |id: usize| {
            let event = &trace.events()[id];
            let lane = layout.lanes.iter().position(|l| l.actor == event.actor);
            let kind = marker_class(&event.kind) as u8;
            (lane, kind, (id + 1).cmp(&cursor), g.x(event.at_ms).round() as i64)
        };
        let drawn: Vec<usize> = svg
            .split(r#"data-testid="event" data-id=""#)
            .skip(1)
            .filter_map(|rest| rest.split('"').next()?.parse().ok())
            .collect();
        let all: Vec<usize> =
            layout.lanes.iter().flat_map(|l| l.markers.iter().map(|&id| id.index())).collect();
        assert!(all.len() > 4 * drawn.len(), "{} marks drawn of {}", drawn.len(), all.len());
        assert!(drawn.contains(&(cursor - 1)), "the current mark is drawn");
        let spots: std::collections::BTreeSet<_> = drawn.iter().map(|&id| spot(id)).collect();
        assert_eq!(spots.len(), drawn.len(), "no two drawn marks cover each other");
        let missing = all.iter().find(|&&id| !spots.contains(&spot(id)));
        assert_eq!(missing, None, "every mark left out is under a drawn one");
        let arrows = svg.matches(r#"class="arrow"#).count();
        assert!(layout.arrows.len() > 4 * arrows, "{arrows} arrows of {}", layout.arrows.len());
    }

    const CROWDED: &str = r#"{"format": 1, "id": "crowded", "title": "Crowded", "chapter": "Test", "summary": "s", "goal": "g", "seed": 1, "until_ms": 12000,
 "redis": {"nodes": [{"name": "redis"}], "lock_key": "lock:order:42", "fence_key": "fence:order:42"},
 "sql": {"order_id": 42, "amount": 100, "guard": "lt"},
 "workers": [{"name": "A", "start_ms": 0, "program": [{"do": "acquire", "ttl_ms": 30000}, {"do": "watchdog", "interval_ms": 1}, {"do": "compute", "ms": 10000}, {"do": "write", "status": "paid"}, {"do": "release"}]}],
 "faults": []}"#;
}
