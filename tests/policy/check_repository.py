#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
r"""The repository's own rules, checked on every test run (docs/architecture.md, "Rules the tests enforce").

  licence      every source, build and script file starts with an SPDX line; LICENSE exists
  references   nothing names developer-only notes that users do not have
  layering     the planning core includes no GPU header and no runtime or device header; only
               include/wavefit/runtime/backend.hpp (the library) and gpu_support/ (tests, benchmarks,
               examples) call hip*/cuda* functions; only include/wavefit/platform.hpp tests the
               compilers' platform and target macros (and the files PLATFORM_TESTS_ALLOWED names)
  launch tier  what a launch compiles in the separately compiled mode (runtime/launch_call.hpp and
               every header it includes) has no <string>, <vector> or <tuple> and none of the
               planning, validation, tuning or explanation headers: only declarations and templates
  messages     the launch tier (launch.hpp, runtime/launch.hpp) never reaches runtime/launch_messages.hpp,
               validate.hpp or plan.hpp: a file that only launches does not parse the full explanations of a
               refused launch (it reads detail/launch_rules.hpp and detail/planning.hpp)
  launch       the launch headers (wavefit.hpp, core.hpp, launch.hpp, runtime/launch.hpp and every
               header they reach through #include "..." or <wavefit/...>) include no tuning, JSON,
               explanation or reader header: the tuner, the tuning database and the CLI's offline
               analysis stay out of every translation unit that only launches
  public API   the public names the headers declare (namespace scope in wavefit and any sub-namespace
               but detail), by the line scan and by clang's list of declarations, are exactly the names
               of README.md's "## API reference" table, both ways, and there are at most 40 of them
  README       stays under 250 lines (the first screens are for porting; details live in docs/), names
               the CLI's CMake target once, and every relative link of README.md and docs/ resolves
  fuzz dicts   every fuzz/dict/*.dict line is one libFuzzer reads: a comment, or an optionally named
               quoted value whose only escapes are \\, \" and \xNN (libFuzzer stops at any other)

Run: check_repository.py ROOT [--list-public] [--clang CLANG++ [--hip-include DIR]]. Prints every
violation and exits 1 if there is one. The public names are counted twice: by a scan of the headers'
lines and by clang's own list of the declarations of a file that includes every header (-ast-list;
with --clang, or the first clang++ on PATH; with --clang a failure to list is a violation, without
it a note).
Python standard library only; reads the files git tracks (or, outside git, every file under ROOT).
"""

import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

SOURCE_SUFFIXES = {".hpp", ".cpp", ".hip", ".cu", ".h", ".py", ".cmake", ".sh"}
SCRIPT_NAMES = {"CMakeLists.txt", "run-ci", "run-smoke", "run-long", "run"}
# Data that is not source even where it has a source suffix.
DATA_PREFIXES = ("fuzz/corpus/", "fuzz/regressions/", "tests/data/traces/", "bench/results/")

DEVELOPER_NOTES = re.compile(r"\.\./shared|\b(CONTRACT|FACTS|PERF|STYLE)\.md\b")
GPU_CALL = re.compile(r"(?<![\w.>:])(hip|cuda)[A-Z]\w*\s*\(")
# The compilers' platform and target macros: which compiler, which pass, which AMD target.
PLATFORM_TEST = re.compile(r"^\s*#\s*(if|elif|ifdef|ifndef)\b.*\b(__HIPCC__|__CUDACC__|__HIP_PLATFORM_AMD__|"
                           r"__HIP_PLATFORM_NVIDIA__|__CUDA_ARCH__|__HIP_DEVICE_COMPILE__|__HIP__|__NVCC__|"
                           r"__AMDGCN\w*|__GFX\w+__|__gfx\w+__)(?!\w)")
# Where a platform or target macro may be tested besides platform.hpp (and the lint's inputs), with why.
PLATFORM_TESTS_ALLOWED = {
    "tests/cpu/fake_hip.hpp": "stands in for HIP's own headers, which define the platform macro it sets",
    "tests/code_object/samples.hip": "kernels compiled into the code objects `inspect` is tested on: it includes no "
                                     "wavefit header and picks an MFMA kernel by target",
}
GPU_INCLUDE = re.compile(r'^\s*#\s*include\s*[<"](hip/|cuda|runtime/|device/|\.\./runtime/|\.\./device/|platform\.hpp|\.\./platform\.hpp)')

