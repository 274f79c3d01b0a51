//! Intervals `{n,m}` (BRE `\{n,m\}`), read as GNU grep reads them.
//!
//! GNU grep compiles every pattern with glibc's regex parser as well as its
//! own DFA, so glibc decides which intervals are errors. Its rules, followed
//! here: `{,m}` is `{0,m}` and `{,}` is `{0,}`; `{}` and `{2,1}` are
//! "Invalid content of \{\}"; a count over 32767 is "Regular expression too
//! big"; text that is not an interval at all (`{x`, `{1`, `{1,x}`) makes the
//! `{` an ordinary character in ERE, and in BRE an error ("Unmatched \{"
//! when the pattern ends first).

/// glibc's `RE_DUP_MAX`.
const DUP_MAX: i64 = 0x7fff;

/// What follows an interval's opening brace.
#[derive(Debug, PartialEq, Eq)]
pub enum Interval {
    /// `{min,max}` (`max` `None`: unbounded), ending before `end`.
    Valid {
        min: u32,
        max: Option<u32>,
        end: usize,
    },
    /// Not an interval: the brace is an ordinary character (ERE only).
    Literal,
    Error(&'static str),
}

pub const BAD_CONTENT: &str = "Invalid content of \\{\\}";
const UNMATCHED: &str = "Unmatched \\{";
const TOO_BIG: &str = "Regular expression too big";

#[derive(Clone, Copy, PartialEq, Eq)]
enum Stop {
    Close,
    Comma,
    End,
}

/// Reads the interval whose `{` (BRE: `\{`) ends just before `pat[i]`.
pub fn interval(pat: &[u8], i: usize, basic: bool) -> Interval {
    let mut at = i;
    let (first, stop) = number(pat, &mut at, basic);
    let min = match (first, stop) {
        (-1, Stop::Comma) => 0,
        (-1, _) => return Interval::Error(BAD_CONTENT),
        (n, _) => n,
    };
    let (max, stop) = match (min, stop) {
        (-2, _) => (-2, stop),
        (_, Stop::Comma) => number(pat, &mut at, basic),
        _ => (min, stop),
    };
    if min == -2 || max == -2 {
        return match (basic, stop) {
            (false, _) => Interval::Literal,
            (true, Stop::End) => Interval::Error(UNMATCHED),
            (true, _) => Interval::Error(BAD_CONTENT),
        };
    }
    if (max != -1 && min > max) || stop != Stop::Close {
        return Interval::Error(BAD_CONTENT);
    }
    if DUP_MAX < if max == -1 { min } else { max } {
        return Interval::Error(TOO_BIG);
    }
    Interval::Valid {
        min: min as u32,
        max: (max != -1).then_some(max as u32),
        end: at,
    }
}

/// glibc's `fetch_number`: digits up to `}` (BRE `\}`) or `,`; -1 when
/// there were none, -2 when something else came first or the pattern ended.
fn number(pat: &[u8], at: &mut usize, basic: bool) -> (i64, Stop) {
    let mut num: i64 = -1;
    loop {
        let Some(&b) = pat.get(*at) else {
            return (-2, Stop::End);
        };
        let escaped = b == b'\\';
        let c = if escaped {
            pat.get(*at + 1).copied()
        } else {
            Some(b)
        };
        *at += 1 + usize::from(escaped && c.is_some());
        match (escaped, c) {
            (true, Some(b'}')) if basic => return (num, Stop::Close),
            (false, Some(b'}')) if !basic => return (num, Stop::Close),
            (false, Some(b',')) => return (num, Stop::Comma),
            (false, Some(d @ b'0'..=b'9')) if num != -2 => {
                let d = i64::from(d - b'0');
                num = if num == -1 {
                    d
                } else {
                    (num * 10 + d).min(DUP_MAX + 1)
                };
            }
            _ => num = -2,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ere(s: &str) -> Interval {
        interval(s.as_bytes(), 0, false)
    }
    fn bre(s: &str) -> Interval {
        interval(s.as_bytes(), 0, true)
    }
    fn valid(min: u32, max: Option<u32>, end: usize) -> Interval {
        Interval::Valid { min, max, end }
    }

    #[test]
    fn glibc_interval_rules() {
        assert_eq!(ere("2}"), valid(2, Some(2), 2));
        assert_eq!(ere(",}x"), valid(0, None, 2));
        assert_eq!(ere(",3}"), valid(0, Some(3), 3));
        assert_eq!(ere("1,}"), valid(1, None, 3));
        assert_eq!(bre("1,2\\}"), valid(1, Some(2), 5));
        assert_eq!(ere("}"), Interval::Error(BAD_CONTENT));
        assert_eq!(ere("2,1}"), Interval::Error(BAD_CONTENT));
        assert_eq!(ere("1,2,3}"), Interval::Error(BAD_CONTENT));
        assert_eq!(ere("32768}"), Interval::Error(TOO_BIG));
        assert_eq!(ere("1,99999999999999999999}"), Interval::Error(TOO_BIG));
        for lit in ["x", "1", "1,2", "1x}", "1,x}", ""] {
            assert_eq!(ere(lit), Interval::Literal, "{lit}");
        }
        assert_eq!(bre("1"), Interval::Error(UNMATCHED));
        assert_eq!(bre("1}"), Interval::Error(UNMATCHED));
        assert_eq!(bre("x\\}"), Interval::Error(BAD_CONTENT));
    }
}
