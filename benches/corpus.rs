//! gpugrep-corpus: deterministic benchmark corpus and pattern-list generator.
//!
//! Writes English-like prose, CI-style build logs or Shift-JIS Japanese text
//! of an exact size, either as one file or as a tree of many files, and
//! literal pattern lists for `-F -f` benchmarks.  Uses only `std`; it does
//! not link the gpugrep library.
//!
//! Determinism: the output is a pure function of (kind, seed, size, files).
//! Each file is cut into fixed-size blocks and every block is generated from
//! an RNG seeded by (seed, kind, file index, block index), so the thread
//! count only changes the speed, never the bytes.
//!
//! Usage:
//!   gpugrep-corpus --kind prose|logs|sjis --out PATH --size 1G [--files N]
//!                  [--seed S] [--threads T]
//!   gpugrep-corpus --kind prose|logs|sjis --patterns N --out FILE [--seed S]
//!                  [--format literal|rg-hex]

use std::collections::HashSet;
use std::fs::{self, File};
use std::os::unix::fs::FileExt;
use std::path::{Path, PathBuf};
use std::process::exit;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;

/// Bytes per independently seeded block.  Changing this changes the output.
const BLOCK: u64 = 1 << 20;

// ---------------------------------------------------------------------------
// Random numbers
// ---------------------------------------------------------------------------

/// wyrand: tiny, fast, good enough for text generation.
struct Rng(u64);

impl Rng {
    fn new(seed: u64) -> Rng {
        Rng(mix(seed))
    }

    #[inline]
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0xa076_1d64_78bd_642f);
        let t = u128::from(self.0) * u128::from(self.0 ^ 0xe703_7ed1_a0b4_28db);
        ((t >> 64) as u64) ^ (t as u64)
    }

    /// Uniform in `0..n` (n < 2^32).
    #[inline]
    fn below(&mut self, n: usize) -> usize {
        (((self.next() >> 32) * n as u64) >> 32) as usize
    }

    /// Uniform in `lo..=hi`.
    #[inline]
    fn range(&mut self, lo: usize, hi: usize) -> usize {
        lo + self.below(hi - lo + 1)
    }

    #[inline]
    fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }

    /// Uniform float in [0, 1).
    fn unit(&mut self) -> f64 {
        (self.next() >> 11) as f64 / (1u64 << 53) as f64
    }
}