# Where hip*/cuda* calls belong, and the two files that may hold others, with why.
GPU_CALLS_ALLOWED = {
    "include/wavefit/runtime/backend.hpp": "the library's only runtime calls",
    "tests/cpu/fake_hip_runtime.cpp": "defines the fake HIP functions the CPU tests link against",
    "tests/cpu/fake_hip.hpp": "declares the fake HIP runtime's extras",
    "tests/cpu/test_runtime_caches_fake_hip.cpp": "lowers an attribute behind wavefit's back, as another library would",
    "tests/data/h200/occupancy_zoo.cu": "the CUDA-only program that recorded tests/data/h200 (run once, by hand)",
    "examples/cmake_consumer/main.hip": "an outside project, written as a user writes one",
    "bench/compile_cost/raw.hip": "the compile-cost baseline: a launch written without wavefit",
    "bench/compile_cost/raw.cu": "the compile-cost baseline: a launch written without wavefit",
    "bench/compile_cost/raw_with_launch_headers.cu": "the same baseline, with wavefit's launch headers parsed, not used",
}
GPU_CALL_DIRS = ("gpu_support/",)
# What `wavefit lint` reads rather than runs: its parser's stand-ins for the CUDA and HIP headers, and
# the CUDA/HIP sources its tests lint, written as users write them (they call hip*/cuda* and test
# __HIP_DEVICE_COMPILE__ and friends, which is what the lint must see).
LINT_INPUTS = ("tools/wavefit/lint/parser_headers/", "tests/lint/")
PLATFORM_HEADER = "include/wavefit/platform.hpp"
# Library headers that are not the planning core.
NOT_CORE = ("include/wavefit/runtime/", "include/wavefit/device/", "include/wavefit/wavefit.hpp", PLATFORM_HEADER)


def tracked_files(root):
    try:
        out = subprocess.run(["git", "-C", str(root), "ls-files", "-z"], check=True, capture_output=True).stdout
        return [p for p in out.decode().split("\0") if p and (root / p).is_file()]
    except (OSError, subprocess.CalledProcessError):
        return [str(p.relative_to(root)) for p in root.rglob("*") if p.is_file() and ".git" not in p.parts]


def is_source(path):
    name = os.path.basename(path)
    if path.startswith(DATA_PREFIXES):
        return False
    return Path(path).suffix in SOURCE_SUFFIXES or name in SCRIPT_NAMES or path.startswith(("scripts/", ".ci/"))


def read(root, path):
    try:
        return (root / path).read_text(encoding="utf-8")
    except (UnicodeDecodeError, OSError):
        return None


def without_comments(text, keep_strings=False):
    """C++ text with // and /* */ comments and string literals blanked (line structure kept); with
    keep_strings, the literals stay (an #include "..." keeps its path)."""
    out, i, n = [], 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith("//", i):
            j = text.find("\n", i)
            i = n if j < 0 else j
        elif text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            out.append("\n" * text.count("\n", i, j))
            i = j
        elif c == '"' or c == "'":
            j = i + 1
            while j < n and text[j] != c and text[j] != "\n":
                j += 2 if text[j] == "\\" else 1
            out.append(text[i:j + 1] if keep_strings else c + c)
            i = j + 1
        else:
            out.append(c)
            i += 1
    return "".join(out)


def check_licence(root, files, problems):
    if not (root / "LICENSE").is_file():
        problems.append("LICENSE: missing")
    for path in files:
        if not is_source(path):
            continue
        text = read(root, path)
        if text is None:
            continue
        head = text.split("\n", 3)[:3]
        if not any("SPDX-License-Identifier: MIT" in line for line in head):
            problems.append(f"{path}:1: no SPDX-License-Identifier line at the top")


