#!/usr/bin/env python3
"""Compresses a file to gzip with Python's zlib, for hosts without gzip.

    gzip-members.py IN OUT            one member (as `gzip -6`)
    gzip-members.py IN OUT --member N members of N bytes of IN each (as
                                      `split -b N --filter 'gzip -c'`,
                                      or bgzip with larger blocks),
                                      compressed by all cores

Level 6, mtime 0: the output is a pure function of the input.
"""
import gzip
import multiprocessing
import sys
import zlib


def member(data):
    return gzip.compress(data, compresslevel=6, mtime=0)


def pieces(path, size):
    with open(path, "rb") as f:
        while True:
            block = f.read(size)
            if not block:
                return
            yield block


def main():
    args = sys.argv[1:]
    if len(args) not in (2, 4) or (len(args) == 4 and args[2] != "--member"):
        sys.exit(__doc__)
    src, dst = args[0], args[1]
    with open(dst, "wb") as out:
        if len(args) == 2:
            # One member, streamed: gzip header, raw deflate, CRC and size.
            with gzip.GzipFile(fileobj=out, mode="wb", compresslevel=6, mtime=0) as z:
                for block in pieces(src, 16 << 20):
                    z.write(block)
            return
        with multiprocessing.Pool() as pool:
            for m in pool.imap(member, pieces(src, int(args[3])), chunksize=1):
                out.write(m)


if __name__ == "__main__":
    assert zlib.ZLIB_VERSION
    main()