/// splitmix64 finaliser.
fn mix(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

fn block_seed(seed: u64, kind: Kind, file: u64, block: u64) -> u64 {
    mix(mix(mix(seed ^ (kind as u64).wrapping_mul(0x1234_5678_9abc_def1)) ^ file) ^ block)
}

// ---------------------------------------------------------------------------
// Word tables
// ---------------------------------------------------------------------------

/// One vocabulary, sampled through two 64K-slot tables.  The main table
/// holds common words with Zipf weights; a few of its slots escape to the
/// rare table (names, uncommon words), which gives per-word probabilities
/// down to 2^-32 with two table lookups.
///
/// Each word is stored ready to emit in three variants (plain, capitalised,
/// with a comma), each followed by the word separator, in its own
/// `SLOT`-byte slot: the generator copies a fixed 32 bytes and advances by
/// the variant's length, with no length-dependent branches.
struct Vocab {
    /// Variant `k` of word `i` in slot `3i + k`, zero padded.
    slots: Vec<u8>,
    /// Emitted length of each slot, separator included.
    slot_lens: Vec<u8>,
    /// Length of each bare word.
    lens: Vec<u8>,
    /// Words containing '#' placeholders that become random digits.
    has_digits: Vec<bool>,
    main: Vec<u16>,
    rare: Vec<u16>,
    n_main: usize,
}

const SLOT: usize = 32;

const ESCAPE: u16 = u16::MAX;
/// Main-table slots that escape to the rare table: P(rare) = 256 / 65536.
const ESCAPE_SLOTS: usize = 256;

impl Vocab {
    /// `main` in rough frequency order; `rare` as (word, probability per
    /// word drawn) for fixed-rate entries, and words with `None` sharing the
    /// rest of the rare mass evenly.
    fn new(main: &[Vec<u8>], rare: &[(Vec<u8>, Option<f64>)], st: &Style) -> Vocab {
        let mut v = Vocab {
            slots: Vec::new(),
            slot_lens: Vec::new(),
            lens: Vec::new(),
            has_digits: Vec::new(),
            main: Vec::with_capacity(1 << 16),
            rare: Vec::with_capacity(1 << 16),
            n_main: main.len(),
        };
        for w in main.iter().chain(rare.iter().map(|(w, _)| w)) {
            let mut cap = w.clone();
            if st.capitalise {
                cap[0] = cap[0].to_ascii_uppercase();
            }
            let comma = [&w[..], st.comma].concat();
            for variant in [w, &cap, &comma] {
                let text = [&variant[..], st.sep].concat();
                assert!(text.len() <= SLOT, "word too long for a slot");
                let at = v.slots.len();
                v.slots.resize(at + SLOT, 0);
                v.slots[at..at + text.len()].copy_from_slice(&text);
                v.slot_lens.push(text.len() as u8);
            }
            v.lens.push(w.len() as u8);
            v.has_digits.push(w.contains(&b'#'));
        }
        // Main table: every word at least one slot, the rest by Zipf weight.
        let slots = (1 << 16) - ESCAPE_SLOTS;
        let weights: Vec<f64> = (0..main.len()).map(|r| 1.0 / (r as f64 + 2.0)).collect();
        fill_table(&mut v.main, &weights, slots, 0);
        v.main.extend(std::iter::repeat_n(ESCAPE, ESCAPE_SLOTS));
        // Rare table: fixed-rate entries first, the rest shared.
        let p_escape = ESCAPE_SLOTS as f64 / 65536.0;
        let mut fixed = 0usize;
        for (i, (_, p)) in rare.iter().enumerate() {
            if let Some(p) = p {
                let n = ((p / p_escape) * 65536.0).round().max(1.0) as usize;
                v.rare
                    .extend(std::iter::repeat_n((main.len() + i) as u16, n));
                fixed += n;
            }
        }
        assert!(
            fixed <= 65536,
            "rare-word rates add up to more than P(rare)"
        );
        let shared: Vec<usize> = (0..rare.len()).filter(|&i| rare[i].1.is_none()).collect();
        let rest = 65536 - fixed;
        for (k, &i) in shared.iter().enumerate() {
            let n = rest * (k + 1) / shared.len() - rest * k / shared.len();
            v.rare
                .extend(std::iter::repeat_n((main.len() + i) as u16, n));
        }
        assert_eq!(v.main.len(), 1 << 16);
        assert_eq!(v.rare.len(), 1 << 16);
        v
    }

    /// Draw a word index from 32 random bits.
    #[inline]
    fn draw(&self, r: u64) -> usize {
        let w = self.main[(r & 0xffff) as usize];
        if w != ESCAPE {
            w as usize
        } else {
            self.rare[((r >> 16) & 0xffff) as usize] as usize
        }
    }

    /// The padded slot of variant `k` (0 plain, 1 capitalised, 2 with a
    /// comma) of word `i`, and its length.
    #[inline]
    fn slot(&self, i: usize, k: usize) -> (&[u8; SLOT], usize) {
        let at = (3 * i + k) * SLOT;
        let slot = self.slots[at..at + SLOT].try_into().unwrap();
        (slot, self.slot_lens[3 * i + k] as usize)
    }

    /// The bare word `i`.
    fn word(&self, i: usize) -> &[u8] {
        &self.slot(i, 0).0[..self.lens[i] as usize]
    }

    fn len(&self) -> usize {
        self.lens.len()
    }
}

/// Append `slots` entries to `table`: each index gets one slot plus a share
/// of the remainder proportional to its weight.
fn fill_table(table: &mut Vec<u16>, weights: &[f64], slots: usize, base: usize) {
    let total: f64 = weights.iter().sum();
    let rest = (slots - weights.len()) as f64;
    let mut cum = 0.0;
    for (i, w) in weights.iter().enumerate() {
        let lo = (cum / total * rest).floor() as usize;
        cum += w;
        let hi = if i + 1 == weights.len() {
            rest as usize
        } else {
            (cum / total * rest).floor() as usize
        };
        table.extend(std::iter::repeat_n((base + i) as u16, 1 + hi - lo));
    }
}

/// Turn each '#' in `w` into a random digit.
fn fill_digits(w: &mut [u8], rng: &mut Rng) {
    let mut r = rng.next();
    for b in w.iter_mut().filter(|b| **b == b'#') {
        *b = b'0' + (r % 10) as u8;
        r /= 10;
    }
}

/// Copy a word, turning each '#' into a random digit.
fn push_word(buf: &mut Vec<u8>, w: &[u8], digits: bool, rng: &mut Rng) {
    let at = buf.len();
    buf.extend_from_slice(w);
    if digits {
        fill_digits(&mut buf[at..], rng);
    }
}

// ---------------------------------------------------------------------------
// Prose and Japanese text
// ---------------------------------------------------------------------------

#[rustfmt::skip]
const ENGLISH: &[&str] = &[
    "the", "of", "and", "to", "a", "in", "is", "it", "you", "that", "he", "was", "for", "on",
    "are", "with", "as", "I", "his", "they", "be", "at", "one", "have", "this", "from", "or",
    "had", "by", "not", "word", "but", "what", "some", "we", "can", "out", "other", "were",
    "all", "there", "when", "up", "use", "your", "how", "said", "an", "each", "she", "which",
    "do", "their", "time", "if", "will", "way", "about", "many", "then", "them", "write",
    "would", "like", "so", "these", "her", "long", "make", "thing", "see", "him", "two",
    "has", "look", "more", "day", "could", "go", "come", "did", "number", "sound", "no",
    "most", "people", "my", "over", "know", "water", "than", "call", "first", "who", "may",
    "down", "side", "been", "now", "find", "any", "new", "work", "part", "take", "get",
    "place", "made", "live", "where", "after", "back", "little", "only", "round", "man",
    "year", "came", "show", "every", "good", "me", "give", "our", "under", "name", "very",
    "through", "just", "form", "sentence", "great", "think", "say", "help", "low", "line",
    "differ", "turn", "cause", "much", "mean", "before", "move", "right", "boy", "old", "too",
    "same", "tell", "does", "set", "three", "want", "air", "well", "also", "play", "small",
    "end", "put", "home", "read", "hand", "port", "large", "spell", "add", "even", "land",
    "here", "must", "big", "high", "such", "follow", "act", "why", "ask", "men", "change",
    "went", "light", "kind", "off", "need", "house", "picture", "try", "us", "again",
    "animal", "point", "mother", "world", "near", "build", "self", "earth", "father", "head",
    "stand", "own", "page", "should", "country", "found", "answer", "school", "grow", "study",
    "still", "learn", "plant", "cover", "food", "sun", "four", "between", "state", "keep",
    "eye", "never", "last", "let", "thought", "city", "tree", "cross", "farm", "hard",
    "start", "might", "story", "saw", "far", "sea", "draw", "left", "late", "run", "while",
    "press", "close", "night", "real", "life", "few", "north", "open", "seem", "together",
    "next", "white", "children", "begin", "got", "walk", "example", "ease", "paper", "group",
    "always", "music", "those", "both", "mark", "often", "letter", "until", "mile", "river",
    "car", "feet", "care", "second", "book", "carry", "took", "science", "eat", "room",
    "friend", "began", "idea", "fish", "mountain", "stop", "once", "base", "hear", "horse",
    "cut", "sure", "watch", "color", "face", "wood", "main", "enough", "plain", "girl",
    "usual", "young", "ready", "above", "ever", "red", "list", "though", "feel", "talk",
    "bird", "soon", "body", "dog", "family", "direct", "pose", "leave", "song", "measure",
    "door", "product", "black", "short", "numeral", "class", "wind", "question", "happen",
    "complete", "ship", "area", "half", "rock", "order", "fire", "south", "problem", "piece",
    "told", "knew", "pass", "since", "top", "whole", "king", "space", "heard", "best", "hour",
    "better", "true", "during", "hundred", "five", "remember", "step", "early", "hold",
    "west", "ground", "interest", "reach", "fast", "verb", "sing", "listen", "six", "table",
    "travel", "less", "morning", "ten", "simple", "several", "vowel", "toward", "war", "lay",
    "against", "pattern", "slow", "center", "love", "person", "money", "serve", "appear",
    "road", "map", "rain", "rule", "govern", "pull", "cold", "notice", "voice", "unit",
    "power", "town", "fine", "certain", "fly", "fall", "lead", "cry", "dark", "machine",
    "note", "wait", "plan", "figure", "star", "box", "noun", "field", "rest", "correct",
    "able", "pound", "done", "beauty", "drive", "stood", "contain", "front", "teach", "week",
    "final", "gave", "green", "quick", "develop", "ocean", "warm", "free", "minute", "strong",
    "special", "mind", "behind", "clear", "tail", "produce", "fact", "street", "inch",
    "multiply", "nothing", "course", "stay", "wheel", "full", "force", "blue", "object",
    "decide", "surface", "deep", "moon", "island", "foot", "system", "busy", "test", "record",
    "boat", "common", "gold", "possible", "plane", "stead", "dry", "wonder", "laugh",
    "thousand", "ago", "ran", "check", "game", "shape", "equate", "miss", "brought", "heat",
    "snow", "tire", "bring", "distant", "fill", "east", "paint", "language", "among", "grand",
    "ball", "yet", "wave", "drop", "heart", "present", "heavy", "dance", "engine", "position",
    "arm", "wide", "sail", "material", "size", "vary", "settle", "speak", "weight", "general",
    "ice", "matter", "circle", "pair", "include", "divide", "syllable", "felt", "perhaps",
    "pick", "sudden", "count", "square", "reason", "length", "represent", "art", "subject",
    "region", "energy", "hunt", "probable", "bed", "brother", "egg", "ride", "cell",
    "believe", "fraction", "forest", "sit", "race", "window", "store", "summer", "train",
    "sleep", "prove", "lone", "leg", "exercise", "wall", "catch", "mount", "wish", "sky",
    "board", "joy", "winter", "sat", "written", "wild", "instrument", "kept", "glass",
    "grass", "cow", "job", "edge", "sign", "visit", "past", "soft", "fun", "bright", "gas",
    "weather", "month", "million", "bear", "finish", "happy", "hope", "flower", "clothe",
    "strange", "gone", "jump", "baby", "eight", "village", "meet", "root", "buy", "raise",
    "solve", "metal", "whether", "push", "seven", "paragraph", "third", "shall", "held",
    "hair", "describe", "cook", "floor", "either", "result", "burn", "hill", "safe", "cat",
    "century", "consider", "type", "law", "bit", "coast", "copy", "phrase", "silent", "tall",
    "sand", "soil", "roll", "temperature", "finger", "industry", "value", "fight", "lie",
    "beat", "excite", "natural", "view", "sense", "ear", "else", "quite", "broke", "case",
    "middle", "kill", "son", "lake", "moment", "scale", "loud", "spring", "observe", "child",
    "straight", "consonant", "nation", "dictionary", "milk", "speed", "method", "organ",
    "pay", "age", "section", "dress", "cloud", "surprise", "quiet", "stone", "tiny", "climb",
    "cool", "design", "poor", "lot", "experiment", "bottom", "key", "iron", "single", "stick",
    "flat", "twenty", "skin", "smile", "crease", "hole", "trade", "melody", "trip", "office",
    "receive", "row", "mouth", "exact", "symbol", "die", "least", "trouble", "shout",
    "except", "wrote", "seed", "tone", "join", "suggest", "clean", "break", "lady", "yard",
    "rise", "bad", "blow", "oil", "blood", "touch", "grew", "cent", "mix", "team", "wire",
    "cost", "lost", "brown", "wear", "garden", "equal", "sent", "choose", "fell", "fit",
    "flow", "fair", "bank", "collect", "save", "control", "decimal", "gentle", "woman",
    "captain", "practice", "separate", "difficult", "doctor", "please", "protect", "noon",
    "whose", "locate", "ring", "character", "insect", "caught", "period", "indicate", "radio",
    "spoke", "atom", "human", "history", "effect", "electric", "expect", "crop", "modern",
    "element", "hit", "student", "corner", "party", "supply", "bone", "rail", "imagine",
    "provide", "agree", "thus", "capital", "chair", "danger", "fruit", "rich", "thick",
    "soldier", "process", "operate", "guess", "necessary", "sharp", "wing", "create",
    "neighbor", "wash", "bat", "rather", "crowd", "corn", "compare", "poem", "string", "bell",
    "depend", "meat", "rub", "tube", "famous", "dollar", "stream", "fear", "sight", "thin",
    "triangle", "planet", "hurry", "chief", "colony", "clock", "mine", "tie", "enter",
    "major", "fresh", "search", "send", "yellow", "gun", "allow", "print", "dead", "spot",
    "desert", "suit", "current", "lift", "rose", "continue", "block", "chart", "hat", "sell",
    "success", "company", "subtract", "event", "particular", "deal", "swim", "term",
    "opposite", "wife", "shoe", "shoulder", "spread", "arrange", "camp", "invent", "cotton",
    "born", "determine", "quart", "nine", "truck", "noise", "level", "chance", "gather",
    "shop", "stretch", "throw", "shine", "property", "column", "molecule", "select", "wrong",
    "gray", "repeat", "require", "broad", "prepare", "salt", "nose", "plural", "anger",
    "claim", "continent", "oxygen", "sugar", "death", "pretty", "skill", "women", "season",
    "solution", "magnet", "silver", "thank", "branch", "match", "suffix", "especially", "fig",
    "afraid", "huge", "sister", "steel", "discuss", "forward", "similar", "guide",
    "experience", "score", "apple", "bought", "led", "pitch", "coat", "mass", "card", "band",
    "rope", "slip", "win", "dream", "evening", "condition", "feed", "tool", "total", "basic",
    "smell", "valley", "nor", "double", "seat", "arrive", "master", "track", "parent",
    "shore", "division", "sheet", "substance", "favor", "connect", "post", "spend", "chord",
    "fat", "glad", "original", "share", "station", "dad", "bread", "charge", "proper", "bar",
    "offer", "segment", "slave", "duck", "instant", "market", "degree", "populate", "chick",
    "dear", "enemy", "reply", "drink", "occur", "support", "speech", "nature", "range",
    "steam", "motion", "path", "liquid", "log", "meant", "quotient", "teeth", "shell", "neck",
];

/// Names and uncommon words; probabilities are per word drawn.
#[rustfmt::skip]
const ENGLISH_RARE: &[(&str, Option<f64>)] = &[
    ("Holmes", Some(1.0 / 20_000.0)),
    ("Sherlock Holmes", Some(1.0 / 100_000.0)),
    ("Watson", Some(1.0 / 40_000.0)),
    ("Doctor Watson", Some(1.0 / 400_000.0)),
    ("Sherlock Watson", Some(1.0 / 2_000_000.0)),
    ("Sherlock", Some(1.0 / 400_000.0)),
    ("Mycroft Holmes", Some(1.0 / 500_000.0)),
    ("Mrs. Hudson", Some(1.0 / 200_000.0)),
    ("Lestrade", Some(1.0 / 100_000.0)),
    ("Moriarty", Some(1.0 / 200_000.0)),
    ("Irene Adler", Some(1.0 / 1_000_000.0)),
    ("Baker Street", Some(1.0 / 300_000.0)),
    ("Scotland Yard", Some(1.0 / 200_000.0)),
    ("London", Some(1.0 / 50_000.0)),
    ("##", Some(1.0 / 20_000.0)),
    ("18##", Some(1.0 / 100_000.0)),
    ("###", Some(1.0 / 100_000.0)),
    ("ephemeral", None), ("quixotic", None), ("labyrinth", None), ("obsidian", None),
    ("meridian", None), ("tapestry", None), ("vellum", None), ("cobblestone", None),
    ("lamplight", None), ("gaslight", None), ("hansom", None), ("carriage", None),
    ("telegram", None), ("inspector", None), ("constable", None), ("magistrate", None),
    ("solicitor", None), ("barrister", None), ("pawnbroker", None), ("tobacconist", None),
    ("apothecary", None), ("laudanum", None), ("revolver", None), ("cartridge", None),
    ("footprint", None), ("fingerprint", None), ("cipher", None), ("monograph", None),
    ("violin", None), ("deduction", None), ("inference", None), ("observation", None),
    ("disguise", None), ("chemist", None), ("laboratory", None), ("microscope", None),
    ("magnifying", None), ("lens", None), ("tweed", None), ("ulster", None),
    ("deerstalker", None), ("mantelpiece", None), ("hearthrug", None), ("armchair", None),
    ("bookshelf", None), ("manuscript", None), ("correspondence", None), ("envelope", None),
    ("seal", None), ("wax", None), ("inkwell", None), ("quill", None), ("parchment", None),
    ("almanac", None), ("railway", None), ("platform", None), ("steamer", None),
    ("harbour", None), ("wharf", None), ("warehouse", None), ("alley", None), ("fog", None),
    ("drizzle", None), ("moor", None), ("heath", None), ("hound", None), ("marsh", None),
    ("bog", None), ("cottage", None), ("manor", None), ("estate", None), ("heir", None),
    ("inheritance", None), ("governess", None), ("butler", None), ("housekeeper", None),
    ("coachman", None), ("groom", None), ("stable", None), ("lantern", None),
    ("candle", None), ("shutter", None), ("keyhole", None), ("trapdoor", None),
    ("cellar", None), ("attic", None), ("garret", None), ("lodging", None),
    ("landlady", None), ("tenant", None), ("rent", None), ("sovereign", None),
    ("shilling", None), ("guinea", None), ("farthing", None), ("ledger", None),
    ("banker", None), ("clerk", None), ("bookkeeper", None), ("merchant", None),
    ("sailor", None), ("harpoon", None), ("whaler", None), ("opium", None), ("den", None),
    ("lascar", None), ("beggar", None), ("scoundrel", None), ("villain", None),
    ("accomplice", None), ("alibi", None), ("motive", None), ("suspect", None),
    ("culprit", None), ("verdict", None), ("gallows", None), ("prison", None),
    ("warder", None), ("convict", None), ("escape", None), ("pursuit", None),
    ("ambush", None), ("rendezvous", None), ("midnight", None), ("twilight", None),
    ("daybreak", None), ("cathedral", None), ("abbey", None), ("vicarage", None),
    ("chapel", None), ("churchyard", None), ("tombstone", None), ("graveyard", None),
    ("serpent", None), ("viper", None), ("poison", None), ("arsenic", None),
    ("strychnine", None), ("antidote", None), ("surgeon", None), ("physician", None),
    ("malady", None), ("fever", None), ("delirium", None), ("pallor", None),
    ("countenance", None), ("demeanour", None), ("spectacles", None), ("monocle", None),
    ("cravat", None), ("waistcoat", None), ("bowler", None), ("umbrella", None),
    ("parasol", None), ("gloves", None), ("handkerchief", None), ("brooch", None),
    ("locket", None), ("cameo", None), ("tiara", None), ("emerald", None), ("sapphire", None),
    ("ruby", None), ("garnet", None), ("beryl", None), ("carbuncle", None),
];

#[rustfmt::skip]
const JAPANESE: &[&str] = &[
    "の", "に", "は", "を", "た", "が", "で", "て", "と", "し", "れ", "さ",
    "ある", "いる", "も", "する", "から", "な", "こと", "として", "い", "や",
    "れる", "など", "なっ", "ない", "この", "ため", "その", "あっ", "よう", "また",
    "もの", "という", "あり", "まで", "られ", "なる", "へ", "か", "だ", "これ",
    "によって", "により", "おり", "より", "による", "ず", "なり", "られる", "において",
    "ば", "なかっ", "なく", "しかし", "について", "せ", "だっ", "その後", "できる",
    "それ", "う", "ので", "なお", "のみ", "でき", "き", "つ", "における", "および",
    "いう", "さらに", "でも", "ら", "たり", "その他", "に関する", "たち", "ます",
    "ん", "なら", "に対して", "特に", "せる", "及び", "これら", "とき", "では",
    "にて", "ほか", "ながら", "うち", "そして", "とともに", "ただし", "かつて",
    "それぞれ", "または", "お", "ほど", "ものの", "に対する", "ほとんど", "と共に",
    "といった", "です", "とも", "ところ", "ここ", "私", "彼", "彼女", "日本", "東京",
    "大阪", "京都", "会社", "学校", "先生", "学生", "時間", "今日", "明日", "昨日",
    "人", "電車", "駅", "仕事", "言葉", "問題", "世界", "自分", "友達", "家族",
    "子供", "部屋", "天気", "雨", "雪", "山", "川", "海", "空", "花", "春",
    "夏", "秋", "冬", "朝", "夜", "食べる", "見る", "行く", "来る", "読む",
    "書く", "話す", "思う", "新しい", "古い", "大きい", "小さい", "高い", "安い",
    "本", "映画", "音楽", "電話", "手紙", "名前", "情報", "検索", "文字", "処理",
    "速度", "計算", "機械", "探偵", "事件", "警察", "医者", "犯人", "手がかり",
    "記録", "調査", "証拠", "部分", "場合", "必要", "結果", "方法", "時代", "社会",
    "研究", "発表", "使用", "開発", "東", "西", "南", "北", "町", "村", "道",
    "店", "車", "水", "火", "木", "金", "土", "気", "心", "目", "手", "足",
    "口", "顔", "声", "力", "生活", "中", "上", "下", "前", "後", "左", "右",
    "外", "内", "男", "女", "父", "母", "兄", "姉", "弟", "妹", "コンピュータ",
    "システム", "データ", "ファイル", "プログラム", "サーバー", "メール", "ニュース",
    "テスト", "エラー", "ホテル", "レストラン", "コーヒー", "テレビ", "カメラ", "ゲーム",
    "スポーツ", "ロンドン", "ベーカー街", "ゆっくり", "すぐに", "きっと", "たくさん", "少し",
    "全部", "毎日", "いつも", "時々",
];

const JAPANESE_RARE: &[(&str, Option<f64>)] = &[
    ("ホームズ", Some(1.0 / 5_000.0)),
    ("シャーロック・ホームズ", Some(1.0 / 50_000.0)),
    ("ワトソン", Some(1.0 / 10_000.0)),
    ("ワトソン博士", Some(1.0 / 100_000.0)),
    ("ハドソン夫人", Some(1.0 / 100_000.0)),
    ("レストレード警部", Some(1.0 / 100_000.0)),
    ("モリアーティ教授", Some(1.0 / 200_000.0)),
    ("名探偵", Some(1.0 / 50_000.0)),
    ("殺人事件", Some(1.0 / 50_000.0)),
    ("##年", Some(1.0 / 5_000.0)),
    ("18##年", Some(1.0 / 20_000.0)),
    ("#月##日", Some(1.0 / 10_000.0)),
    ("第#章", Some(1.0 / 20_000.0)),
    ("##人", Some(1.0 / 10_000.0)),
    ("###円", Some(1.0 / 10_000.0)),
    ("午後#時", Some(1.0 / 20_000.0)),
    ("ID-####", Some(1.0 / 50_000.0)),
    ("CPU", Some(1.0 / 50_000.0)),
    ("GPU", Some(1.0 / 50_000.0)),
    ("OK", Some(1.0 / 20_000.0)),
    ("推理", None),
    ("紳士", None),
    ("夫人", None),
    ("警部", None),
    ("教授", None),
    ("謎", None),
    ("霧", None),
    ("馬車", None),
    ("列車", None),
    ("新聞", None),
    ("手帳", None),
    ("鍵", None),
    ("窓", None),
    ("扉", None),
    ("階段", None),
    ("霧の夜", None),
    ("古い手紙", None),
];

/// Punctuation and layout for a text kind.
struct Style {
    sep: &'static [u8],
    comma: &'static [u8],
    ends: [&'static [u8]; 4],
    indent: &'static [u8],
    capitalise: bool,
}

const PROSE_STYLE: Style = Style {
    sep: b" ",
    comma: b",",
    ends: [b".", b".", b"?", b"!"],
    indent: b"",
    capitalise: true,
};

/// Shift-JIS: 、 。 ？ ！ and a full-width space as paragraph indent.
const SJIS_STYLE: Style = Style {
    sep: b"",
    comma: b"\x81\x41",
    ends: [b"\x81\x42", b"\x81\x42", b"\x81\x48", b"\x81\x49"],
    indent: b"\x81\x40",
    capitalise: false,
};

/// Append sentences and paragraphs until `buf` holds at least `target`
/// bytes.  Lines wrap at a random width of 40..=120 bytes.
///
/// The buffer is written by index into pre-zeroed space with fixed-size
/// copies of word slots and a cursor that advances by the real lengths;
/// this keeps the per-word loop short and nearly branch-free.
fn gen_text(v: &Vocab, st: &Style, rng: &mut Rng, buf: &mut Vec<u8>, target: usize) {
    // Room for one more sentence of at most 22 words past `target`.
    const SLACK: usize = 24 * SLOT + 64;
    let base = buf.len();
    buf.resize(base + target + SLACK, 0);
    let mut pos = base;
    let end = base + target;
    let sep = st.sep.len();

    let mut width = rng.range(40, 120);
    let mut line_start = pos;
    let mut lines = 0usize;
    let mut par_lines = rng.range(3, 14);
    buf[pos..pos + st.indent.len()].copy_from_slice(st.indent);
    pos += st.indent.len();
    while pos < end {
        let n = rng.range(4, 22);
        for i in 0..n {
            let r = rng.next();
            let w = v.draw(r);
            // Variant: capitalised first word, else a comma now and then.
            let comma = (r >> 40) & 0xff < 18 && i + 1 < n;
            let k = if i == 0 && st.capitalise {
                1
            } else {
                2 * usize::from(comma)
            };
            let (slot, len) = v.slot(w, k);
            // Wrap before a word that would pass the width: the separator
            // just written (if any) becomes the newline.  Branch-free, as
            // this is unpredictable: the '\n' is overwritten by the word
            // when there is no wrap.
            let wrap = pos > line_start && pos + len - line_start > width + sep;
            let wrap_n = usize::from(wrap);
            pos -= wrap_n * sep;
            buf[pos] = b'\n';
            pos += wrap_n;
            line_start = if wrap { pos } else { line_start };
            lines += wrap_n;
            width = if wrap {
                40 + ((r >> 48) % 81) as usize
            } else {
                width
            };
            buf[pos..pos + SLOT].copy_from_slice(slot);
            if v.has_digits[w] {
                fill_digits(&mut buf[pos..pos + len], rng);
            }
            pos += len;
        }
        // The end mark replaces the last word's separator.
        pos -= sep;
        let mark = st.ends[(rng.next() & 3) as usize];
        buf[pos..pos + mark.len()].copy_from_slice(mark);
        pos += mark.len();
        if lines >= par_lines {
            buf[pos..pos + 2].copy_from_slice(b"\n\n");
            pos += 2;
            lines = 0;
            par_lines = rng.range(3, 14);
            line_start = pos;
            buf[pos..pos + st.indent.len()].copy_from_slice(st.indent);
            pos += st.indent.len();
        } else {
            buf[pos..pos + sep].copy_from_slice(st.sep);
            pos += sep;
        }
    }
    buf.truncate(pos);
}

fn english_vocab() -> Vocab {
    let main: Vec<Vec<u8>> = ENGLISH.iter().map(|w| w.as_bytes().to_vec()).collect();
    let rare: Vec<(Vec<u8>, Option<f64>)> = ENGLISH_RARE
        .iter()
        .map(|(w, p)| (w.as_bytes().to_vec(), *p))
        .collect();
    Vocab::new(&main, &rare, &PROSE_STYLE)
}

fn japanese_vocab() -> Vocab {
    let main: Vec<Vec<u8>> = JAPANESE.iter().map(|w| sjis(w)).collect();
    let rare: Vec<(Vec<u8>, Option<f64>)> =
        JAPANESE_RARE.iter().map(|(w, p)| (sjis(w), *p)).collect();
    Vocab::new(&main, &rare, &SJIS_STYLE)
}

// ---------------------------------------------------------------------------
// Shift-JIS encoder for the characters used above
// ---------------------------------------------------------------------------

/// Kanji (and 々) used by the Japanese word lists, with their Shift-JIS
/// codes.  Hiragana, katakana and punctuation are computed in `sjis_char`.
#[rustfmt::skip]
const KANJI: &[(char, u16)] = &[
    ('々', 0x8158), ('上', 0x8FE3), ('下', 0x89BA), ('世', 0x90A2), ('中', 0x9286), ('事', 0x8E96),
    ('京', 0x8B9E), ('人', 0x906C), ('今', 0x8DA1), ('仕', 0x8E64), ('他', 0x91BC), ('代', 0x91E3),
    ('件', 0x8C8F), ('会', 0x89EF), ('使', 0x8E67), ('供', 0x8B9F), ('偵', 0x92E3), ('兄', 0x8C5A),
    ('先', 0x90E6), ('全', 0x9153), ('共', 0x8BA4), ('内', 0x93E0), ('円', 0x897E), ('冬', 0x937E),
    ('処', 0x8F88), ('分', 0x95AA), ('列', 0x97F1), ('前', 0x914F), ('力', 0x97CD), ('北', 0x966B),
    ('医', 0x88E3), ('午', 0x8CDF), ('南', 0x93EC), ('博', 0x948E), ('及', 0x8B79), ('友', 0x9746),
    ('口', 0x8CFB), ('古', 0x8CC3), ('右', 0x8945), ('合', 0x8D87), ('名', 0x96BC), ('問', 0x96E2),
    ('土', 0x9379), ('報', 0x95F1), ('場', 0x8FEA), ('士', 0x8E6D), ('声', 0x90BA), ('夏', 0x89C4),
    ('外', 0x8A4F), ('夜', 0x96E9), ('大', 0x91E5), ('天', 0x9356), ('夫', 0x9576), ('女', 0x8F97),
    ('妹', 0x9685), ('姉', 0x8E6F), ('子', 0x8E71), ('字', 0x8E9A), ('学', 0x8A77), ('安', 0x88C0),
    ('家', 0x89C6), ('察', 0x8E40), ('対', 0x91CE), ('小', 0x8FAC), ('少', 0x8FAD), ('屋', 0x89AE),
    ('山', 0x8E52), ('川', 0x90EC), ('左', 0x8DB6), ('帳', 0x92A0), ('年', 0x944E), ('店', 0x9358),
    ('度', 0x9378), ('弟', 0x92ED), ('彼', 0x94DE), ('後', 0x8CE3), ('心', 0x9053), ('必', 0x954B),
    ('思', 0x8E76), ('情', 0x8FEE), ('扉', 0x94E0), ('手', 0x8EE8), ('拠', 0x8B92), ('授', 0x8EF6),
    ('探', 0x9254), ('推', 0x9084), ('教', 0x8BB3), ('文', 0x95B6), ('新', 0x9056), ('方', 0x95FB),
    ('族', 0x91B0), ('日', 0x93FA), ('明', 0x96BE), ('映', 0x8966), ('春', 0x8F74), ('昨', 0x8DF0),
    ('時', 0x8E9E), ('書', 0x8F91), ('月', 0x8C8E), ('朝', 0x92A9), ('木', 0x96D8), ('本', 0x967B),
    ('村', 0x91BA), ('来', 0x9788), ('東', 0x938C), ('果', 0x89CA), ('査', 0x8DB8), ('校', 0x8D5A),
    ('械', 0x8A42), ('検', 0x8C9F), ('楽', 0x8A79), ('機', 0x8B40), ('段', 0x9269), ('殺', 0x8E45),
    ('母', 0x95EA), ('毎', 0x9688), ('気', 0x8B43), ('水', 0x9085), ('法', 0x9640), ('活', 0x8A88),
    ('海', 0x8A43), ('火', 0x89CE), ('父', 0x9583), ('特', 0x93C1), ('犯', 0x94C6), ('理', 0x979D),
    ('生', 0x90B6), ('用', 0x9770), ('男', 0x926A), ('町', 0x92AC), ('画', 0x89E6), ('界', 0x8A45),
    ('発', 0x94AD), ('目', 0x96DA), ('研', 0x8CA4), ('社', 0x8ED0), ('私', 0x8E84), ('秋', 0x8F48),
    ('究', 0x8B86), ('空', 0x8BF3), ('窓', 0x918B), ('章', 0x8FCD), ('第', 0x91E6), ('算', 0x8E5A),
    ('紙', 0x8E86), ('索', 0x8DF5), ('紳', 0x9061), ('結', 0x8C8B), ('者', 0x8ED2), ('聞', 0x95B7),
    ('自', 0x8EA9), ('花', 0x89D4), ('葉', 0x9774), ('行', 0x8D73), ('街', 0x8A58), ('表', 0x955C),
    ('西', 0x90BC), ('要', 0x9776), ('見', 0x8CA9), ('言', 0x8CBE), ('計', 0x8C76), ('記', 0x8B4C),
    ('証', 0x8FD8), ('話', 0x9862), ('読', 0x93C7), ('調', 0x92B2), ('謎', 0x93E4), ('警', 0x8C78),
    ('足', 0x91AB), ('車', 0x8ED4), ('速', 0x91AC), ('道', 0x93B9), ('達', 0x9242), ('部', 0x9594),
    ('都', 0x9373), ('金', 0x8BE0), ('録', 0x985E), ('鍵', 0x8CAE), ('開', 0x8A4A), ('間', 0x8AD4),
    ('関', 0x8AD6), ('阪', 0x8DE3), ('階', 0x8A4B), ('雨', 0x894A), ('雪', 0x90E1), ('電', 0x9364),
    ('霧', 0x96B6), ('音', 0x89B9), ('題', 0x91E8), ('顔', 0x8AE7), ('食', 0x9048), ('馬', 0x946E),
    ('駅', 0x8977), ('高', 0x8D82),
];

fn sjis_char(c: char) -> Option<u16> {
    let u = c as u32;
    match u {
        0x00..=0x7f => Some(u as u16),
        // Hiragana ぁ..ん are contiguous from 0x829F.
        0x3041..=0x3093 => Some(0x829f + (u - 0x3041) as u16),
        // Katakana ァ..ヶ from 0x8340, skipping 0x837F.
        0x30a1..=0x30f6 => {
            let off = (u - 0x30a1) as u16;
            Some(0x8340 + off + u16::from(off >= 0x3f))
        }
        _ => match c {
            '\u{3000}' => Some(0x8140),
            '、' => Some(0x8141),
            '。' => Some(0x8142),
            '・' => Some(0x8145),
            '？' => Some(0x8148),
            '！' => Some(0x8149),
            'ー' => Some(0x815b),
            '「' => Some(0x8175),
            '」' => Some(0x8176),
            _ => KANJI.iter().find(|&&(k, _)| k == c).map(|&(_, s)| s),
        },
    }
}

/// Encode a string to Shift-JIS; panics on a character outside the table.
fn sjis(s: &str) -> Vec<u8> {
    let mut out = Vec::with_capacity(s.len());
    for c in s.chars() {
        match sjis_char(c) {
            Some(x) if x < 0x80 => out.push(x as u8),
            Some(x) => out.extend_from_slice(&x.to_be_bytes()),
            None => panic!("no Shift-JIS code for {c:?}"),
        }
    }
    out
}

/// Is `b` a Shift-JIS lead byte?
fn sjis_lead(b: u8) -> bool {
    matches!(b, 0x81..=0x9f | 0xe0..=0xfc)
}

// ---------------------------------------------------------------------------
// Build logs
// ---------------------------------------------------------------------------

#[rustfmt::skip]
const CRATES: &[&str] = &[
    "serde", "tokio", "regex", "memchr", "aho-corasick", "clap", "anyhow", "libc", "rand",
    "bytes", "hyper", "syn", "quote", "proc-macro2", "log", "cc", "futures", "tracing", "mio",
    "parking_lot", "crossbeam", "rayon", "itoa", "ryu", "once_cell", "smallvec", "hashbrown",
    "indexmap", "bitflags", "cfg-if", "gpugrep", "cudarc", "encoding_rs", "ignore", "walkdir",
    "tempfile", "proptest", "nom", "url", "http", "rustls", "ring", "openssl-sys", "zstd",
    "flate2",
];
#[rustfmt::skip]
const DIRS: &[&str] = &[
    "src", "src/engine", "src/engine/cpu", "src/engine/gpu", "src/input", "src/output",
    "src/pattern", "tests", "benches", "kernel/power", "drivers/net", "lib/util", "net/ipv4",
    "fs/ext4", "arch/x86/kernel",
];
#[rustfmt::skip]
const FILES: &[&str] = &[
    "main", "lib", "mod", "search", "scan", "buffer", "config", "tcp", "udp", "suspend",
    "resume", "irq", "alloc", "parse", "lexer", "matcher", "dfa", "nfa", "memory", "io",
];
const EXTS: &[&str] = &[".rs", ".rs", ".rs", ".c", ".h", ".cc", ".py"];
#[rustfmt::skip]
const IDENTS: &[&str] = &[
    "PM_SUSPEND", "CPU_SUSPEND", "SYS_SUSPEND", "ACPI_SUSPEND", "PM_RESUME", "CPU_ONLINE",
    "CPU_OFFLINE", "IRQ_WAKE", "DMA_MAP", "PCI_D3HOT", "EFI_RUNTIME", "TSC_RELIABLE",
    "NMI_WATCHDOG", "PM_HIBERNATE", "USB_AUTOSUSPEND", "MAX_RETRIES", "EAGAIN", "ETIMEDOUT",
    "ECONNRESET", "SIGTERM", "pm_suspend", "cpu_suspend_enter",
];
#[rustfmt::skip]
const COMPONENTS: &[&str] = &[
    "builder", "cargo", "rustc", "linker", "runner", "scheduler", "cache", "fetch", "kernel",
    "net", "db", "auth", "storage", "gpu", "deploy",
];
#[rustfmt::skip]
const MODS: &[&str] = &[
    "engine", "cpu", "gpu", "pattern", "literal", "regex", "output", "input", "cli", "search",
    "count", "ignore", "utf8", "sjis",
];
#[rustfmt::skip]
const FNS: &[&str] = &[
    "matches_literal", "counts_lines", "handles_empty_file", "case_insensitive",
    "word_boundary", "multiple_patterns", "binary_detection", "large_file", "crlf_lines",
    "invert_match", "long_lines", "unicode_classes", "timeout_handling", "suspend_resume",
];
#[rustfmt::skip]
const LOCALS: &[&str] = &[
    "buf", "len", "idx", "offset", "count", "state", "ctx", "tmp", "result", "handle",
];
const BRANCHES: &[&str] = &[
    "main",
    "release/1.4",
    "feature/gpu-dfa",
    "fix/timeout",
    "dev",
];
const HEX: &[u8; 16] = b"0123456789abcdef";

#[inline]
fn push_num(buf: &mut Vec<u8>, n: u64) {
    buf.extend_from_slice(gpugrep::output::decimal::Decimal::new(n).as_bytes());
}

#[inline]
fn push2(buf: &mut Vec<u8>, n: u64) {
    buf.extend_from_slice(&[b'0' + (n / 10) as u8, b'0' + (n % 10) as u8]);
}

#[inline]
fn push_hex(buf: &mut Vec<u8>, rng: &mut Rng, digits: usize) {
    let mut left = digits;
    while left > 0 {
        let mut r = rng.next();
        for _ in 0..left.min(16) {
            buf.push(HEX[(r & 15) as usize]);
            r >>= 4;
        }
        left = left.saturating_sub(16);
    }
}

fn push_path(buf: &mut Vec<u8>, rng: &mut Rng) {
    buf.extend_from_slice(rng.pick(DIRS).as_bytes());
    buf.push(b'/');
    buf.extend_from_slice(rng.pick(FILES).as_bytes());
    buf.extend_from_slice(rng.pick(EXTS).as_bytes());
}

fn push_test(buf: &mut Vec<u8>, rng: &mut Rng) {
    buf.extend_from_slice(rng.pick(MODS).as_bytes());
    buf.extend_from_slice(b"::");
    buf.extend_from_slice(rng.pick(MODS).as_bytes());
    buf.extend_from_slice(b"::");
    buf.extend_from_slice(rng.pick(FNS).as_bytes());
}

fn push_host(buf: &mut Vec<u8>, rng: &mut Rng) {
    match rng.below(4) {
        0 => {
            buf.extend_from_slice(b"10.0.");
            push_num(buf, rng.below(32) as u64);
            buf.push(b'.');
            push_num(buf, rng.range(1, 254) as u64);
        }
        1 => {
            buf.extend_from_slice(b"ci-runner-");
            push_num(buf, rng.below(64) as u64);
            buf.extend_from_slice(b".internal");
        }
        2 => {
            buf.extend_from_slice(b"db-");
            push_num(buf, rng.below(8) as u64);
            buf.extend_from_slice(b".prod");
        }
        _ => buf.extend_from_slice(b"registry.example.com"),
    }
}

fn push_version(buf: &mut Vec<u8>, rng: &mut Rng) {
    buf.push(b'v');
    push_num(buf, rng.below(3) as u64);
    buf.push(b'.');
    push_num(buf, rng.below(40) as u64);
    buf.push(b'.');
    push_num(buf, rng.below(20) as u64);
}

/// Append log lines until `buf` holds at least `target` bytes.  `day` and
/// the starting time come from the block index so that blocks differ.
fn gen_logs(rng: &mut Rng, buf: &mut Vec<u8>, target: usize, day: u64) {
    let month = 1 + day / 28 % 12;
    let mday = 1 + day % 28;
    let mut date = b"2026-00-00T".to_vec();
    date[5] = b'0' + (month / 10) as u8;
    date[6] = b'0' + (month % 10) as u8;
    date[8] = b'0' + (mday / 10) as u8;
    date[9] = b'0' + (mday % 10) as u8;
    let mut ms = rng.next() % 80_000_000;
    while buf.len() < target {
        let r = rng.next();
        ms = (ms + (r >> 54)) % 86_400_000;
        if (r & 0xff) < 20 {
            continuation_line(buf, rng);
            continue;
        }
        buf.extend_from_slice(&date);
        push2(buf, ms / 3_600_000);
        buf.push(b':');
        push2(buf, ms / 60_000 % 60);
        buf.push(b':');
        push2(buf, ms / 1000 % 60);
        buf.push(b'.');
        let milli = ms % 1000;
        push2(buf, milli / 10);
        buf.push(b'0' + (milli % 10) as u8);
        buf.extend_from_slice(b"Z ");
        let level = (r >> 8) % 1000;
        let (name, kind): (&[u8], u8) = match level {
            0..=4 => (b"FATAL", 4),
            5..=29 => (b"ERROR", 3),
            30..=99 => (b"WARN ", 2),
            100..=299 => (b"DEBUG", 1),
            _ => (b"INFO ", 0),
        };
        buf.extend_from_slice(name);
        buf.push(b' ');
        if (r >> 20) & 7 == 0 {
            buf.extend_from_slice(b"worker-");
            push_num(buf, (r >> 24) & 31);
        } else {
            buf.extend_from_slice(rng.pick(COMPONENTS).as_bytes());
        }
        buf.extend_from_slice(b": ");
        let t = ((r >> 32) & 0xffff) as usize;
        match kind {
            0 => info_msg(buf, rng, t),
            1 => debug_msg(buf, rng, t),
            2 => warn_msg(buf, rng, t),
            3 => error_msg(buf, rng, t),
            _ => fatal_msg(buf, rng, t),
        }
        buf.push(b'\n');
    }
}

fn continuation_line(buf: &mut Vec<u8>, rng: &mut Rng) {
    match rng.below(5) {
        0 => {
            buf.extend_from_slice(b"   --> ");
            push_path(buf, rng);
            buf.push(b':');
            push_num(buf, rng.range(1, 2000) as u64);
            buf.push(b':');
            push_num(buf, rng.range(1, 80) as u64);
        }
        1 => buf.extend_from_slice(b"    |"),
        2 => {
            buf.extend_from_slice(b"    = note: `#[warn(unused_variables)]` on by default");
        }
        3 => {
            buf.extend_from_slice(b"   ");
            push_num(buf, rng.below(30) as u64);
            buf.extend_from_slice(b": 0x");
            push_hex(buf, rng, 12);
            buf.extend_from_slice(b" - ");
            push_test(buf, rng);
        }
        _ => buf.extend_from_slice(b"stack backtrace:"),
    }
    buf.push(b'\n');
}

fn info_msg(buf: &mut Vec<u8>, rng: &mut Rng, t: usize) {
    match t % 8 {
        0 | 1 => {
            buf.extend_from_slice(b"Compiling ");
            buf.extend_from_slice(rng.pick(CRATES).as_bytes());
            buf.push(b' ');
            push_version(buf, rng);
        }
        2 | 3 => {
            buf.extend_from_slice(b"test ");
            push_test(buf, rng);
            buf.extend_from_slice(if t & 0x100 == 0 {
                b" ... ok"
            } else {
                b" ... ignored"
            });
        }
        4 => {
            buf.extend_from_slice(b"Running `target/release/deps/");
            buf.extend_from_slice(rng.pick(CRATES).as_bytes());
            buf.push(b'-');
            push_hex(buf, rng, 16);
            buf.extend_from_slice(b"` (");
            push_num(buf, rng.below(300) as u64);
            buf.extend_from_slice(b" tests)");
        }
        5 => {
            buf.extend_from_slice(b"checkout ");
            push_hex(buf, rng, 40);
            buf.extend_from_slice(b" on branch ");
            buf.extend_from_slice(rng.pick(BRANCHES).as_bytes());
        }
        6 => {
            buf.extend_from_slice(b"cache hit for key ");
            push_hex(buf, rng, 16);
            buf.extend_from_slice(b" (");
            push_num(buf, rng.below(1 << 20) as u64);
            buf.extend_from_slice(b" bytes)");
        }
        _ => {
            buf.extend_from_slice(b"Finished release [optimized] target(s) in ");
            push_num(buf, rng.below(600) as u64);
            buf.push(b'.');
            push2(buf, rng.below(100) as u64);
            buf.push(b's');
        }
    }
}

fn debug_msg(buf: &mut Vec<u8>, rng: &mut Rng, t: usize) {
    match t % 3 {
        0 | 1 => {
            buf.extend_from_slice(rng.pick(IDENTS).as_bytes());
            buf.extend_from_slice(b" state=");
            push_num(buf, rng.below(8) as u64);
            buf.extend_from_slice(b" cpu=");
            push_num(buf, rng.below(64) as u64);
            buf.extend_from_slice(b" flags=0x");
            push_hex(buf, rng, 8);
        }
        _ => {
            buf.extend_from_slice(b"spawn pid=");
            push_num(buf, rng.range(100, 65000) as u64);
            buf.extend_from_slice(b" cmd=");
            push_path(buf, rng);
        }
    }
}

fn warn_msg(buf: &mut Vec<u8>, rng: &mut Rng, t: usize) {
    match t % 4 {
        0 | 1 => {
            push_path(buf, rng);
            buf.push(b':');
            push_num(buf, rng.range(1, 2000) as u64);
            buf.push(b':');
            push_num(buf, rng.range(1, 80) as u64);
            buf.extend_from_slice(b": warning: unused variable `");
            buf.extend_from_slice(rng.pick(LOCALS).as_bytes());
            buf.push(b'`');
        }
        2 => {
            buf.extend_from_slice(b"retrying request to ");
            push_host(buf, rng);
            buf.extend_from_slice(b" (attempt ");
            push_num(buf, rng.range(1, 5) as u64);
            buf.extend_from_slice(b"/5)");
        }
        _ => {
            buf.extend_from_slice(b"slow test ");
            push_test(buf, rng);
            buf.extend_from_slice(b" took ");
            push_num(buf, rng.range(1000, 90000) as u64);
            buf.extend_from_slice(b"ms");
        }
    }
}

fn error_msg(buf: &mut Vec<u8>, rng: &mut Rng, t: usize) {
    match t % 5 {
        0 => {
            push_path(buf, rng);
            buf.push(b':');
            push_num(buf, rng.range(1, 2000) as u64);
            buf.extend_from_slice(b": error[E0");
            push_num(buf, rng.range(100, 799) as u64);
            buf.extend_from_slice(b"]: mismatched types");
        }
        1 => {
            buf.extend_from_slice(b"test ");
            push_test(buf, rng);
            buf.extend_from_slice(b" ... FAILED");
        }
        2 | 3 => {
            buf.extend_from_slice(b"request 0x");
            push_hex(buf, rng, 12);
            buf.extend_from_slice(b" to ");
            push_host(buf, rng);
            buf.extend_from_slice(b" failed: timeout after ");
            push_num(buf, rng.range(1, 60) as u64 * 1000);
            buf.extend_from_slice(b" ms");
        }
        _ => {
            buf.extend_from_slice(b"job ");
            push_num(buf, rng.below(100_000) as u64);
            buf.extend_from_slice(b" exited with status ");
            push_num(buf, rng.range(1, 255) as u64);
        }
    }
}

fn fatal_msg(buf: &mut Vec<u8>, rng: &mut Rng, t: usize) {
    match t % 3 {
        0 => {
            buf.extend_from_slice(b"connection timeout to ");
            push_host(buf, rng);
            buf.push(b':');
            push_num(buf, *rng.pick(&[5432u64, 6379, 443, 8080, 9000]));
        }
        1 => {
            buf.extend_from_slice(b"out of memory allocating ");
            push_num(buf, rng.below(1 << 30) as u64);
            buf.extend_from_slice(b" bytes");
        }
        _ => {
            buf.extend_from_slice(rng.pick(&IDENTS[..4]).as_bytes());
            buf.extend_from_slice(b" failed: device ");
            push_hex(buf, rng, 4);
            buf.extend_from_slice(b" busy");
        }
    }
}

// ---------------------------------------------------------------------------
// Corpus kinds and blocks
// ---------------------------------------------------------------------------

#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    Prose = 1,
    Logs = 2,
    Sjis = 3,
}

impl Kind {
    fn parse(s: &str) -> Option<Kind> {
        match s {
            "prose" => Some(Kind::Prose),
            "logs" => Some(Kind::Logs),
            "sjis" => Some(Kind::Sjis),
            _ => None,
        }
    }

    fn ext(self) -> &'static str {
        match self {
            Kind::Logs => "log",
            _ => "txt",
        }
    }
}