def check_references(root, files, problems):
    for path in files:
        if path == "tests/policy/check_repository.py":
            continue  # it names what it looks for
        text = read(root, path)
        if text is None:
            continue
        for number, line in enumerate(text.splitlines(), 1):
            if DEVELOPER_NOTES.search(line):
                problems.append(f"{path}:{number}: names a developer-only note users do not have: {line.strip()[:100]}")


def check_layering(root, files, problems):
    for path in files:
        if Path(path).suffix not in {".hpp", ".cpp", ".hip", ".cu", ".h"}:
            continue
        text = read(root, path)
        if text is None:
            continue
        code = without_comments(text)
        lines = code.splitlines()
        core = path.startswith("include/wavefit/") and not path.startswith(NOT_CORE)
        for number, line in enumerate(lines, 1):
            if core and GPU_INCLUDE.search(line):
                problems.append(f"{path}:{number}: the planning core includes a GPU, runtime or device header: {line.strip()}")
            if (PLATFORM_TEST.search(line) and path != PLATFORM_HEADER and path not in PLATFORM_TESTS_ALLOWED
                    and not path.startswith(LINT_INPUTS)):
                problems.append(f"{path}:{number}: tests a platform or target macro; use {PLATFORM_HEADER}'s "
                                f"WAVEFIT_* macros: {line.strip()}")
            if GPU_CALL.search(line) and path not in GPU_CALLS_ALLOWED and not path.startswith(GPU_CALL_DIRS + LINT_INPUTS):
                problems.append(f"{path}:{number}: calls hip*/cuda* outside runtime/backend.hpp and gpu_support/: {line.strip()[:100]}")


INCLUDE_LINE = re.compile(r'^\s*#\s*include\s*([<"])([^>"]+)[>"]')
LEAN_LAUNCH_TIER = "include/wavefit/runtime/launch_call.hpp"
LEAN_FORBIDDEN_SYSTEM = {"string", "vector", "tuple", "map", "unordered_map", "functional", "sstream", "iostream"}
LEAN_FORBIDDEN_HEADERS = re.compile(r"(^|/)(plan|validate|occupancy|presets|tuning\w*|tuner|explain\w*|"
                                    r"json_reader|launch_impl)\.hpp$")


def includes_of(path, text):
    """The #include lines of `text` (the file at `path`): (line number, target, system), where a "..."
    or <wavefit/...> target is a repository path and any other <...> target is the system header's name."""
    for number, line in enumerate(without_comments(text, keep_strings=True).splitlines(), 1):
        m = INCLUDE_LINE.match(line)
        if not m:
            continue
        if m.group(1) == '"':
            yield number, os.path.normpath(os.path.join(os.path.dirname(path), m.group(2))), False
        elif m.group(2).startswith("wavefit/"):
            yield number, "include/" + m.group(2), False
        else:
            yield number, m.group(2), True


def transitive_includes(root, header):
    """Every header `header` includes, followed transitively, with the system headers each of them
    names: ({repository path: the path that first included it}, {system header: includer})."""
    seen, system, todo = {header: None}, {}, [header]
    while todo:
        path = todo.pop()
        text = read(root, path)
        if text is None:
            continue
        for _, target, is_system in includes_of(path, text):
            if is_system:
                system.setdefault(target, path)
            elif target not in seen:
                seen[target] = path
                todo.append(target)
    return seen, system


def check_launch_tier(root, problems):
    headers, system = transitive_includes(root, LEAN_LAUNCH_TIER)
    for name, by in sorted(system.items()):
        if name in LEAN_FORBIDDEN_SYSTEM:
            problems.append(f"{by}: includes <{name}>, which the launch tier ({LEAN_LAUNCH_TIER}) must not compile")
    for path, by in sorted(headers.items()):
        if by is not None and LEAN_FORBIDDEN_HEADERS.search(path):
            problems.append(f"{by}: includes {path}, which the launch tier ({LEAN_LAUNCH_TIER}) must not compile")


