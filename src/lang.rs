//! The languages the playground speaks, by code and by name: a leaf, so links, packs and
//! views can name a language without depending on the messages. It holds no text to
//! translate.

#[derive(Clone, Copy, Debug, Default, Eq, Ord, PartialEq, PartialOrd)]
pub enum Lang {
    #[default]
    En,
    Id,
    Vi,
}

impl Lang {
    pub const ALL: [Lang; 3] = [Lang::En, Lang::Id, Lang::Vi];

    pub fn code(self) -> &'static str {
        match self {
            Lang::En => "en",
            Lang::Id => "id",
            Lang::Vi => "vi",
        }
    }

    /// The language's own name, for the menu.
    pub fn name(self) -> &'static str {
        match self {
            Lang::En => "English",
            Lang::Id => "Bahasa Indonesia",
            Lang::Vi => "Tiếng Việt",
        }
    }

    pub fn from_code(code: &str) -> Option<Lang> {
        Lang::ALL.into_iter().find(|l| l.code() == code)
    }

    /// The best match for a browser language tag such as `id-ID` or `vi`, else English.
    pub fn from_browser(tag: &str) -> Lang {
        let primary = tag.split(['-', '_']).next().unwrap_or("").to_ascii_lowercase();
        Lang::from_code(&primary).unwrap_or(Lang::En)
    }
}
