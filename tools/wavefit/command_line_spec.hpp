// SPDX-License-Identifier: MIT
// The command line's vocabulary as data: each subcommand with the flags it accepts. The parser
// checks arguments against it and --help is rendered from it, so the two cannot drift apart.
#pragma once

#include <string_view>       // static texts
#include <initializer_list>  // launch_flags
#include <vector>            // flag lists

namespace wavefit::cli {

enum class subcommand { presets, info, check, plan, occupancy, inspect, explain, tuning, audit, lint };

struct flag_spec {
    std::string_view name;        // "--regs"
    std::string_view value_name;  // "N"; empty for a switch such as --json
    std::string_view description;
    bool repeatable = false;  // may be given more than once (--kb FILE ...)

    bool takes_value() const noexcept { return !value_name.empty(); }
};

struct subcommand_spec {
    subcommand id;
    std::string_view name;      // "check"
    std::string_view synopsis;  // what follows "wavefit check" in the usage line
    std::string_view summary;   // one line for the overview
    std::string_view details;   // paragraphs for `wavefit SUBCOMMAND --help`
    std::vector<flag_spec> flags;
};

namespace flags {

inline const flag_spec json{"--json", "", "print one JSON document on stdout instead of text"};
inline const flag_spec preset{"--preset", "NAME",
                              "a built-in device, e.g. mi300x or h200 (case-insensitive; see `wavefit presets`); AMD "
                              "presets take target features, e.g. mi300x:xnack+"};
inline const flag_spec device{"--device", "N", "the N-th visible GPU (needs a wavefit built with a GPU backend)"};
inline const flag_spec regs{"--regs", "N",
                            "vector registers per thread (numRegs; on gfx90a/gfx942 the unified VGPR+AGPR .vgpr_count)"};
inline const flag_spec sgprs{"--sgprs", "N", "scalar registers per wave (AMD gfx9 only; omitted = not limiting)"};
inline const flag_spec static_shared{"--static-shared", "BYTES", "static shared memory / LDS per block"};
inline const flag_spec dynamic_shared{"--dynamic-shared", "BYTES", "dynamic shared memory / LDS per block"};
inline const flag_spec kernel_max_threads{
    "--kernel-max-threads", "N",
    "the kernel's own maximum threads per block (__launch_bounds__); omitted = the device maximum"};
inline const flag_spec kernel_file{
    "--kernel", "FILE:NAME",
    "a kernel of a compiled AMD binary, instead of --regs, --sgprs, --static-shared, --kernel-max-threads"};

// The kernel's contract (work.hpp), for plan, and the block constraint for occupancy.
inline const flag_spec kernel_loops{"--kernel-loops", "",
                                    "the kernel loops (grid_stride, block_stride, wave_stride or its own loop): the grid may "
                                    "cover less than the work in one pass; without it every item is reached in one pass or "
                                    "the plan is refused"};
inline const flag_spec block_fixed{"--block-fixed", "X[,Y[,Z]]",
                                   "the kernel needs exactly this block (a shared array or reduction sized for it); the grid "
                                   "is planned"};
inline const flag_spec block_at_most{"--block-at-most", "N",
                                     "the kernel takes at most N threads per block (a shared array of N)"};
inline const flag_spec any_wave_multiple{"--any-wave-multiple", "",
                                         "any multiple of the wave size, not only powers of two (the default: what tree "
                                         "reductions over blockDim need)"};

}  // namespace flags

// What check, plan and occupancy say about --kernel FILE:NAME.
inline const char kernel_file_help[] =
    "With --kernel FILE:NAME the kernel's resources come from the code object metadata in FILE (an AMDGPU\n"
    "code object, offload bundle, or HIP object, executable or shared library); NAME is the mangled name,\n"
    "the demangled name, or the demangled name without its parameter list (e.g. saxpy). Without --preset\n"
    "or --device, the device is the preset for the kernel's GPU target (gfx90a: mi250x, gfx942: mi300x).\n";

inline const char number_syntax_help[] =
    "Numbers: decimal (007 = 7), 0x hex, suffixes k/K, M, G (powers of 1000) and Ki, Mi, Gi (powers of 1024),\n"
    "or 2^N with N from 0 to 63; e.g. --elements 2^33, --static-shared 48Ki, --grid 0x10000,4.\n";

// The flags of a subcommand about one launch of one kernel (check, plan, occupancy): the device, what
// is specific to the subcommand, the kernel's resources (or --kernel FILE:NAME), --json.
inline std::vector<flag_spec> launch_flags(std::initializer_list<flag_spec> specific) {
    std::vector<flag_spec> all{flags::preset, flags::device};
    all.insert(all.end(), specific.begin(), specific.end());
    for (const flag_spec& f : {flags::regs, flags::sgprs, flags::static_shared, flags::dynamic_shared,
                               flags::kernel_max_threads, flags::kernel_file, flags::json})
        all.push_back(f);
    return all;
}

inline const std::vector<subcommand_spec>& subcommand_specs() {
    static const std::vector<subcommand_spec> specs{
        {subcommand::presets,
         "presets",
         "[--json]",
         "list the built-in devices",
         "Lists the built-in devices that --preset accepts, with their architecture, wave size, CU/SM count\n"
         "and shared memory (LDS) per block.\n",
         {flags::json}},
        {subcommand::info,
         "info",
         "[--preset NAME | --device N] [--json]",
         "show every launch-relevant limit of a device, explained",
         "Prints every field of the device's limits with what it means. Without a selector, every visible GPU.\n",
         {flags::preset, flags::device, flags::json}},
        {subcommand::check, "check",
         "(--preset NAME | --device N | --kernel FILE:NAME) --grid X[,Y[,Z]] --block X[,Y[,Z]]\n"
         "    [--work-shape SHAPE] [resources] [--json]",
         "validate an explicit launch configuration",
         "Validates grid and block (in blocks and threads) against the device and the kernel's resources.\n"
         "Every configuration a fix names passes check. --work-shape says how the kernel maps its work onto\n"
         "the launch, which decides what a fix may change: per-thread (the default: the grid follows the\n"
         "block, the same threads), per-block (a unit per block: the grid is the unit count and stays) or\n"
         "per-group:N (a unit per N threads, e.g. per-group:32 for a CUDA warp per row: the same units).\n"
         "Exit status 0 when the launch is valid (warnings allowed), 1 when some diagnostic is an error.\n",
         launch_flags({{"--grid", "X[,Y[,Z]]", "grid size in blocks (missing dimensions are 1)"},
                       {"--block", "X[,Y[,Z]]", "block size in threads (missing dimensions are 1)"},
                       {"--work-shape", "SHAPE", "per-thread (default), per-block or per-group:N: what a fix may change"}})},
        {subcommand::plan, "plan",
         "(--preset NAME | --device N | --kernel FILE:NAME) (--elements N | --extent X[,Y[,Z]] | --per-block UNITS |\n"
         "    --per-wave UNITS [--group THREADS]) [--unit-size N] [contract] [resources] [--json]",
         "choose block and grid for an amount of work under the kernel's contract",
         "Chooses the block from the device, the kernel's resources and its contract, and the grid from the work;\n"
         "says why the block has its size. By default the kernel reaches each item in one pass (a guarded\n"
         "`if (i < n)` kernel) with power-of-two blocks: work the device cannot hold in one launch is refused\n"
         "with what to change, never clamped in silence. With --kernel-loops (or a saturated or coarsened\n"
         "--grid-policy) the grid may be clamped and the kernel must loop.\n"
         "Exit status 1 when no block the contract allows can run, or one pass cannot cover the work.\n",
         launch_flags({{"--elements", "N", "1-D work: the number of elements, one thread each"},
                       {"--extent", "X[,Y[,Z]]", "2-D/3-D work instead of --elements, one thread per item"},
                       {"--per-block", "UNITS", "one unit (a row, a tile, a head) per block"},
                       {"--per-wave", "UNITS", "one unit per wave (64 threads on gfx9, 32 on NVIDIA), or per --group"},
                       {"--group", "THREADS", "with --per-wave: threads per unit whatever the wave (32: a CUDA warp per row)"},
                       {"--unit-size", "N", "with --per-block or --per-wave: elements per unit (a row's length)"},
                       flags::kernel_loops, flags::block_fixed, flags::block_at_most, flags::any_wave_multiple,
                       {"--grid-policy", "POLICY",
                        "cover (the default), saturate[:ROUNDS] or coarsen[:ITEMS]; the last two state that the kernel loops"},
                       {"--shared-per-thread", "BYTES", "dynamic shared memory that grows with the block, per thread"}})},
        {subcommand::occupancy, "occupancy",
         "(--preset NAME | --device N | --kernel FILE:NAME) [resources] [--block N] [--powers-of-two]\n"
         "    [--block-at-most N] [--json]",
         "resident blocks and waves per CU/SM for each block size",
         "One row per block size from one wave up to the smaller of the device's and the kernel's maximum, in\n"
         "steps of one wave; with --block, that block size only. The best rows are marked with '*'.\n"
         "--powers-of-two and --block-at-most N keep only the blocks a kernel with that contract takes.\n",
         launch_flags({{"--block", "N", "one block size (threads) instead of the whole range"},
                       {"--powers-of-two", "", "only power-of-two blocks (a kernel with a tree reduction over blockDim)"},
                       flags::block_at_most})},
        {subcommand::inspect,
         "inspect",
         "FILE [--preset NAME[:FEATURES]] [--kernel NAME] [--json]",
         "the kernels of a compiled AMD binary: resources, spills and occupancy",
         "Reads the AMDGPU metadata of every kernel in FILE: an AMDGPU code object (.co, .hsaco), a clang\n"
         "offload bundle (hipcc --cuda-device-only), or a HIP object, executable or shared library\n"
         "(.hip_fatbin). For each target id (gfx90a:xnack+) and kernel: registers, LDS, scratch and the\n"
         "launch bound the compiler assumed, a warning when it spilled, the recommended block (what `plan`\n"
         "chooses) and the occupancy of every block size on the preset for the target (gfx90a: mi250x,\n"
         "gfx940-gfx942: mi300x, gfx950: mi355x, gfx1100: rx7900xtx), or on --preset. No GPU and no ROCm\n"
         "are needed. AMD presets run with sramecc+ and xnack- unless told otherwise: mi300x:xnack+ models\n"
         "HSA_XNACK=1. Exit status 1 with --preset when nothing shown can run on that device (no code object\n"
         "for its processor, or only code for other target features: hipErrorNoBinaryForGpu, 209); 2 when\n"
         "FILE cannot be read or holds no kernel (or none named --kernel).\n",
         {{"--preset", "NAME[:FEATURES]", "show occupancy on this AMD preset, and say whether FILE can run on it"},
          {"--kernel", "NAME", "only the kernels with this name: mangled, demangled, or demangled without parameters"},
          flags::json}},
        {subcommand::explain,
         "explain",
         "(CODE | --scan FILE|- | --check-kb FILE | --export markdown) [--kb FILE]... [--json | --markdown]",
         "explain an error code, name or message, or every known problem in a log",
         "CODE is a numeric HIP error code (9), a hipError*/cudaError* name, a runtime message such as\n"
         "'invalid configuration argument' (quoted, or as separate words), or a diagnostic code from check.\n"
         "Exit status 1 when CODE is unknown.\n"
         "--scan reads a whole log (a file, or - for standard input; gzip accepted) and reports every known\n"
         "problem once, with its line numbers, meaning, causes and fixes (numbers from the line where it has\n"
         "them). Exit status 0 when a problem was found, 1 when none, 2 when the log cannot be read.\n"
         "Team entries: --kb FILE (repeatable) and WAVEFIT_KB_PATH (colon-separated files) add a team's own\n"
         "entries or extend the built-in ones (docs/cli.md, \"Team entries\"). --check-kb FILE validates one\n"
         "such file (exit 2 with one line per error); --export markdown writes the whole notebook as one page.\n",
         {flags::json,
          {"--markdown", "", "--scan: print the report as Markdown"},
          {"--scan", "FILE", "read a log (- for standard input, .gz accepted) and explain every known problem in it"},
          {"--kb", "FILE", "add the team entries of FILE (repeatable; after those of WAVEFIT_KB_PATH)", true},
          {"--check-kb", "FILE", "validate a team entry file: one line per error (or one if it is not text), exit 2 if any"},
          {"--export", "FORMAT", "write the whole notebook (built-in and team entries); FORMAT is markdown"}}},
        {subcommand::tuning,
         "tuning",
         "(show FILE | check FILE (--preset NAME | --device N) | merge A B -o C) [--json]",
         "read, check and merge tuning files",
         "A tuning file holds one JSON record per line: what wavefit::tune or WAVEFIT_TUNING=tune measured for a\n"
         "kernel and a size bucket on a device (docs/tuning.md).\n"
         "  show FILE          per device, kernel and bucket: the tuned configuration against the plan, with the\n"
         "                     speedup and the spread of the measurements\n"
         "  check FILE ...     validates every record's configuration against the device; exit status 1 when a\n"
         "                     record would be refused there (wavefit never launches such a record)\n"
         "  merge A B -o C     writes A's and B's records to C (B's replaces A's of the same key)\n"
         "Lines that are not records are counted and the first is named on stderr (exit status 1); a file with no\n"
         "record at all, or not text, is one line and exit status 2. FILE may be gzip-compressed.\n"
         "`wavefit tuning ACTION --help` shows the help of one action.\n",
         {flags::preset, flags::device, {"-o", "FILE", "merge: the file to write (replaced atomically)"}, flags::json}},
        {subcommand::audit,
         "audit",
         "FILE [--preset NAME] [--top N] [--json | --markdown]",
         "the kernels of a profiler trace that are worth fixing, and what to change",
         "Reads a profiler trace (the format is told from the content; .gz is read directly): rocprofv3\n"
         "kernel_trace.csv (every header generation) or its JSON, the rocpd CSV export, legacy rocprof\n"
         "results.csv, rocprof-compute/omniperf pmc_perf.csv or timestamps.csv, Nsight Systems\n"
         "`nsys stats -r cuda_gpu_trace -f csv`, or a PyTorch profiler (Kineto) chrome trace. Groups the kernel\n"
         "dispatches by name and launch configuration, most GPU time first, and for each shows grid (blocks),\n"
         "block, registers (AMD: the unified VGPR+AGPR count), shared memory, the modelled occupancy and what\n"
         "limits it, and findings: idle_lanes, scratch_spill, grid_smaller_than_device, grid_underfills_device,\n"
         "tail_imbalance, work_items_near_dispatch_limit, low_occupancy, and any error `check` reports. The\n"
         "device comes from the trace where it names one (Kineto deviceProperties, rocprofv3 agents, omniperf\n"
         "sysinfo.csv or rocprofv3 agent_info.csv beside the file); otherwise --preset is required. Exit status 0\n"
         "with a report (findings do not change it), 2 when FILE is unreadable or no trace, or the device is\n"
         "unknown. A rocprof-compute pmc_perf.csv takes its times from the timestamps.csv beside it; without\n"
         "one, kernels are ranked by dispatch count.\n",
         {{"--preset", "NAME", "the device the trace was recorded on (overrides what the trace says)"},
          {"--top", "N", "show the N kernels with the most GPU time (default 10; 0 = all)"},
          flags::json,
          {"--markdown", "", "print a Markdown report (for an issue or a wiki) instead of text"}}},
        {subcommand::lint,
         "lint",
         "PATH... [-- COMPILER FLAGS] | -p BUILD_DIR [PATH...] [--target TARGET] [--json | --format sarif]",
         "the warp-to-wavefront hazards in CUDA and HIP source, before the first run on AMD",
         "Parses CUDA and HIP sources with clang (libclang; no CUDA or ROCm headers needed) as hipcc compiles them\n"
         "for the target, and reports what breaks or slows down on AMD: hard-coded launch configurations, 32-wide\n"
         "warps assumed (lane math, masks, ballots, shuffle reductions, warp-size constants), 32-bit work sizes,\n"
         "__launch_bounds__ read with CUDA's meaning or disagreeing with the launch, and shared memory and grid\n"
         "limits. Each finding has a stable code, file:line:col, the reason on AMD, a fix and the wavefit launch\n"
         "that replaces a hard-coded configuration (docs/lint.md lists the codes).\n"
         "PATHs are files (any suffix) or directories (searched for .cu and .hip, and .cuh headers no source\n"
         "includes); flags after -- (-I, -D, -std) apply to every file. -p reads BUILD_DIR/compile_commands.json.\n"
         "Findings are reported in files under the PATHs (with -p alone: under the sources' common directory).\n"
         "Suppress one with // NOLINT(CODE) on its line (NOLINTNEXTLINE, NOLINTBEGIN/END as in clang-tidy), or\n"
         "accept the current ones with --write-baseline FILE and read them back with --baseline FILE.\n"
         "Exit status 0 when nothing is found, 1 when something is, 2 on a usage error or when nothing parses.\n",
         {{"-p", "BUILD_DIR", "read the files and their flags from BUILD_DIR/compile_commands.json"},
          {"--target", "TARGET", "gfx90a, gfx942 (default), gfx950, gfx1100 or an AMD preset (wave32 targets flip the warp checks)"},
          flags::json,
          {"--format", "FORMAT", "text (default), json or sarif (SARIF 2.1.0 for code scanning)"},
          {"--baseline", "FILE", "accept the findings listed in FILE (written by --write-baseline)"},
          {"--write-baseline", "FILE", "write every current finding to FILE as accepted, and exit 0"},
          {"--jobs", "N", "parse N files at a time (default: one per hardware thread)"}}},
    };
    return specs;
}

// The actions of a subcommand that has them (`wavefit tuning show|check|merge`), each with its own help:
// `wavefit tuning show --help` and `wavefit help tuning show`.
struct action_spec {
    subcommand parent;
    std::string_view name;      // "show"
    std::string_view synopsis;  // what follows "wavefit tuning show"
    std::string_view details;
    std::vector<flag_spec> flags;
};

inline const std::vector<action_spec>& action_specs() {
    static const std::vector<action_spec> actions{
        {subcommand::tuning,
         "show",
         "FILE [--json]",
         "Prints, per device, kernel and size bucket of the tuning FILE, the tuned configuration against the\n"
         "plan, with the speedup, the spread of the measurements and the candidates measured. FILE may be\n"
         "gzip-compressed. Exit status 0; 1 when some lines are not records (the first is named on stderr);\n"
         "2 when FILE cannot be read, is not text, or holds no record.\n",
         {flags::json}},
        {subcommand::tuning,
         "check",
         "FILE (--preset NAME | --device N) [--json]",
         "Validates every record's configuration against the device, as a launch would before using it.\n"
         "Exit status 0 when every line is a record valid there; 1 when a record would be refused (wavefit never\n"
         "launches such a record, it plans instead) or a line is not a record; 2 when FILE cannot be read, is\n"
         "not text, or holds no record.\n",
         {flags::preset, flags::device, flags::json}},
        {subcommand::tuning,
         "merge",
         "A B -o C [--json]",
         "Writes the records of A and B to C (B's record replaces A's of the same key), atomically. Exit status\n"
         "0; 1 when some lines of A or B are not records (C holds the records); 2 when A or B cannot be read, is\n"
         "not text, or holds no record (C is not written).\n",
         {{"-o", "FILE", "the file to write (replaced atomically)"}, flags::json}},
    };
    return actions;
}

// The action NAME of subcommand `parent`, or nullptr.
inline const action_spec* find_action(subcommand parent, std::string_view name) {
    for (const action_spec& a : action_specs())
        if (a.parent == parent && a.name == name) return &a;
    return nullptr;
}

inline const subcommand_spec& spec_of(subcommand id) {
    for (const subcommand_spec& s : subcommand_specs())
        if (s.id == id) return s;
    return subcommand_specs().front();  // unreachable: every enumerator has a spec
}

}  // namespace wavefit::cli