# The header that registers a refused launch's full messages (describe(), plan_reason()): the umbrella
# and the compiled library include it; the launch tier, header-only, leaves the prose to it.
# With it, the headers of those words (validate.hpp: describe, check; plan.hpp: plan_reason): the launch
# tier reads the rules and the planning without them (detail/launch_rules.hpp, detail/planning.hpp).
LAUNCH_MESSAGES = ("include/wavefit/runtime/launch_messages.hpp", "include/wavefit/validate.hpp",
                   "include/wavefit/plan.hpp")
HEADER_ONLY_LAUNCH_TIER = ("include/wavefit/launch.hpp", "include/wavefit/runtime/launch.hpp")


def check_launch_messages(root, problems):
    for tier in HEADER_ONLY_LAUNCH_TIER:
        headers, _ = transitive_includes(root, tier)
        for words in LAUNCH_MESSAGES:
            if words in headers:
                problems.append(f"{headers[words]}: includes {words}, which {tier} must not reach: a file that only "
                                f"launches leaves a refused launch's words to the registered explainer")


# What a translation unit that only launches may read: these headers and what they include.
LAUNCH_HEADERS = ("include/wavefit/wavefit.hpp", "include/wavefit/core.hpp", "include/wavefit/launch.hpp",
                  "include/wavefit/runtime/launch.hpp")
# Headers a launch never includes: the tuner and its database (tuning*), the JSON reader, the explanation
# table and its lookup, and every reader of files (code objects, traces, CSV, gzip, UTF-8 text).
LAUNCH_FORBIDDEN = re.compile(r"^(tuning.*|.*json.*|explain.*|explanation.*|.*_reader|reader.*|csv.*|code_object|"
                              r"elf.*|msgpack.*|offload_bundle|byte_view|gzip.*|trace.*|target_id|occupancy_hint|"
                              r"utf8|text_input)\.hpp$")
# The two tuning headers a launch does read, with why.
LAUNCH_ALLOWED = {
    "include/wavefit/tuning_mode.hpp": "the three-value mode enum and its names; no reader, no database",
    "include/wavefit/runtime/tuning_switch.hpp": "one atomic switch the tuner plugs into; the tuner is opt-in",
}


def check_launch_headers(root, problems):
    """Follows the launch headers' includes (every branch of an #if: what any configuration may read)
    and names the chain that reaches a forbidden header."""
    reached = {}  # path -> the path that included it (None for a launch header)
    pending = [(path, None) for path in LAUNCH_HEADERS]
    while pending:
        path, by = pending.pop()
        if path in reached:
            continue
        reached[path] = by
        text = read(root, path)
        if text is None:
            problems.append(f"{path}: a launch header (or one it includes) that cannot be read")
            continue
        for number, target, is_system in includes_of(path, text):
            if is_system:
                continue
            if not target.startswith("include/wavefit/"):
                problems.append(f"{path}:{number}: a launch header includes {target}, outside include/wavefit")
                continue
            if LAUNCH_FORBIDDEN.match(os.path.basename(target)) and target not in LAUNCH_ALLOWED:
                chain = [path]
                while reached[chain[-1]] is not None:
                    chain.append(reached[chain[-1]])
                problems.append(f"{path}:{number}: includes {target}, which a launch never reads "
                                f"(tuning, JSON, explanations, readers); reached from {' <- '.join(chain)}")
                continue
            pending.append((target, path))


DICT_ENTRY = re.compile(r'^(?:\w+=)?"((?:[^"\\]|\\\\|\\"|\\x[0-9A-Fa-f]{2})*)"\s*$')


def check_fuzz_dictionaries(root, files, problems):
    for path in files:
        if not (path.startswith("fuzz/dict/") and path.endswith(".dict")):
            continue
        text = read(root, path)
        if text is None:
            problems.append(f"{path}: not UTF-8 text")
            continue
        for number, line in enumerate(text.splitlines(), 1):
            stripped = line.strip()
            if not stripped or stripped.startswith("#"):
                continue
            if not DICT_ENTRY.match(stripped):
                problems.append(f"{path}:{number}: libFuzzer cannot read this entry (escapes: \\\\, \\\" and \\xNN only): {stripped[:60]}")