struct Generator {
    kind: Kind,
    seed: u64,
    vocab: Option<Vocab>,
}

impl Generator {
    fn new(kind: Kind, seed: u64) -> Generator {
        let vocab = match kind {
            Kind::Prose => Some(english_vocab()),
            Kind::Sjis => Some(japanese_vocab()),
            Kind::Logs => None,
        };
        Generator { kind, seed, vocab }
    }

    /// Exactly `len` bytes for block `block` of file `file`, ending in '\n'.
    fn block(&self, file: u64, block: u64, len: usize, buf: &mut Vec<u8>) {
        buf.clear();
        let mut rng = Rng::new(block_seed(self.seed, self.kind, file, block));
        match (self.kind, &self.vocab) {
            (Kind::Prose, Some(v)) => gen_text(v, &PROSE_STYLE, &mut rng, buf, len),
            (Kind::Sjis, Some(v)) => gen_text(v, &SJIS_STYLE, &mut rng, buf, len),
            _ => gen_logs(
                &mut rng,
                buf,
                len,
                file.wrapping_mul(7919).wrapping_add(block),
            ),
        }
        buf.truncate(len);
        if len == 0 {
            return;
        }
        buf[len - 1] = b'\n';
        if self.kind == Kind::Sjis {
            // Do not leave half a double-byte character before the newline.
            let start = buf[..len - 1]
                .iter()
                .rposition(|&b| b == b'\n')
                .map_or(0, |p| p + 1);
            let mut i = start;
            while i < len - 1 {
                if sjis_lead(buf[i]) {
                    if i + 1 == len - 1 {
                        buf[i] = b' ';
                    }
                    i += 2;
                } else {
                    i += 1;
                }
            }
        }
    }
}

