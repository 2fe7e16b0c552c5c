#!/usr/bin/env python3
"""Shares of a `perf record -g` profile's samples, by what the time is spent on.

    python3 benches/perf_groups.py PERF_DATA [PERF_DATA ...]

Groups each sampled symbol (from `perf report --no-children --sort dso,sym`): the kernel's
handling of fresh memory (page faults, zeroing, page allocation and freeing, unmapping, the
page lists' locks); its page-cache copies (tmpfs reads and writes); libzstd; memcpy/memset;
zarrdt's decode and encode (the derived codecs, in rayon's folders); the rest. Also the share
of samples under `asm_exc_page_fault` (from `perf report --children`). BENCHMARKS.md's
profile tables are its output.
"""
import re
import subprocess
import sys

FRESH = re.compile(
    r"clear_page|page_fault|do_anonymous|handle_mm_fault|alloc_pages|get_page_from_freelist|"
    r"rmqueue|mem_cgroup|memcg|charge|free_pages|free_unref|free_pcppages|release_pages|zap_|"
    r"unmap|munmap|tlb|lru|folio|pte|pmd|vma|_raw_spin|sync_regs|irqentry|error_entry|"
    r"mod_node_page|mod_lruvec|prep_new|free_one_page|do_user_addr|up_read|down_read|mas_|"
    r"percpu_counter|kmem_cache|xas_|memset_orig|clear_user")
COPY = re.compile(
    r"_copy_to_iter|copy_folio_from_iter|copy_user|rep_movs|copy_page_to_iter|filemap_read|"
    r"shmem_write|shmem_file_read|shmem_get_folio|generic_perform_write|filemap_get")
DECODE = re.compile(r"zarrdt|rayon|Folder|decode|encode|read_packed|write_packed|extend")
GROUPS = ["fresh memory", "page-cache copies", "zstd", "memcpy/memset", "zarrdt decode/encode",
          "other"]


def report(data, *options):
    return subprocess.run(["perf", "report", "-i", data, "--stdio", "-g", "none", *options],
                          capture_output=True, text=True, check=True).stdout


def group(dso, kernel, sym):
    if "zstd" in dso or sym.startswith(("ZSTD", "HUF_", "FSE_", "HIST_")):
        return "zstd"
    if kernel and COPY.search(sym):
        return "page-cache copies"
    if kernel and FRESH.search(sym):
        return "fresh memory"
    if re.search(r"memmove|memcpy|memset", sym):
        return "memcpy/memset"
    if not kernel and DECODE.search(sym):
        return "zarrdt decode/encode"
    return "other"


def main(paths):
    print("| profile | " + " | ".join(GROUPS) + " | under `asm_exc_page_fault` |")
    print("|---|" + "---:|" * (len(GROUPS) + 1))
    for data in paths:
        shares = dict.fromkeys(GROUPS, 0.0)
        for line in report(data, "--no-children", "--sort", "dso,sym").splitlines():
            match = re.match(r"\s+([\d.]+)%\s+(\S+)\s+\[(.)\]\s+(.*)", line)
            if match:
                share, dso, kind, sym = match.groups()
                shares[group(dso, kind == "k", sym.strip())] += float(share)
        under = 0.0
        for line in report(data, "--children", "--sort", "sym").splitlines():
            match = re.match(r"\s+([\d.]+)%\s+[\d.]+%\s+\[.\]\s+(.*)", line)
            if match and match.group(2).strip() == "asm_exc_page_fault":
                under = float(match.group(1))
                break
        cells = " | ".join(f"{shares[name]:.1f} %" for name in GROUPS)
        print(f"| {data} | {cells} | {under:.1f} % |")


if __name__ == "__main__":
    main(sys.argv[1:])