NAMESPACE_OPEN = re.compile(r"^namespace ([\w:]+) \{")
NAMESPACE_CLOSE = re.compile(r"^\}\s*$")
DECLARATIONS = [
    re.compile(r"^(?:template\s*<.*>\s*)?(?:struct|class|union)\s+(\w+)\b(?!.*;\s*$)"),
    re.compile(r"^enum\s+class\s+(\w+)"),
    re.compile(r"^using\s+(\w+)\s*="),
    re.compile(r"^(?:inline\s+)?constexpr\s+(?:const\s+)?[\w:<>,\s]+?[&*]?\s*(\w+)\s*(?:=|\{|\[)"),
    re.compile(r"^(?:template\s*<.*>\s*)?(?:\[\[\w+\]\]\s*)?(?:(?:inline|constexpr|static)\s+)*"
               r"[\w:<>,\s]+?[\s&*]+(\w+)\s*\("),
]
KEYWORDS = {"operator", "if", "for", "while", "switch", "return", "sizeof", "static_assert", "decltype"}


NAMESPACE_MACRO_OPEN = re.compile(r"^WAVEFIT_BEGIN_NAMESPACE\b")
NAMESPACE_MACRO_CLOSE = re.compile(r"^WAVEFIT_END_NAMESPACE\b")


def is_public_namespace(parts):
    """wavefit and every namespace inside it but detail (and what detail holds, backend included)."""
    return bool(parts) and parts[0] == "wavefit" and "detail" not in parts


def public_names(root):
    """Names declared at namespace scope in wavefit and its public sub-namespaces, with where; a name of
    a sub-namespace is spelled with it (presets::find). The headers open wavefit with
    WAVEFIT_BEGIN_NAMESPACE (namespace wavefit and its versioned inline namespace) and close it with
    WAVEFIT_END_NAMESPACE."""
    names = {}
    for header in sorted((root / "include" / "wavefit").rglob("*.hpp")):
        rel = str(header.relative_to(root))
        code = without_comments(header.read_text(encoding="utf-8"))
        stack = []  # (namespace parts, brace depth inside it)
        depth = 0
        for number, line in enumerate(code.splitlines(), 1):
            if NAMESPACE_MACRO_OPEN.match(line):
                depth += 1
                stack.append((["wavefit"], depth))
                continue
            if NAMESPACE_MACRO_CLOSE.match(line):
                if stack and stack[-1][0] == ["wavefit"]:
                    stack.pop()
                    depth -= 1
                continue
            opened = NAMESPACE_OPEN.match(line)
            at_namespace_scope = depth == (stack[-1][1] if stack else 0)
            if opened:
                parts = opened.group(1).split("::")
                depth += 1
                stack.append((parts, depth))
                continue
            path = [p for parts, _ in stack for p in parts]
            if at_namespace_scope and is_public_namespace(path) and line.strip() and not line[:1].isspace():
                for pattern in DECLARATIONS:
                    m = pattern.match(line)
                    if m and m.group(1) not in KEYWORDS:
                        names.setdefault("::".join(path[1:] + [m.group(1)]), f"{rel}:{number}")
                        break
            for c in line:
                if c == "{":
                    depth += 1
                elif c == "}":
                    depth -= 1
                    if stack and depth < stack[-1][1]:
                        stack.pop()
    return names


# clang's own list of the declarations (-ast-list) of one file that includes every installed header:
# what the line scan above reads from the text, the compiler reads from the code, so a declaration the
# scan's patterns miss (a using-declaration, a variable, an unscoped enum's enumerators, a return type on
# the line before, an attribute, a namespace opened unusually) is still counted. Host C++ against HIP's
# headers through the CPU tests' fake runtime (the runtime tier), with stand-ins for the built-in
# variables of device code (the device tier). compiled.hpp is left out: it defines, and only in the
# separately compiled mode, what the other headers declare.
CLANG_CANDIDATES = ("clang++", "clang++-19", "clang++-15", "clang++-14")
EVERY_HEADER_PRELUDE = """#include "fake_hip.hpp"
#if !defined(WAVEFIT_HAS_FAKE_HIP)
#error "wavefit policy: no hip/hip_runtime.h"
#endif
struct policy_thread_dims { unsigned x, y, z; };
extern policy_thread_dims threadIdx, blockIdx, blockDim, gridDim;
"""
INLINE_ABI_NAMESPACE = re.compile(r"^v\d+(?:_\d+)*$")
IDENTIFIER = re.compile(r"^[A-Za-z_]\w*$")
NAMESPACE_NAME = re.compile(r"\bnamespace\s+([\w:]+)\s*\{")