// ---------------------------------------------------------------------------
// Output layout and parallel writing
// ---------------------------------------------------------------------------

struct OutFile {
    path: PathBuf,
    size: u64,
}

/// One block of one file: what a worker generates and writes.
struct Unit {
    file: usize,
    block: u64,
    len: u64,
}

/// File sizes for a tree of `n` files: log-uniform between 1/8 and 8 times
/// the mean, scaled so that they add up to exactly `total`.
fn file_sizes(total: u64, n: usize, seed: u64) -> Vec<u64> {
    let mut rng = Rng::new(seed ^ 0x5eed_f11e_5123_4567);
    let w: Vec<f64> = (0..n)
        .map(|_| ((rng.unit() * 2.0 - 1.0) * 8f64.ln()).exp())
        .collect();
    let sum: f64 = w.iter().sum();
    let mut sizes: Vec<u64> = w
        .iter()
        .map(|x| (x / sum * total as f64).floor() as u64)
        .collect();
    let mut left = total - sizes.iter().sum::<u64>().min(total);
    for s in sizes.iter_mut() {
        if left == 0 {
            break;
        }
        *s += 1;
        left -= 1;
    }
    // Floating-point rounding can only leave a tiny remainder; put it first.
    sizes[0] += left;
    let over = sizes.iter().sum::<u64>().saturating_sub(total);
    sizes[0] -= over;
    sizes
}

