//! POSIX character classes (`[:alpha:]` ...) as Unicode sets.
//!
//! In a UTF-8 locale GNU grep asks the C library (`iswalpha` ...), whose
//! classes are Unicode: `[[:alpha:]]` matches `é` and `Ж`. The `regex`
//! crate's own `[:alpha:]` is ASCII, so each class is spelled here as a
//! nested class of Unicode properties, written to give exactly glibc's sets
//! (checked code point by code point against GNU grep 3.8 on glibc 2.36):
//!
//! - alpha: `Alphabetic`, plus non-ASCII decimal digits (glibc puts them
//!   in alpha so that `iswalnum` holds for them, as C forbids them in digit);
//! - upper: `Uppercase` and titlecase letters; lower: `Lowercase` and the
//!   four titlecase digraphs that also have an uppercase form (`ǅ` ...);
//! - space: the separators glibc lists (not the no-break spaces U+00A0,
//!   U+2007, U+202F, nor U+0085); blank: those of them that are not line
//!   or page breaks;
//! - print: assigned, not a control, not a line/paragraph separator; graph:
//!   print without space; punct: graph without alnum; cntrl: `Cc` and the
//!   line/paragraph separators; digit and xdigit: ASCII.
//!
//! The property tables are the `regex` crate's (a newer Unicode than a given
//! glibc's): characters assigned or re-classified since differ.
//!
//! Under `-i` GNU grep matches `[:upper:]` and `[:lower:]` as `[:alpha:]`.

/// Separators that are `[:space:]`.
const SPACE: &str =
    r"\t\n\x0B\x0C\r \x{1680}\x{2000}-\x{2006}\x{2008}-\x{200A}\x{2028}\x{2029}\x{205F}\x{3000}";
/// `[:space:]` less the line breaks: the horizontal ones, which are `[:blank:]`.
const BLANK: &str = r"\t \x{1680}\x{2000}-\x{2006}\x{2008}-\x{200A}\x{205F}\x{3000}";
const ALPHA: &str = r"[\p{Alphabetic}\p{Nd}--[0-9]]";
const ALNUM: &str = r"[\p{Alphabetic}\p{Nd}]";
const GRAPH: &str =
    r"[^\p{Cn}\p{Cc}\x{2028}\x{2029} \x{1680}\x{2000}-\x{2006}\x{2008}-\x{200A}\x{205F}\x{3000}]";

/// The class named `name` (as between `[:` and `:]`) as a nested class for
/// the `regex` crate, or `None` when POSIX has no such class.
pub fn class(name: &[u8], ignore_case: bool) -> Option<String> {
    let set = match name {
        b"upper" | b"lower" if ignore_case => ALPHA.to_string(),
        b"alpha" => ALPHA.to_string(),
        b"alnum" => ALNUM.to_string(),
        b"upper" => r"[\p{Uppercase}\p{Lt}]".to_string(),
        b"lower" => r"[\p{Lowercase}\x{1C5}\x{1C8}\x{1CB}\x{1F2}]".to_string(),
        b"digit" => "[0-9]".to_string(),
        b"xdigit" => "[0-9A-Fa-f]".to_string(),
        b"space" => format!("[{SPACE}]"),
        b"blank" => format!("[{BLANK}]"),
        b"cntrl" => r"[\p{Cc}\x{2028}\x{2029}]".to_string(),
        b"print" => r"[^\p{Cn}\p{Cc}\x{2028}\x{2029}]".to_string(),
        b"graph" => GRAPH.to_string(),
        b"punct" => format!("[{GRAPH}--{ALNUM}]"),
        _ => return None,
    };
    Some(set)
}

/// GNU's `\w`: `[_[:alnum:]]`.
pub fn word() -> String {
    format!("[_{ALNUM}]")
}

/// GNU's `\s`: `[[:space:]]`.
pub fn space() -> String {
    format!("[{SPACE}]")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn set(name: &str, ci: bool) -> regex::Regex {
        let class = class(name.as_bytes(), ci).unwrap();
        regex::Regex::new(&format!("^{class}$")).unwrap()
    }

    #[test]
    fn classes_are_unicode_as_in_glibc() {
        let alpha = set("alpha", false);
        for c in ["é", "Ж", "ª", "٣", "中"] {
            assert!(alpha.is_match(c), "{c}");
        }
        assert!(!alpha.is_match("3") && !alpha.is_match("_"));
        assert!(set("upper", false).is_match("ǅ") && set("lower", false).is_match("ǅ"));
        assert!(set("upper", false).is_match("Ⅷ") && !set("upper", false).is_match("ж"));
        assert!(set("upper", true).is_match("ж"));
        assert!(
            set("space", false).is_match("\u{3000}") && !set("space", false).is_match("\u{a0}")
        );
        assert!(set("punct", false).is_match("«") && set("punct", false).is_match("€"));
        assert!(!set("punct", false).is_match("é"));
        assert!(set("graph", false).is_match("\u{a0}") && !set("graph", false).is_match(" "));
        assert!(set("print", false).is_match(" ") && !set("print", false).is_match("\u{85}"));
        assert!(set("cntrl", false).is_match("\u{2028}"));
        assert!(!set("digit", false).is_match("٣") && !set("xdigit", false).is_match("g"));
        assert_eq!(class(b"digits", false), None);
        assert_eq!(class(b"ALPHA", false), None);
    }
}