def find_clang(argv):
    """--clang PATH when given (then a failure to list is a problem), else the first clang++ on PATH."""
    given = option_value(argv, "--clang")
    if given is not None:
        return given, True
    for name in CLANG_CANDIDATES:
        found = shutil.which(name)
        if found:
            return found, False
    return None, False


def option_value(argv, flag):
    """The value after `flag` in argv, or None."""
    if flag not in argv:
        return None
    i = argv.index(flag)
    return argv[i + 1] if i + 1 < len(argv) else ""


def compiler_public_names(root, clang, hip_include=None):
    """The public names in clang's list of declarations, as public_names() spells them; or a string
    that says why there is no list."""
    header_paths = sorted((root / "include" / "wavefit").rglob("*.hpp"))
    headers = [str(h.relative_to(root / "include")) for h in header_paths]
    source = EVERY_HEADER_PRELUDE + "".join(f"#include <{h}>\n" for h in headers if h != "wavefit/compiled.hpp")
    namespaces = set()
    for header in header_paths:
        for name in NAMESPACE_NAME.findall(without_comments(header.read_text(encoding="utf-8"))):
            namespaces.update(name.split("::"))
    with tempfile.TemporaryDirectory() as scratch:
        tu = Path(scratch) / "every_header.cpp"
        tu.write_text(source, encoding="utf-8")
        try:
            # A default system directory stays where the compiler has it (another -isystem breaks <cmath>).
            default = hip_include in ("/usr/include", "/usr/local/include")
            extra = [f"-isystem{hip_include}"] if hip_include and not default else []
            run = subprocess.run([clang, "-std=c++17", "-fsyntax-only", "-Xclang", "-ast-list",
                                  f"-I{root / 'include'}", f"-I{root / 'tests' / 'cpu'}", *extra, str(tu)],
                                 capture_output=True, text=True, timeout=600)
        except (OSError, subprocess.TimeoutExpired) as e:
            return f"{clang} did not run: {e}"
    if run.returncode != 0:
        errors = [line for line in run.stderr.splitlines() if "error" in line]
        return f"{clang} could not compile every header: {(errors or ['exit ' + str(run.returncode)])[0][:200]}"
    names = set()
    for line in run.stdout.splitlines():
        parts = [p for p in line.strip().split("::") if not INLINE_ABI_NAMESPACE.match(p)]
        if len(parts) < 2 or parts[0] != "wavefit" or not all(IDENTIFIER.match(p) for p in parts):
            continue
        scope, name = parts[1:-1], parts[-1]
        if name.startswith("operator") or "detail" in parts or name in namespaces:
            continue  # operators, detail, and the namespaces themselves
        if all(p in namespaces for p in scope):
            names.add("::".join(scope + [name]))
    return names


API_HEADING = "## API reference"
MAX_PUBLIC_NAMES = 40
API_ROW = re.compile(r"^\|\s*`([\w:]+)`\s*\|")


def documented_names(readme):
    """The names of the README's API reference table, one per row (the first cell, in backticks), with
    their line numbers; and the rows whose first cell is not one such name."""
    names, odd = {}, []
    inside = False
    for number, line in enumerate(readme.splitlines(), 1):
        if line.startswith("## "):
            inside = line.strip() == API_HEADING
            continue
        if not inside or not line.startswith("|"):
            continue
        if re.match(r"^\|\s*(name|-+)\s*\|", line):
            continue  # the heading row and its rule
        m = API_ROW.match(line)
        if m is None:
            odd.append(number)
        elif m.group(1) in names:
            odd.append(number)
        else:
            names[m.group(1)] = number
    return names, odd


