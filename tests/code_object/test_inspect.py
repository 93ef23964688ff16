#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Specification of `wavefit inspect --json` against independent tools (Python stdlib only).

For every sample file, each kernel entry that `wavefit inspect FILE --json` prints must equal what
llvm-readobj --notes prints for the same code object (code objects taken out of bundles and
.hip_fatbin sections with llvm-objcopy and clang-offload-bundler, as in test_code_objects.py), field
by field; its demangled name must be c++filt's (or the mangled name, where the C++ runtime's
demangler does not know the mangling, except for _Float16 names, which wavefit demangles itself:
those must be c++filt's, and llvm-cxxfilt must agree where it demangles them); and on the preset
for its target:
  * each occupancy row equals hipOccupancyMaxActiveBlocksPerMultiprocessor's formula (docs/device-facts.md
    section 3), written out here on its own: CDNA (gfx90a, gfx940-942, gfx950) 4 SIMDs x 8 waves,
    512 unified VGPRs in granules of 8, 800 SGPRs in granules of 16; RDNA3 gfx1100 4 SIMDs x 16
    waves, 1536 VGPRs in granules of 24 in wave32 and half of both in wave64, no SGPR limit; LDS per
    CU 64 KiB (160 KiB on gfx950);
  * the rows go from one wave to min(1024, the kernel's bound) in steps of one wave;
  * the limiter is a resource that allows exactly the resident blocks;
  * the recommended block is the smallest block of at least 256 threads with the most resident
    waves, else the largest block with the most (wavefit::plan's rule);
  * a kernel with spills or scratch carries a note saying so; one whose target has no preset has
    "preset": null, no rows, no recommended block.

Usage: test_inspect.py --wavefit WAVEFIT --readobj LLVM_READOBJ --bundler CLANG_OFFLOAD_BUNDLER
           --objcopy LLVM_OBJCOPY [--cxxfilt CXXFILT] [--llvm-cxxfilt LLVM_CXXFILT] KIND:FILE...
KIND as in test_code_objects.py; asm files are ignored.
"""

import os
import json
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from test_code_objects import Checker, align_up, expected_kernels, tools_parser  # noqa: E402

# DF16_ (_Float16), DF32x, DF16b (std::bfloat16_t): the extended floating-point types of the mangling.
EXTENDED_FLOAT = re.compile(r"DF[0-9]+[_xb]")
CONTRACT_KEYS = {"target", "name", "demangled", "vgpr_count", "agpr_count", "sgpr_count", "static_shared", "scratch",
                 "max_threads", "wave_size", "preset", "recommended_block", "occupancy"}
EXTRA_KEYS = {"target_id", "symbol", "vgpr_spill_count", "sgpr_spill_count", "uses_dynamic_stack", "notes"}
ROW_KEYS = {"block", "active_blocks_per_cu", "active_waves_per_cu", "occupancy", "limiter"}
# inspect's key -> llvm-readobj's (test_code_objects.readobj_kernels) name for the same field.
SAME_AS_READOBJ = {"target": "target", "target_id": "target_id", "name": "name", "symbol": "symbol",
                   "vgpr_count": "vgpr_count", "agpr_count": "agpr_count", "sgpr_count": "sgpr_count",
                   "vgpr_spill_count": "vgpr_spill_count", "sgpr_spill_count": "sgpr_spill_count",
                   "static_shared": "group_segment_fixed_size", "scratch": "private_segment_fixed_size",
                   "uses_dynamic_stack": "uses_dynamic_stack", "max_threads": "max_flat_workgroup_size",
                   "wave_size": "wavefront_size"}
# The preset each target maps to (presets::find) and the device model of docs/device-facts.md section 3.
PRESET_OF = {"gfx90a": "mi250x", "gfx940": "mi300x", "gfx941": "mi300x", "gfx942": "mi300x", "gfx950": "mi355x",
             "gfx1100": "rx7900xtx"}
CDNA = {"simds": 4, "max_waves": 8, "vgprs": 512, "vgpr_granule": 8, "sgprs": 800, "sgpr_granule": 16}


def device_model(target, wave_size):
    if target == "gfx1100":
        model = {"simds": 4, "max_waves": 16, "vgprs": 1536, "vgpr_granule": 24, "sgprs": 0, "sgpr_granule": 16}
        if wave_size == 64:
            model["vgprs"] //= 2
            model["vgpr_granule"] //= 2
    else:
        model = dict(CDNA)
    model["lds"] = 160 * 1024 if target == "gfx950" else 64 * 1024
    model["wave"] = wave_size
    return model


def expected_row(m, k, block):
    """One row of hipOccupancyMaxActiveBlocksPerMultiprocessor's formula."""
    waves_per_block = -(-block // m["wave"])
    limits = {"waves": m["simds"] * m["max_waves"] // waves_per_block}
    if k["vgpr_count"] > 0:
        limits["registers"] = m["simds"] * (m["vgprs"] // align_up(k["vgpr_count"], m["vgpr_granule"])) // waves_per_block
    if k["sgpr_count"] > 0 and m["sgprs"] > 0:
        limits["scalar_registers"] = m["simds"] * (m["sgprs"] // align_up(k["sgpr_count"], m["sgpr_granule"])) // waves_per_block
    if k["static_shared"] > 0:
        limits["shared_memory"] = m["lds"] // k["static_shared"] if k["static_shared"] <= m["lds"] else 0
    blocks = min(limits.values())
    return {"block": block, "active_blocks_per_cu": blocks, "active_waves_per_cu": blocks * waves_per_block,
            "occupancy": blocks * waves_per_block / (m["simds"] * m["max_waves"])}, limits


def expected_recommendation(rows):
    best = max((r["active_waves_per_cu"] for r in rows if r["active_blocks_per_cu"] > 0), default=0)
    if best == 0:
        return None
    at_best = [r["block"] for r in rows if r["active_waves_per_cu"] == best]
    return next((b for b in at_best if b >= 256), at_best[-1])


def check_kernel(c, where, k, want, demangled_by_cxxfilt):
    label = f"{where}: {k.get('name')} ({k.get('target')})"
    c.expect(CONTRACT_KEYS <= set(k), f"{label}: missing contract keys {sorted(CONTRACT_KEYS - set(k))}")
    c.expect(set(k) <= CONTRACT_KEYS | EXTRA_KEYS, f"{label}: unexpected keys {sorted(set(k) - CONTRACT_KEYS - EXTRA_KEYS)}")
    for ours, theirs in SAME_AS_READOBJ.items():
        c.expect(k.get(ours) == want[theirs], f"{label}: {ours} is {k.get(ours)!r}, llvm-readobj says {want[theirs]!r}")
    if demangled_by_cxxfilt is not None:
        c.expect(k["demangled"] in (demangled_by_cxxfilt, k["name"]),
                 f"{label}: demangled {k['demangled']!r}, c++filt {demangled_by_cxxfilt!r}")
        # _Float16 (DF16_) names must not stay mangled: the C++ runtime fails on them, wavefit must not.
        if EXTENDED_FLOAT.search(k["name"]) and demangled_by_cxxfilt != k["name"]:
            c.expect(k["demangled"] == demangled_by_cxxfilt,
                     f"{label}: a _Float16 name: demangled {k['demangled']!r}, c++filt {demangled_by_cxxfilt!r}")

    scratchy = k["vgpr_spill_count"] or k["sgpr_spill_count"] or k["scratch"] or k["uses_dynamic_stack"]
    mentions = any("scratch" in n or "spill" in n for n in k["notes"])
    c.expect(bool(scratchy) == mentions, f"{label}: scratch {k['scratch']}, spills {k['vgpr_spill_count']}: notes {k['notes']}")

    preset = PRESET_OF.get(k["target"])
    c.expect(k["preset"] == preset, f"{label}: preset {k['preset']!r}, want {preset!r}")
    if preset is None:
        c.expect(k["occupancy"] == [] and k["recommended_block"] is None,
                 f"{label}: a target without preset has rows {k['occupancy'][:2]}..., recommended {k['recommended_block']}")
        c.expect(any("no preset" in n for n in k["notes"]), f"{label}: no note says that no preset models it: {k['notes']}")
        return

    m = device_model(k["target"], k["wave_size"])
    bound = min(1024, k["max_threads"])
    blocks = [r.get("block") for r in k["occupancy"]]
    c.expect(blocks == list(range(m["wave"], bound + 1, m["wave"])),
             f"{label}: rows for blocks {blocks}, want {m['wave']}..{bound} in steps of {m['wave']}")
    for row in k["occupancy"]:
        c.expect(set(row) == ROW_KEYS, f"{label}: row keys {sorted(row)}")
        want_row, limits = expected_row(m, k, row["block"])
        got = {key: row[key] for key in want_row}
        c.expect(got == want_row, f"{label} block {row['block']}: wavefit {got}, the HIP formula {want_row} "
                                  f"(vgprs {k['vgpr_count']}, sgprs {k['sgpr_count']}, LDS {k['static_shared']})")
        c.expect(limits.get(row["limiter"]) == want_row["active_blocks_per_cu"],
                 f"{label} block {row['block']}: limiter {row['limiter']} but the limits are {limits}")
    rec = expected_recommendation(k["occupancy"])
    c.expect(k["recommended_block"] == rec, f"{label}: recommended block {k['recommended_block']}, want {rec}")


def cxxfilt_names(cxxfilt, names):
    if not cxxfilt or not names:
        return {}
    out = subprocess.run([cxxfilt], input="\n".join(names) + "\n", stdout=subprocess.PIPE, check=True, text=True).stdout
    return dict(zip(names, out.splitlines()))


def check_demanglers_agree(c, where, names, tools):
    """llvm-cxxfilt, where it demangles a _Float16 name at all, agrees with c++filt (so the reference
    the names are checked against is not one tool's opinion). Vector types print differently
    ("float __vector(16)" / "float vector[16]") and are left out."""
    if not tools.cxxfilt or not tools.llvm_cxxfilt:
        return
    names = [n for n in names if EXTENDED_FLOAT.search(n) and "Dv" not in n]
    gnu, llvm = cxxfilt_names(tools.cxxfilt, names), cxxfilt_names(tools.llvm_cxxfilt, names)
    for n in names:
        if llvm[n] != n:
            c.expect(llvm[n] == gnu[n], f"{where}: {n}: llvm-cxxfilt {llvm[n]!r}, c++filt {gnu[n]!r}")


def check_file(c, kind, path, tools):
    where = os.path.basename(path)
    with tempfile.TemporaryDirectory() as tmp:
        want = expected_kernels(kind, path, tools, tmp)
    done = subprocess.run([tools.wavefit, "inspect", path, "--json"], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          timeout=120)
    c.expect(done.returncode == 0 and done.stderr == b"", f"{where}: exit {done.returncode}, stderr {done.stderr!r}")
    if done.returncode != 0:
        return
    doc = json.loads(done.stdout)
    c.expect(set(doc) == {"kernels"}, f"{where}: top-level keys {sorted(doc)}")
    got = doc["kernels"]
    c.expect(len(got) == len(want), f"{where}: inspect lists {len(got)} kernels, llvm-readobj has {len(want)}")
    demangled = cxxfilt_names(tools.cxxfilt, sorted({k["name"] for k in got}))
    check_demanglers_agree(c, where, sorted({k["name"] for k in got}), tools)
    unmatched = list(want)
    for k in got:
        # The entry of llvm-readobj's list for the same kernel and target (several are possible when
        # a kernel is in two translation units: take one with the same values, if any).
        candidates = [w for w in unmatched if w["name"] == k.get("name") and w["target"] == k.get("target")]
        same = [w for w in candidates if all(k.get(o) == w[t] for o, t in SAME_AS_READOBJ.items())]
        match = (same or candidates or [None])[0]
        c.expect(match is not None, f"{where}: inspect lists {k.get('name')} ({k.get('target')}), llvm-readobj does not")
        if match is None:
            continue
        unmatched.remove(match)
        check_kernel(c, where, k, match, demangled.get(k["name"]) if tools.cxxfilt else None)
    for w in unmatched:
        c.expect(False, f"{where}: llvm-readobj has {w['name']} ({w['target']}), inspect does not list it")
    demangled_count = sum(k["demangled"] != k["name"] for k in got)
    c.expect(demangled_count >= len(got) * 3 // 4, f"{where}: only {demangled_count} of {len(got)} names demangled")
    print(f"{where} ({kind}): {len(got)} kernels of wavefit inspect checked", flush=True)


def main():
    p = tools_parser("--wavefit")
    p.add_argument("--cxxfilt")
    p.add_argument("--llvm-cxxfilt")
    tools = p.parse_args()
    c = Checker()
    for spec in tools.files:
        kind, path = spec.split(":", 1)
        if kind != "asm":
            check_file(c, kind, path, tools)
    print(f"{c.checks} checks, {len(c.failures)} failures")
    return 1 if c.failures else 0


if __name__ == "__main__":
    sys.exit(main())
