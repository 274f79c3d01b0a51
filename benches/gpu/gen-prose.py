"""Real-shaped prose for the GPU benchmark of issue 16 (benches/gpu/realworld.sh).

    python3 gen-prose.py WORDS OUT_DIR SIZE_GIB FILES [--lf] [--no-bom]

Text is made of the real vocabulary in WORDS (Debian's wamerican list):
sentences of 6-16 words drawn with a Zipf law over the words (rank r has
weight 1/r^1.07, as in English text), a capital and a full stop, lines
ending CRLF and files starting with a UTF-8 byte-order mark unless told
otherwise. A 64 MiB pool is generated once; each of FILES files (in
subdirectories of 1,000) is a line-aligned slice of it, so SIZE_GIB GiB
are written in seconds by 16 processes. A file larger than half the pool
(FILES of 1 makes one file of SIZE_GIB) is a run of such slices, its
parts written in place by the 16 processes.

Also writes OUT_DIR.words-1000.txt and OUT_DIR.words-10000.txt: pattern
lists of real words, 85 % drawn from the words the text uses and 15 % from
words it never uses (they may still occur inside longer words, as in real
text).
"""
import multiprocessing
import os
import random
import sys

POOL = 64 << 20


def vocabulary(path):
    with open(path, encoding="utf-8", errors="replace") as f:
        words = [w.strip() for w in f]
    words = sorted({w for w in words if w.isascii() and w.isalpha()})
    rng = random.Random(16)
    rng.shuffle(words)
    cut = len(words) * 4 // 5
    return words[:cut], words[cut:]


def pool(used, crlf):
    rng = random.Random(17)
    cum, total = [], 0.0
    for r in range(len(used)):
        total += 1.0 / (r + 1) ** 1.07
        cum.append(total)
    end = b"\r\n" if crlf else b"\n"
    out = bytearray()
    while len(out) < POOL:
        words = rng.choices(used, cum_weights=cum, k=rng.randint(6, 16))
        words[0] = words[0].capitalize()
        out += (" ".join(words) + ".").encode() + end
    return bytes(out)


def file_path(out_dir, i):
    """File i's path (subdirectories of 1,000), its directory made."""
    d = os.path.join(out_dir, f"d{i // 1000:03}")
    os.makedirs(d, exist_ok=True)
    return os.path.join(d, f"f{i:06}.txt")


def write(args):
    k, out_dir, n_files, each, text, bom = args
    rng = random.Random(1000 + k)
    for i in range(k, n_files, 16):
        path = file_path(out_dir, i)
        at = rng.randrange(len(text) - each - 1)
        at = text.index(b"\n", at) + 1
        end = text.index(b"\n", min(at + each, len(text) - 1)) + 1 if at + each < len(text) else len(text)
        with open(path, "wb") as f:
            if bom:
                f.write(b"\xef\xbb\xbf")
            f.write(text[at:end])


def slices(rng, text, each):
    """Line-aligned slices of `text`, each at most half of it, that add up
    to about `each` bytes."""
    out, total = [], 0
    while total < each:
        want = min(each - total, len(text) // 2)
        at = text.index(b"\n", rng.randrange(len(text) - want - 1)) + 1
        end = text.index(b"\n", min(at + want, len(text) - 1)) + 1
        out.append((at, end))
        total += end - at
    return out


def write_part(args):
    path, offset, parts, text = args
    with open(path, "r+b") as f:
        f.seek(offset)
        for at, end in parts:
            f.write(text[at:end])


def write_large(out_dir, n_files, each, text, bom):
    """Files larger than half the pool, each written by 16 processes."""
    rng = random.Random(999)
    for i in range(n_files):
        path = file_path(out_dir, i)
        parts = slices(rng, text, each)
        head = b"\xef\xbb\xbf" if bom else b""
        size = len(head) + sum(end - at for at, end in parts)
        with open(path, "wb") as f:
            f.write(head)
            f.truncate(size)
        jobs, offset, step = [], len(head), (len(parts) + 15) // 16
        for k in range(0, len(parts), step):
            group = parts[k : k + step]
            jobs.append((path, offset, group, text))
            offset += sum(end - at for at, end in group)
        with multiprocessing.Pool(16) as p:
            p.map(write_part, jobs)


def patterns(used, unused, n, path):
    rng = random.Random(n)
    present = rng.sample(used[: max(n * 4, 20000)], n - n * 15 // 100)
    absent = rng.sample(unused, n * 15 // 100)
    ws = present + absent
    rng.shuffle(ws)
    with open(path, "w") as f:
        f.write("\n".join(ws) + "\n")


def main():
    words, out_dir, size_gib, n_files = sys.argv[1], sys.argv[2], float(sys.argv[3]), int(sys.argv[4])
    crlf = "--lf" not in sys.argv
    bom = "--no-bom" not in sys.argv
    used, unused = vocabulary(words)
    text = pool(used, crlf)
    each = int(size_gib * (1 << 30) / n_files)
    if each >= len(text) // 2:
        write_large(out_dir, n_files, each, text, bom)
    else:
        jobs = [(k, out_dir, n_files, each, text, bom) for k in range(16)]
        with multiprocessing.Pool(16) as p:
            p.map(write, jobs)
    for n in (1000, 10000):
        patterns(used, unused, n, f"{out_dir}.words-{n}.txt")


if __name__ == "__main__":
    main()