def check_public_api(root, problems, clang=None, clang_required=False, notes=None, hip_include=None):
    readme = read(root, "README.md") or ""
    declared = public_names(root)
    if clang:
        listed = compiler_public_names(root, clang, hip_include)
        if isinstance(listed, str):
            (problems if clang_required else notes).append(f"include/wavefit: public names: {listed}")
        else:
            for name in sorted(set(declared) - listed):
                problems.append(f"{declared[name]}: the line scan reads a public name `{name}` that clang's list of "
                                "declarations does not have (declared for another platform only, or misread)")
            for name in sorted(listed - set(declared)):
                declared[name] = "include/wavefit (in clang's list of declarations; the line scan missed it)"
    elif notes is not None:
        notes.append("public names: no clang++ found, so only the line scan counted them")
    documented, odd = documented_names(readme)
    if not documented:
        problems.append(f"README.md: no `{API_HEADING}` table of names (| `name` | what it is |)")
    for number in odd:
        problems.append(f"README.md:{number}: an API reference row must start with one name in backticks, once")
    for name, where in sorted(declared.items()):
        if name not in documented:
            problems.append(f"{where}: public name `{name}` is not in README.md's API reference table "
                            "(document it, or move it into detail)")
    for name, number in sorted(documented.items()):
        if name not in declared:
            problems.append(f"README.md:{number}: the API reference lists `{name}`, which no header declares "
                            "outside detail")
    if len(declared) > MAX_PUBLIC_NAMES:
        problems.append(f"include/wavefit: {len(declared)} public names; at most {MAX_PUBLIC_NAMES} "
                        "(move the rest into detail or make them nested types)")


README_MAX_LINES = 250
CLI_TARGET = "wavefit-cli"
MARKDOWN_LINK = re.compile(r"\]\(([^)\s]+)\)")


def check_readme(root, files, problems):
    readme = read(root, "README.md") or ""
    lines = readme.count("\n")
    if lines >= README_MAX_LINES:
        problems.append(f"README.md: {lines} lines; keep it under {README_MAX_LINES} (move details into docs/)")
    mentions = len(re.findall(r"(?<![\w-])" + re.escape(CLI_TARGET) + r"(?![\w-])", readme))
    if mentions != 1:
        problems.append(f"README.md: names the CLI target `{CLI_TARGET}` {mentions} times; say it once (Install)")
    tracked = set(files)
    tracked_dirs = {str(Path(f).parent) for f in files}
    for path in files:
        if not (path == "README.md" or (path.startswith("docs/") and path.endswith(".md"))):
            continue
        for number, line in enumerate((read(root, path) or "").splitlines(), 1):
            for target in MARKDOWN_LINK.findall(line):
                if re.match(r"^[a-z]+:", target) or target.startswith("#"):
                    continue  # a URL or an anchor in the same page
                relative = os.path.normpath(os.path.join(os.path.dirname(path), target.split("#")[0]))
                if relative not in tracked and relative not in tracked_dirs:
                    problems.append(f"{path}:{number}: the link ({target}) points at nothing in the repository")


def main(argv):
    if len(argv) < 2:
        print(__doc__)
        return 2
    root = Path(argv[1]).resolve()
    if "--list-public" in argv:
        for name, where in sorted(public_names(root).items()):
            print(f"{name}\t{where}")
        return 0
    files = tracked_files(root)
    problems = []
    check_licence(root, files, problems)
    check_references(root, files, problems)
    check_layering(root, files, problems)
    check_launch_tier(root, problems)
    check_launch_messages(root, problems)
    check_launch_headers(root, problems)
    clang, clang_required = find_clang(argv)
    notes = []
    check_public_api(root, problems, clang, clang_required, notes, option_value(argv, "--hip-include"))
    check_readme(root, files, problems)
    check_fuzz_dictionaries(root, files, problems)
    for note in notes:
        print(f"note: {note}")
    for p in problems:
        print(p)
    print(f"{len(problems)} problem(s) in {len(files)} files")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