fn layout(kind: Kind, out: &Path, size: u64, files: usize, seed: u64) -> Vec<OutFile> {
    if files <= 1 {
        return vec![OutFile {
            path: out.to_path_buf(),
            size,
        }];
    }
    file_sizes(size, files, seed)
        .into_iter()
        .enumerate()
        .map(|(i, size)| OutFile {
            path: out
                .join(format!("{:03}", i / 1000))
                .join(format!("{:06}.{}", i, kind.ext())),
            size,
        })
        .collect()
}

fn die(msg: String) -> ! {
    eprintln!("gpugrep-corpus: {msg}");
    exit(1)
}

/// Generate and write all files; returns the number of worker threads used.
///
/// Note: several threads writing one tmpfs file serialise on its inode lock
/// (about 3 GB/s in all); a tree of files scales with the thread count.
fn write_corpus(g: &Generator, files: &[OutFile], threads: usize) -> usize {
    let mut units = Vec::new();
    for (f, of) in files.iter().enumerate() {
        if let Some(dir) = of.path.parent() {
            if !dir.as_os_str().is_empty() {
                fs::create_dir_all(dir).unwrap_or_else(|e| die(format!("{}: {e}", dir.display())));
            }
        }
        let blocks = of.size.div_ceil(BLOCK).max(1);
        if blocks > 1 {
            // Multi-block files are sized here and filled with positioned
            // writes by whichever worker takes each block.
            File::create(&of.path)
                .and_then(|h| h.set_len(of.size))
                .unwrap_or_else(|e| die(format!("{}: {e}", of.path.display())));
        }
        for b in 0..blocks {
            units.push(Unit {
                file: f,
                block: b,
                len: (of.size - b * BLOCK).min(BLOCK),
            });
        }
    }
    let next = AtomicUsize::new(0);
    let workers = threads.min(units.len());
    std::thread::scope(|s| {
        for _ in 0..workers {
            s.spawn(|| {
                let mut buf = Vec::with_capacity(BLOCK as usize + 4096);
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    let Some(u) = units.get(i) else { break };
                    let of = &files[u.file];
                    g.block(u.file as u64, u.block, u.len as usize, &mut buf);
                    let res = if of.size <= BLOCK {
                        fs::write(&of.path, &buf)
                    } else {
                        fs::OpenOptions::new()
                            .write(true)
                            .open(&of.path)
                            .and_then(|h| h.write_all_at(&buf, u.block * BLOCK))
                    };
                    res.unwrap_or_else(|e| die(format!("{}: {e}", of.path.display())));
                }
            });
        }
    });
    workers
}

