//! Markup written as text, safe by construction: tag and attribute names are compile-time
//! constants, and every attribute value and text is escaped on the way in. The views that
//! are mostly text (the timeline, the state tables, the event log, the legend) are built
//! with it as one string each, which keeps the first page small and a seek cheap.
//!
//! Pure: no web crate. The page turns a finished [`Markup`] into nodes in exactly one place
//! (`ui::markup`); nothing else may hand the page a string as HTML.

/// A fragment of HTML or SVG under construction.
#[derive(Clone, Debug, Default, Eq, PartialEq)]
pub struct Markup(String);

impl Markup {
    pub fn new() -> Markup {
        Markup(String::with_capacity(1024))
    }

    /// `<tag name="value" ...>`.
    pub fn open(&mut self, tag: &'static str, attrs: &[(&'static str, &str)]) -> &mut Markup {
        self.start(tag, attrs);
        self.0.push('>');
        self
    }

    /// `<tag name="value" .../>`: an SVG element without content.
    pub fn empty(&mut self, tag: &'static str, attrs: &[(&'static str, &str)]) -> &mut Markup {
        self.start(tag, attrs);
        self.0.push_str("/>");
        self
    }

    /// `<tag ...>text</tag>`.
    pub fn element(
        &mut self,
        tag: &'static str,
        attrs: &[(&'static str, &str)],
        text: &str,
    ) -> &mut Markup {
        self.open(tag, attrs).text(text).close(tag)
    }

    pub fn close(&mut self, tag: &'static str) -> &mut Markup {
        self.0.push_str("</");
        self.0.push_str(tag);
        self.0.push('>');
        self
    }

    /// Text, escaped.
    pub fn text(&mut self, text: &str) -> &mut Markup {
        escape_into(&mut self.0, text);
        self
    }

    /// Text, escaped, with each span between backticks as `<code>` (how a lesson marks a
    /// name it cites); an unclosed backtick makes the rest code.
    pub fn text_with_code(&mut self, text: &str) -> &mut Markup {
        for (i, part) in text.split('`').enumerate() {
            match i % 2 {
                1 => self.element("code", &[], part),
                _ => self.text(part),
            };
        }
        self
    }

    /// Markup the program itself wrote (a constant), as it is.
    pub fn fixed(&mut self, markup: &'static str) -> &mut Markup {
        self.0.push_str(markup);
        self
    }

    /// A constant template with its blanks filled: each `%` by the next number (rounded to
    /// a whole one: enough for drawings in user units, and no float formatting), each `$`
    /// by the next text, escaped. The drawings are written this way: one call a shape.
    pub fn fill(&mut self, template: &'static str, numbers: &[f64], texts: &[&str]) -> &mut Markup {
        let (mut numbers, mut texts) = (numbers.iter(), texts.iter());
        for c in template.chars() {
            match c {
                '%' => {
                    let v = numbers.next().copied().unwrap_or(0.0);
                    self.0.push_str(&(v.round() as i64).to_string());
                }
                '$' => escape_into(&mut self.0, texts.next().copied().unwrap_or("")),
                c => self.0.push(c),
            }
        }
        self
    }

    /// Another finished fragment.
    pub fn append(&mut self, other: &Markup) -> &mut Markup {
        self.0.push_str(&other.0);
        self
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }

    pub fn into_string(self) -> String {
        self.0
    }

    fn start(&mut self, tag: &'static str, attrs: &[(&'static str, &str)]) {
        self.0.push('<');
        self.0.push_str(tag);
        for (name, value) in attrs {
            self.0.push(' ');
            self.0.push_str(name);
            self.0.push_str("=\"");
            escape_into(&mut self.0, value);
            self.0.push('"');
        }
    }
}

fn escape_into(out: &mut String, text: &str) {
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            c => out.push(c),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Markup;

    #[test]
    fn values_and_text_are_escaped_names_are_not_input() {
        let mut m = Markup::new();
        m.open("p", &[("title", "a\"b<c>&")]).text("<script>x</script>").close("p");
        m.empty("rect", &[("x", "1")]).element("em", &[], "&");
        assert_eq!(
            m.as_str(),
            r#"<p title="a&quot;b&lt;c&gt;&amp;">&lt;script&gt;x&lt;/script&gt;</p><rect x="1"/><em>&amp;</em>"#
        );
        let mut t = Markup::new();
        t.fill(r#"<text x="%" y="%" class="$">$</text>"#, &[1.4, -2.6], &["a\"b", "<x>"]);
        assert_eq!(t.as_str(), r#"<text x="1" y="-3" class="a&quot;b">&lt;x&gt;</text>"#);
    }

    #[test]
    fn backticked_names_become_code_and_stay_escaped() {
        let mut m = Markup::new();
        m.text_with_code("call `r.incr` or `a<b>`, not r.set");
        assert_eq!(m.as_str(), "call <code>r.incr</code> or <code>a&lt;b&gt;</code>, not r.set");
        let mut plain = Markup::new();
        plain.text_with_code("no names");
        assert_eq!(plain.as_str(), "no names");
    }
}
