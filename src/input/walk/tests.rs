use super::*;

/// Names whose byte order differs from their paths' order ("a-c" sorts
/// before "a/b" as bytes, after it as components), nested and not.
fn tree() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let files = [
        "a/b", "a/c/d", "a-c", "a.txt", "a0/x", "B", "b/a/a/a", "b/a.x", "é/1", "z", "A b/ c",
        "a/c-d/e", "a/c/d-e",
    ];
    for f in files {
        let p = dir.path().join(f);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(&p, f).unwrap();
    }
    dir
}

#[test]
fn a_tree_listed_is_in_the_name_ordered_walks_order() {
    let dir = tree();
    let root = dir.path().to_str().unwrap();
    for extra in [
        &[][..],
        &["--include=*.txt"][..],
        &["--exclude-dir=c"][..],
        &["-j1"][..],
    ] {
        let mut args = vec!["-r", "x", root, "-j8"];
        args.extend_from_slice(extra);
        let cfg = Config::from_args(&args);
        let mut one = Vec::new();
        walk(&cfg, &mut |i| one.push(i), &|| false);
        assert!(one.len() > 1 || !extra.is_empty());
        if extra == ["-R"] && cfg!(unix) {
            let errors = one.iter().filter(|i| matches!(i, Item::Error(_))).count();
            assert_eq!(errors, 2, "{one:?}");
        }
        assert_eq!(collect(&cfg), one, "{extra:?}");
    }
}

/// The tree listed one directory at a time (`tree::list`), depth first.
fn listed_by_directory(cfg: &Config) -> Vec<Item> {
    fn descend(cfg: &Config, filters: &Filters, dir: &Path, out: &mut Vec<Item>) {
        for entry in tree::list(cfg, filters, dir) {
            match entry {
                tree::Entry::Item(item) => out.push(item),
                tree::Entry::Dir(sub) => descend(cfg, filters, &sub, out),
            }
        }
    }
    let filters = Filters::new(cfg);
    let mut out = Vec::new();
    for start in starts(cfg) {
        match start {
            Start::Item(item) => out.push(item),
            Start::Tree(dir) => descend(cfg, &filters, &dir, &mut out),
        }
    }
    out
}

#[test]
fn a_tree_listed_directory_by_directory_is_in_the_name_ordered_walks_order() {
    let dir = tree();
    // Left out without -R: links to a file and to a directory, a FIFO.
    std::os::unix::fs::symlink(dir.path().join("z"), dir.path().join("link")).unwrap();
    std::os::unix::fs::symlink(dir.path().join("a"), dir.path().join("a/c/up")).unwrap();
    let fifo = std::ffi::CString::new(dir.path().join("b/fifo").as_os_str().as_bytes()).unwrap();
    // SAFETY: mkfifo on a NUL-terminated path in the test's directory.
    assert_eq!(unsafe { libc::mkfifo(fifo.as_ptr(), 0o644) }, 0);
    let root = dir.path().to_str().unwrap();
    let file = dir.path().join("a.txt");
    for extra in [
        &[][..],
        &["--include=*.txt"][..],
        &["--exclude=a*"][..],
        &["--exclude-dir=c"][..],
        &["--exclude-dir=a", "--include=?"][..],
    ] {
        let mut args = vec!["-r", "x", root, file.to_str().unwrap(), "missing", root];
        args.extend_from_slice(extra);
        let cfg = Config::from_args(&args);
        let mut one = Vec::new();
        walk(&cfg, &mut |i| one.push(i), &|| false);
        assert!(one.iter().any(|i| matches!(i, Item::Error(_))));
        assert_eq!(listed_by_directory(&cfg), one, "{extra:?}");
    }
}

#[test]
fn a_listing_with_sizes_gives_each_regular_files_size_and_tells_them_all() {
    let dir = tree();
    let root = dir.path();
    let named = root.join("a.txt");
    let (named, sub) = (
        named.to_str().unwrap(),
        root.join("a").to_str().unwrap().to_string(),
    );
    for threads in ["-j1", "-j4"] {
        // A named file, a tree, standard input and a missing file.
        let cfg = Config::from_args(&["-r", "x", named, &sub, "-", "/no/such/file", threads]);
        let heard = std::sync::atomic::AtomicU64::new(0);
        let (items, sizes) = collect_sized(&cfg, &|b| {
            heard.fetch_add(b, std::sync::atomic::Ordering::Relaxed);
        });
        assert_eq!(items, collect(&cfg), "{threads}");
        let want: Vec<Option<u64>> = items
            .iter()
            .map(|item| match item {
                Item::Input(Input { path: Some(p), .. }) => {
                    std::fs::metadata(p).ok().map(|m| m.len())
                }
                _ => None,
            })
            .collect();
        assert_eq!(sizes, want, "{threads}");
        assert_eq!(sizes.iter().flatten().count(), 5, "{items:?}");
        let total: u64 = sizes.iter().flatten().sum();
        assert_eq!(heard.into_inner(), total);
    }
}
