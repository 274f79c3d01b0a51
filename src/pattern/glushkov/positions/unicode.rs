//! Unicode classes as positions: the class's UTF-8 byte sequences
//! (`Utf8Sequences`) in a prefix trie, hash-consed bottom up. Sibling
//! ranges that lead to the same followers become one position (their
//! union), and a position is shared wherever the same (bytes, followers)
//! recurs. Both are exact: what may follow a position is all that defines
//! it.
//!
//! A class's positions depend on the class alone, so each search thread
//! keeps the shapes it has built (`CLASS_SHAPES`) and lays a known one
//! down again at the next free position. Rule packs repeat a handful of
//! classes (`\S`, `\w`, `.`) thousands of times: 10,000 generated rules
//! built their automata in 250 ms on the 2-core VM with a trie per
//! occurrence, in less than half that with the shapes kept.

use super::{range_set, union, Builder, ByteSet, Info, Positions, FREE};
use regex_syntax::hir::ClassUnicode;
use regex_syntax::utf8::Utf8Sequences;
use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;

/// One class's positions, numbered from 0: their bytes, the follow edges
/// among them, and which start and end the class's match.
struct ClassShape {
    bytes: Vec<ByteSet>,
    edges: Vec<(u32, u32)>,
    first: Vec<u32>,
    last: Vec<u32>,
}

/// Shapes a thread keeps before it forgets them all (a bound on memory
/// for packs of many distinct classes; each shape is a few KiB at most).
const CLASS_SHAPES_HELD: usize = 1024;

/// Shapes by their class's ranges.
type Shapes = HashMap<Vec<(char, char)>, Rc<ClassShape>>;

thread_local! {
    static CLASS_SHAPES: RefCell<Shapes> = RefCell::new(HashMap::new());
}

impl ClassShape {
    /// The shape of `c`, built in a builder of its own.
    fn of(c: &ClassUnicode) -> ClassShape {
        let mut trie = vec![Node::default()];
        for r in c.ranges() {
            for seq in Utf8Sequences::new(r.start(), r.end()) {
                let mut at = 0;
                for br in seq.as_slice() {
                    let key = (br.start, br.end);
                    at = match trie[at].children.iter().find(|(k, _)| *k == key) {
                        Some(&(_, next)) => next,
                        None => {
                            trie.push(Node::default());
                            let next = trie.len() - 1;
                            trie[at].children.push((key, next));
                            next
                        }
                    };
                }
            }
        }
        let mut b = Builder {
            out: Positions::default(),
            limit: usize::MAX,
            max_repeat: 0,
        };
        let mut interned = HashMap::new();
        let mut last = Vec::new();
        let first = b.cons(&trie, 0, &mut interned, &mut last);
        ClassShape {
            bytes: b.out.bytes,
            edges: b.out.edges,
            first,
            last,
        }
    }
}

impl Builder {
    /// A Unicode class: its shape (built once per thread) laid down at the
    /// next free position.
    pub(super) fn unicode_class(&mut self, c: &ClassUnicode) -> Result<Info, String> {
        let key: Vec<(char, char)> = c.ranges().iter().map(|r| (r.start(), r.end())).collect();
        let known = CLASS_SHAPES.with(|cache| cache.borrow().get(&key).cloned());
        let shape = known.unwrap_or_else(|| {
            let s = Rc::new(ClassShape::of(c));
            CLASS_SHAPES.with(|cache| {
                let mut cache = cache.borrow_mut();
                if cache.len() >= CLASS_SHAPES_HELD {
                    cache.clear();
                }
                cache.insert(key, Rc::clone(&s));
            });
            s
        });
        if shape.first.is_empty() {
            return Ok(Info::fail());
        }
        if self.out.bytes.len() + shape.bytes.len() > self.limit {
            return Err(format!("more than {} positions", self.limit));
        }
        let base = self.out.bytes.len() as u32;
        self.out.bytes.extend_from_slice(&shape.bytes);
        let edges = shape.edges.iter().map(|&(p, q)| (base + p, base + q));
        self.out.edges.extend(edges);
        Ok(Info {
            nullable: 0,
            first: shape.first.iter().map(|&p| (base + p, FREE)).collect(),
            last: shape.last.iter().map(|&p| (base + p, FREE)).collect(),
        })
    }

    /// The positions that may hold the next byte below trie node `at`:
    /// children leading to equal position lists are merged into one
    /// position (union of their ranges), and equal (bytes, followers)
    /// positions are shared. `last` gets the positions no byte follows.
    fn cons(
        &mut self,
        trie: &[Node],
        at: usize,
        interned: &mut HashMap<(ByteSet, Vec<u32>), u32>,
        last: &mut Vec<u32>,
    ) -> Vec<u32> {
        let mut groups: Vec<(Vec<u32>, ByteSet)> = Vec::new();
        for &((lo, hi), child) in &trie[at].children {
            let follow = self.cons(trie, child, interned, last);
            let set = range_set(lo, hi);
            match groups.iter_mut().find(|(f, _)| *f == follow) {
                Some((_, s)) => union(s, &set),
                None => groups.push((follow, set)),
            }
        }
        let mut out = Vec::new();
        for (follow, set) in groups {
            let key = (set, follow);
            let p = match interned.get(&key) {
                Some(&p) => p,
                None => {
                    self.out.bytes.push(set);
                    let p = (self.out.bytes.len() - 1) as u32;
                    if key.1.is_empty() {
                        last.push(p);
                    }
                    for &q in &key.1 {
                        self.out.edges.push((p, q));
                    }
                    interned.insert(key, p);
                    p
                }
            };
            out.push(p);
        }
        out.sort_unstable();
        out.dedup();
        out
    }
}

/// A node of the UTF-8 prefix trie: its (range, child) edges.
#[derive(Default)]
struct Node {
    children: Vec<((u8, u8), usize)>,
}