// ---------------------------------------------------------------------------
// Pattern lists for -F -f
// ---------------------------------------------------------------------------

/// Log-uniform rank in `lo..n`: a mix of common and rare words.  Ranks
/// below `lo` (the, of, の, ...) are left out: phrases made of them match
/// nearly every line.
fn log_rank(rng: &mut Rng, lo: usize, n: usize) -> usize {
    let (a, b) = ((lo as f64 + 1.0).ln(), (n as f64 + 1.0).ln());
    ((((a + rng.unit() * (b - a)).exp()) as usize).saturating_sub(1)).clamp(lo, n - 1)
}

/// `words` words of rank at least `lo`, joined by `sep`.
fn phrase(v: &Vocab, rng: &mut Rng, words: usize, lo: usize, sep: &[u8]) -> Vec<u8> {
    let mut p = Vec::new();
    for i in 0..words {
        if i > 0 {
            p.extend_from_slice(sep);
        }
        let w = log_rank(rng, lo, v.n_main);
        push_word(&mut p, v.word(w), v.has_digits[w], rng);
    }
    p
}

/// One candidate pattern for a text kind.  Absent patterns contain a byte
/// sequence the generator never emits (an upper-case Q inside a word, or a
/// katakana run that is not in the word list).
fn text_pattern(v: &Vocab, rng: &mut Rng, sjis_text: bool) -> Vec<u8> {
    let sep: &[u8] = if sjis_text { b"" } else { b" " };
    let d = rng.below(100);
    match d {
        0..=14 => {
            let p = phrase(v, rng, 1, 200, sep);
            // Single words must not be tiny: "a" or "の" match every line.
            if p.len() >= 6 {
                p
            } else {
                phrase(v, rng, 2, 30, sep)
            }
        }
        15..=59 => phrase(v, rng, 2, 30, sep),
        60..=71 => phrase(v, rng, 3, 0, sep),
        72..=84 => {
            let w = v.n_main + rng.below(v.len() - v.n_main);
            let mut p = Vec::new();
            push_word(&mut p, v.word(w), v.has_digits[w], rng);
            p
        }
        _ => {
            let words = 1 + rng.below(2);
            let mut p = phrase(v, rng, words, 30, sep);
            if sjis_text {
                let mut q = sjis("ヂヅヂ");
                q.extend_from_slice(&p);
                q
            } else {
                p.insert(1, b'Q');
                p
            }
        }
    }
}

