//! Shell wildcards for `--include`, `--exclude` and `--exclude-dir`, matched
//! as GNU grep does (fnmatch on the base name, or any name suffix after a
//! `/` for command-line operands).

/// A compiled wildcard pattern: `*`, `?`, `[...]` (with `!` or `^`), `\`.
#[derive(Debug, Clone)]
pub struct Glob {
    pattern: Vec<u8>,
}

impl Glob {
    pub fn new(pattern: &str) -> Glob {
        Glob {
            pattern: pattern.as_bytes().to_vec(),
        }
    }

    /// True when the whole of `name` matches.
    pub fn matches(&self, name: &[u8]) -> bool {
        fnmatch(&self.pattern, name)
    }

    /// True when `path` or any suffix of it starting after a `/` matches.
    pub fn matches_suffix(&self, path: &[u8]) -> bool {
        self.matches(path)
            || path
                .iter()
                .enumerate()
                .filter(|&(i, &b)| b == b'/' && i + 1 < path.len() && path[i + 1] != b'/')
                .any(|(i, _)| self.matches(&path[i + 1..]))
    }
}

fn fnmatch(p: &[u8], s: &[u8]) -> bool {
    // Iterative matcher with backtracking to the last `*`.
    let (mut pi, mut si) = (0, 0);
    let mut star: Option<(usize, usize)> = None;
    while si < s.len() {
        if pi < p.len() {
            match p[pi] {
                b'*' => {
                    star = Some((pi, si));
                    pi += 1;
                    continue;
                }
                b'?' => {
                    pi += 1;
                    si += 1;
                    continue;
                }
                b'[' => {
                    if let Some((ok, next)) = class(&p[pi..], s[si]) {
                        if ok {
                            pi += next;
                            si += 1;
                            continue;
                        }
                    } else if s[si] == b'[' {
                        pi += 1;
                        si += 1;
                        continue;
                    }
                }
                b'\\' if pi + 1 < p.len() && p[pi + 1] == s[si] => {
                    pi += 2;
                    si += 1;
                    continue;
                }
                c if c == s[si] => {
                    pi += 1;
                    si += 1;
                    continue;
                }
                _ => {}
            }
        }
        match star {
            Some((sp, ss)) => {
                pi = sp + 1;
                si = ss + 1;
                star = Some((sp, ss + 1));
            }
            None => return false,
        }
    }
    p[pi..].iter().all(|&c| c == b'*')
}

/// Matches `c` against the bracket expression at the start of `p`; returns
/// (matched, length of the expression), or None when it is not closed.
fn class(p: &[u8], c: u8) -> Option<(bool, usize)> {
    let mut i = 1;
    let negate = matches!(p.get(i), Some(b'!') | Some(b'^'));
    if negate {
        i += 1;
    }
    let mut hit = false;
    let mut first = true;
    while i < p.len() {
        if p[i] == b']' && !first {
            return Some((hit != negate, i + 1));
        }
        first = false;
        let lo = p[i];
        if i + 2 < p.len() && p[i + 1] == b'-' && p[i + 2] != b']' {
            hit |= lo <= c && c <= p[i + 2];
            i += 3;
        } else {
            hit |= lo == c;
            i += 1;
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wildcards() {
        assert!(Glob::new("*.rs").matches(b"main.rs"));
        assert!(!Glob::new("*.rs").matches(b"main.rsx"));
        assert!(Glob::new("a?c").matches(b"abc"));
        assert!(Glob::new("[a-c]x").matches(b"bx"));
        assert!(!Glob::new("[!a-c]x").matches(b"bx"));
        assert!(Glob::new("*a*b*").matches(b"xxaxxbxx"));
        assert!(Glob::new(r"\*").matches(b"*"));
        assert!(Glob::new("[x").matches(b"[x"));
    }

    #[test]
    fn suffixes_after_slash() {
        let g = Glob::new("*.log");
        assert!(g.matches_suffix(b"dir/build.log"));
        assert!(Glob::new("sub/x").matches_suffix(b"a/sub/x"));
        assert!(!Glob::new("ub/x").matches_suffix(b"a/sub/x"));
    }
}