fn log_pattern(rng: &mut Rng) -> Vec<u8> {
    let mut p = Vec::new();
    match rng.below(12) {
        0 => p.extend_from_slice(rng.pick(IDENTS).as_bytes()),
        1 => {
            p.extend_from_slice(b"Compiling ");
            p.extend_from_slice(rng.pick(CRATES).as_bytes());
            p.push(b' ');
            push_version(&mut p, rng);
        }
        2 | 3 => push_test(&mut p, rng),
        4 | 5 => {
            push_path(&mut p, rng);
            p.push(b':');
            push_num(&mut p, rng.range(1, 2000) as u64);
        }
        6 => push_host(&mut p, rng),
        7 => {
            p.extend_from_slice(b"timeout after ");
            push_num(&mut p, rng.range(1, 60) as u64 * 1000);
        }
        8 => {
            p.extend_from_slice(b"error[E0");
            push_num(&mut p, rng.range(100, 799) as u64);
            p.push(b']');
        }
        9 => {
            p.extend_from_slice(rng.pick(IDENTS).as_bytes());
            p.extend_from_slice(b" state=");
            push_num(&mut p, rng.below(8) as u64);
            p.extend_from_slice(b" cpu=");
            push_num(&mut p, rng.below(64) as u64);
        }
        10 => {
            p.extend_from_slice(b"exited with status ");
            push_num(&mut p, rng.range(1, 255) as u64);
        }
        _ => {
            // Absent: a worker that never exists, or a random hash.
            if rng.below(2) == 0 {
                p.extend_from_slice(b"worker-");
                push_num(&mut p, rng.range(1000, 99999) as u64);
            } else {
                p.extend_from_slice(b"deadbeef");
                push_hex(&mut p, rng, 8);
            }
        }
    }
    p
}

/// Write `n` distinct patterns, one per line.  With `rg_hex`, each is
/// written as a byte-exact regex, `(?-u:\xHH...)`: ripgrep refuses
/// patterns that are not UTF-8 (Shift-JIS), even with -F.
fn write_patterns(kind: Kind, n: usize, seed: u64, out: &Path, rg_hex: bool) {
    let g = Generator::new(kind, seed);
    let mut rng = Rng::new(mix(seed ^ 0x7a77_e125));
    let mut seen = HashSet::new();
    let mut list = Vec::with_capacity(n);
    let mut tries = 0usize;
    while list.len() < n {
        tries += 1;
        if tries > n * 1000 + 100_000 {
            die(format!("could only find {} distinct patterns", list.len()));
        }
        let p = match &g.vocab {
            Some(v) => text_pattern(v, &mut rng, kind == Kind::Sjis),
            None => log_pattern(&mut rng),
        };
        if !p.is_empty() && seen.insert(p.clone()) {
            list.push(p);
        }
    }
    let mut data = Vec::new();
    for p in &list {
        if rg_hex {
            data.extend_from_slice(b"(?-u:");
            for &b in p {
                let (hi, lo) = (HEX[usize::from(b >> 4)], HEX[usize::from(b & 15)]);
                data.extend_from_slice(&[b'\\', b'x', hi, lo]);
            }
            data.push(b')');
        } else {
            data.extend_from_slice(p);
        }
        data.push(b'\n');
    }
    if let Some(dir) = out.parent().filter(|d| !d.as_os_str().is_empty()) {
        fs::create_dir_all(dir).unwrap_or_else(|e| die(format!("{}: {e}", dir.display())));
    }
    fs::write(out, data).unwrap_or_else(|e| die(format!("{}: {e}", out.display())));
    eprintln!("wrote {n} patterns to {}", out.display());
}

// ---------------------------------------------------------------------------
// Command line
// ---------------------------------------------------------------------------

const USAGE: &str = "usage:
  gpugrep-corpus --kind prose|logs|sjis --out PATH --size SIZE [--files N]
                 [--seed S] [--threads T]
  gpugrep-corpus --kind prose|logs|sjis --patterns N --out FILE [--seed S]
                 [--format literal|rg-hex]

SIZE takes K, M, G or T suffixes (powers of 1024).  With --files N > 1, PATH
is a directory holding N files in subdirectories of at most 1000 files.";

/// Parse sizes such as 4096, 64K, 1.5G, 2GiB.
fn parse_size(s: &str) -> Option<u64> {
    let t = s
        .trim()
        .trim_end_matches(['B', 'b'])
        .trim_end_matches(['i', 'I']);
    let (num, mult) = match t.chars().last()?.to_ascii_uppercase() {
        'K' => (&t[..t.len() - 1], 1u64 << 10),
        'M' => (&t[..t.len() - 1], 1 << 20),
        'G' => (&t[..t.len() - 1], 1 << 30),
        'T' => (&t[..t.len() - 1], 1 << 40),
        _ => (t, 1),
    };
    if let Ok(n) = num.parse::<u64>() {
        return n.checked_mul(mult);
    }
    let f: f64 = num.parse().ok()?;
    (f >= 0.0).then_some((f * mult as f64) as u64)
}

fn main() {
    let mut kind = None;
    let mut out = None;
    let mut size = None;
    let mut files = 1usize;
    let mut seed = 42u64;
    let mut threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    let mut patterns = None;
    let mut rg_hex = false;

    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        let (name, inline) = match arg.split_once('=') {
            Some((n, v)) if n.starts_with("--") => (n.to_string(), Some(v.to_string())),
            _ => (arg.clone(), None),
        };
        if name == "-h" || name == "--help" {
            println!("{USAGE}");
            return;
        }
        let value = inline
            .or_else(|| args.next())
            .unwrap_or_else(|| die(format!("{name} needs a value\n{USAGE}")));
        let bad = || -> ! { die(format!("bad value for {name}: {value:?}")) };
        match name.as_str() {
            "--kind" => kind = Some(Kind::parse(&value).unwrap_or_else(|| bad())),
            "--out" => out = Some(PathBuf::from(&value)),
            "--size" => size = Some(parse_size(&value).unwrap_or_else(|| bad())),
            "--files" => files = value.parse().unwrap_or_else(|_| bad()),
            "--seed" => seed = value.parse().unwrap_or_else(|_| bad()),
            "--threads" => threads = value.parse().unwrap_or_else(|_| bad()),
            "--patterns" => patterns = Some(value.parse().unwrap_or_else(|_| bad())),
            "--format" => {
                rg_hex = match value.as_str() {
                    "literal" => false,
                    "rg-hex" => true,
                    _ => bad(),
                }
            }
            _ => die(format!("unknown option {name}\n{USAGE}")),
        }
    }
    let kind = kind.unwrap_or_else(|| die(format!("--kind is required\n{USAGE}")));
    let out = out.unwrap_or_else(|| die(format!("--out is required\n{USAGE}")));
    if let Some(n) = patterns {
        write_patterns(kind, n, seed, &out, rg_hex);
        return;
    }
    let size = size.unwrap_or_else(|| die(format!("--size is required\n{USAGE}")));
    let threads = threads.max(1);

    let start = Instant::now();
    let g = Generator::new(kind, seed);
    let list = layout(kind, &out, size, files, seed);
    let workers = write_corpus(&g, &list, threads);
    let total: u64 = list.iter().map(|f| f.size).sum();
    let secs = start.elapsed().as_secs_f64();
    let mbs = total as f64 / secs / 1e6;
    eprintln!(
        "wrote {total} bytes in {} file(s) to {}: {secs:.2} s, {mbs:.0} MB/s, {workers} thread(s), {:.0} MB/s per thread",
        list.len(),
        out.display(),
        mbs / workers.max(1) as f64,
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sjis_table_samples() {
        assert_eq!(sjis("あ"), b"\x82\xa0");
        assert_eq!(sjis("ホ"), b"\x83\x7a");
        assert_eq!(sjis("ム"), b"\x83\x80");
        assert_eq!(sjis("東京"), b"\x93\x8c\x8b\x9e");
    }

    #[test]
    fn blocks_are_exact_and_deterministic() {
        for kind in [Kind::Prose, Kind::Logs, Kind::Sjis] {
            let g = Generator::new(kind, 7);
            let (mut a, mut b) = (Vec::new(), Vec::new());
            g.block(3, 5, 100_000, &mut a);
            g.block(3, 5, 100_000, &mut b);
            assert_eq!(a.len(), 100_000);
            assert_eq!(a, b);
            assert_eq!(a.last(), Some(&b'\n'));
        }
    }

    #[test]
    fn sizes_add_up() {
        for (total, n) in [(1u64 << 30, 1000usize), (12345, 7), (5, 10)] {
            assert_eq!(file_sizes(total, n, 1).iter().sum::<u64>(), total);
        }
    }
}
