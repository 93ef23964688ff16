// SPDX-License-Identifier: MIT
// Specifications of tools/analysis/explain.hpp: the knowledge base behind `wavefit explain`, whose
// diagnostic entries quote the library's runtime outcomes (detail/runtime_outcome.hpp). The expected numbers and texts below are copied from hip_runtime_api.h (hip 5.2),
// driver_types.h (CUDA 13.0) and cudaGetErrorString (libcudart 13.0), not from the header under test.
#include <wavefit/detail/text.hpp>
#include <wavefit/diagnostic.hpp>

#include "analysis/explain.hpp"

#include <catch2/catch.hpp>

#include "support.hpp"

#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace analysis = wavefit::analysis;

namespace {

using wavefit::analysis::error_explanation;
using wavefit::analysis::explanation_kind;
using wavefit::analysis::find_explanation;

struct runtime_case {
    int code;
    const char* hip_name;
    const char* cuda_name;
    const char* cuda_message;  // cudaGetErrorString, CUDA 13.0
};

// Every HIP code the brief requires, with its CUDA twin.
const runtime_case required_runtime_errors[] = {
    {1, "hipErrorInvalidValue", "cudaErrorInvalidValue", "invalid argument"},
    {2, "hipErrorOutOfMemory", "cudaErrorMemoryAllocation", "out of memory"},
    {3, "hipErrorNotInitialized", "cudaErrorInitializationError", "initialization error"},
    {9, "hipErrorInvalidConfiguration", "cudaErrorInvalidConfiguration", "invalid configuration argument"},
    {13, "hipErrorInvalidSymbol", "cudaErrorInvalidSymbol", "invalid device symbol"},
    {17, "hipErrorInvalidDevicePointer", "cudaErrorInvalidDevicePointer", "invalid device pointer"},
    {52, "hipErrorMissingConfiguration", "cudaErrorMissingConfiguration", "__global__ function call is not configured"},
    {53, "hipErrorPriorLaunchFailure", "cudaErrorPriorLaunchFailure", "unspecified launch failure in prior launch"},
    {98, "hipErrorInvalidDeviceFunction", "cudaErrorInvalidDeviceFunction", "invalid device function"},
    {100, "hipErrorNoDevice", "cudaErrorNoDevice", "no CUDA-capable device is detected"},
    {101, "hipErrorInvalidDevice", "cudaErrorInvalidDevice", "invalid device ordinal"},
    {200, "hipErrorInvalidImage", "cudaErrorInvalidKernelImage", "device kernel image is invalid"},
    {209, "hipErrorNoBinaryForGpu", "cudaErrorNoKernelImageForDevice",
     "no kernel image is available for execution on the device"},
    {218, "hipErrorInvalidKernelFile", "cudaErrorInvalidPtx", "a PTX JIT compilation failed"},
    {303, "hipErrorSharedObjectInitFailed", "cudaErrorSharedObjectInitFailed", "shared object initialization failed"},
    {500, "hipErrorNotFound", "cudaErrorSymbolNotFound", "named symbol not found"},
    {600, "hipErrorNotReady", "cudaErrorNotReady", "device not ready"},
    {700, "hipErrorIllegalAddress", "cudaErrorIllegalAddress", "an illegal memory access was encountered"},
    {701, "hipErrorLaunchOutOfResources", "cudaErrorLaunchOutOfResources", "too many resources requested for launch"},
    {702, "hipErrorLaunchTimeOut", "cudaErrorLaunchTimeout", "the launch timed out and was terminated"},
    {710, "hipErrorAssert", "cudaErrorAssert", "device-side assert triggered"},
    {719, "hipErrorLaunchFailure", "cudaErrorLaunchFailure", "unspecified launch failure"},
    {720, "hipErrorCooperativeLaunchTooLarge", "cudaErrorCooperativeLaunchTooLarge",
     "too many blocks in cooperative launch"},
    {801, "hipErrorNotSupported", "cudaErrorNotSupported", "operation not supported"},
    {999, "hipErrorUnknown", "cudaErrorUnknown", "unknown error"},
};

// The stable diagnostic codes of docs/cli.md.
const char* const contract_diagnostic_codes[] = {
    "zero_dimension",
    "block_exceeds_device_max_threads",
    "block_dim_exceeds_device_limit",
    "block_exceeds_kernel_max_threads",
    "registers_exceed_limit",
    "shared_memory_exceeds_limit",
    "shared_memory_requires_opt_in",
    "grid_dim_exceeds_device_limit",
    "work_items_exceed_dispatch_limit",
    "block_not_wave_multiple",
    "negative_size",
    "contract_allows_no_block",
    "grid_underfills_device",
};

std::string lower(std::string_view s) {
    std::string out(s);
    for (char& c : out)
        if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
    return out;
}

std::string upper(std::string_view s) {
    std::string out(s);
    for (char& c : out)
        if (c >= 'a' && c <= 'z') c = static_cast<char>(c - 'a' + 'A');
    return out;
}

using spec::contains;

std::string_view name_of(const error_explanation* e) { return e ? e->name : std::string_view("(nullptr)"); }

// Each text must find the explanation named as given; a failure prints the text and both names.
void check_names(std::initializer_list<std::pair<std::string_view, std::string_view>> text_to_name) {
    for (const auto& [text, name] : text_to_name) {
        CAPTURE(text);
        CHECK(name_of(find_explanation(text)) == name);
    }
}

// Whether one of the entry's fixes contains `text`.
bool some_fix_contains(const error_explanation& e, std::string_view text) {
    for (std::size_t i = 0; i < e.cause_count; ++i)
        if (contains(e.fix(i), text)) return true;
    return false;
}

// Whether one of the entry's causes contains `text`.
bool some_cause_contains(const error_explanation& e, std::string_view text) {
    for (std::size_t i = 0; i < e.cause_count; ++i)
        if (contains(e.cause(i), text)) return true;
    return false;
}

bool is_in_table(const error_explanation* e) {
    const auto all = analysis::all_error_explanations();
    for (const error_explanation& x : all)
        if (&x == e) return true;
    return false;
}

// Printable ASCII, no double quote or backslash (JSON-safe as is), no leading/trailing blanks.
bool clean_text(std::string_view s) {
    if (s.empty()) return true;
    if (s.front() == ' ' || s.back() == ' ') return false;
    for (char c : s) {
        const auto u = static_cast<unsigned char>(c);
        if (u < 0x20 || u > 0x7e || c == '"' || c == '\\') return false;
    }
    return true;
}

// A tiny deterministic generator for the garbage tests.
struct lcg {
    std::uint64_t state;
    unsigned char next() {
        state = state * 6364136223846793005ULL + 1442695040888963407ULL;
        return static_cast<unsigned char>(state >> 56);
    }
};

}  // namespace

// The lookup is constexpr: the library can resolve fixed codes at compile time. (No comparison of the
// result with nullptr here: GCC cannot constant-evaluate that under -fsanitize=undefined.)
static_assert(analysis::find_explanation("209")->code == 209, "209 is hipErrorNoBinaryForGpu");
static_assert(analysis::find_explanation("hipErrorInvalidConfiguration")->code == 9, "InvalidConfiguration is 9");
static_assert(analysis::find_explanation("HIP error 209")->name == "hipErrorNoBinaryForGpu", "log lines too");
static_assert(analysis::find_explanation("zero_dimension")->kind == analysis::explanation_kind::diagnostic,
              "diagnostic codes too");
static_assert(analysis::all_error_explanations().size() >= 25 + 2 + 10, "runtime errors, log lines, diagnostics");

TEST_CASE("209 is hipErrorNoBinaryForGpu, not an invalid configuration") {
    const error_explanation* e209 = find_explanation("209");
    const error_explanation* e9 = find_explanation("9");
    REQUIRE(e209 != nullptr);
    REQUIRE(e9 != nullptr);
    CHECK(e209->name == "hipErrorNoBinaryForGpu");
    CHECK(e209->cuda_name == "cudaErrorNoKernelImageForDevice");
    CHECK(e9->name == "hipErrorInvalidConfiguration");
    CHECK(e9->code == 9);

    SECTION("both entries say so explicitly") {
        CHECK(contains(e209->meaning, "hipErrorInvalidConfiguration"));
        CHECK(contains(e209->meaning, "is 9"));
        CHECK(contains(e9->meaning, "209"));
        CHECK(contains(e9->meaning, "hipErrorNoBinaryForGpu"));
    }
    SECTION("the 209 fix is a rebuild for the GPU's gfx target") {
        CHECK(some_fix_contains(*e209, "--offload-arch=gfx942"));
        CHECK(some_fix_contains(*e209, "rocminfo | grep gfx"));
    }
    SECTION("log lines that quote the numbers resolve to the right entry") {
        check_names({
            {"HIP error 209", "hipErrorNoBinaryForGpu"},
            {"error code 209", "hipErrorNoBinaryForGpu"},
            {"error code 9", "hipErrorInvalidConfiguration"},
            {"HIP error 9", "hipErrorInvalidConfiguration"},
            {"hipErrorNoBinaryForGpu: Unable to find code object for all current devices!", "hipErrorNoBinaryForGpu"},
            {"Unable to find code object for all current devices", "hipErrorNoBinaryForGpu"},
        });
    }
}

TEST_CASE("every required HIP error resolves by number, by HIP name and by CUDA name") {
    for (const runtime_case& c : required_runtime_errors) {
        INFO(c.hip_name);
        const error_explanation* by_number = find_explanation(std::to_string(c.code));
        REQUIRE(by_number != nullptr);
        CHECK(by_number->kind == explanation_kind::runtime_error);
        CHECK(by_number->code == c.code);
        CHECK(by_number->name == c.hip_name);
        CHECK(by_number->cuda_name == c.cuda_name);
        CHECK(by_number->cuda_code == c.code);  // CUDA uses the same numbers for all of these
        CHECK(find_explanation(c.hip_name) == by_number);
        CHECK(find_explanation(c.cuda_name) == by_number);
    }
}

TEST_CASE("CUDA message texts are cudaGetErrorString's and resolve to their entry") {
    for (const runtime_case& c : required_runtime_errors) {
        INFO(c.hip_name);
        const error_explanation* e = find_explanation(c.hip_name);
        REQUIRE(e != nullptr);
        CHECK(e->cuda_message == c.cuda_message);
        CHECK(find_explanation(c.cuda_message) == e);
        CHECK(find_explanation(upper(c.cuda_message)) == e);
    }
}

TEST_CASE("HIP message texts are those of current ROCm's hipGetErrorString") {
    CHECK(find_explanation("hipErrorInvalidConfiguration")->message == "invalid configuration argument");
    CHECK(find_explanation("hipErrorNoBinaryForGpu")->message == "no kernel image is available for execution on the device");
    CHECK(find_explanation("hipErrorNoDevice")->message == "no ROCm-capable device is detected");
    CHECK(find_explanation("hipErrorInvalidKernelFile")->message == "invalid kernel file");
    CHECK(name_of(find_explanation("no ROCm-capable device is detected")) == "hipErrorNoDevice");
    CHECK(name_of(find_explanation("invalid kernel file")) == "hipErrorInvalidKernelFile");
}

TEST_CASE("names are looked up case-insensitively, including deprecated HIP aliases") {
    check_names({
        {"HIPERRORINVALIDVALUE", "hipErrorInvalidValue"},
        {"hiperrorinvalidconfiguration", "hipErrorInvalidConfiguration"},
        {"CUDAERRORLAUNCHOUTOFRESOURCES", "hipErrorLaunchOutOfResources"},
        {"hipErrorLaunchTimeout", "hipErrorLaunchTimeOut"},
        {"  hipErrorAssert\n", "hipErrorAssert"},
        {"hipErrorMemoryAllocation", "hipErrorOutOfMemory"},
        {"hipErrorInitializationError", "hipErrorNotInitialized"},
        {"hipErrorInvalidResourceHandle", "hipErrorInvalidHandle"},
        {"BLOCK_EXCEEDS_KERNEL_MAX_THREADS", "block_exceeds_kernel_max_threads"},
    });
}

TEST_CASE("numbers are accepted in decimal and 0x hex, with surrounding blanks") {
    check_names({
        {"0xd1", "hipErrorNoBinaryForGpu"},
        {"0XD1", "hipErrorNoBinaryForGpu"},
        {"0x9", "hipErrorInvalidConfiguration"},
        {"0x2bd", "hipErrorLaunchOutOfResources"},
        {"\t701 \r\n", "hipErrorLaunchOutOfResources"},
        {"0009", "hipErrorInvalidConfiguration"},
    });
}

TEST_CASE("runtime messages embedded in longer log lines are found") {
    check_names({
        {"CUDA error: invalid configuration argument at foo.cu:12", "hipErrorInvalidConfiguration"},
        {"RuntimeError: HIP error: invalid device function\nHIP kernel errors might be "
         "asynchronously reported at some other API call",
         "hipErrorInvalidDeviceFunction"},
        {"RuntimeError: Triton Error [HIP]: Code: 1, Messsage: invalid argument", "hipErrorInvalidValue"},
        {"kernel launch failed: Too Many Resources Requested For Launch", "hipErrorLaunchOutOfResources"},
    });

    SECTION("the longest contained message wins") {
        CHECK(name_of(find_explanation("CUDA error: unspecified launch failure in prior launch")) ==
              "hipErrorPriorLaunchFailure");
        CHECK(name_of(find_explanation("CUDA error: unspecified launch failure")) == "hipErrorLaunchFailure");
    }
    SECTION("an error name in the line is used") {
        check_names({
            {":3:hip_module.cpp :493 : hipLaunchKernel: Returned hipErrorLaunchFailure :", "hipErrorLaunchFailure"},
            {"HIP error: hipErrorInvalidValue (HIP 5.2 prints the name)", "hipErrorInvalidValue"},
            {"check failed: 'cudaErrorIllegalAddress'", "hipErrorIllegalAddress"},
        });
    }
    SECTION("AMD fault and assert lines") {
        CHECK(name_of(find_explanation("Memory access fault by GPU node-1 (Agent handle: 0x55) on address 0x7fc7. "
                                       "Reason: Page not present or supervisor privilege.")) == "hipErrorIllegalAddress");
        CHECK(name_of(find_explanation("k.hip:12: void k(): Device-side assertion `i < n' failed.")) == "hipErrorAssert");
    }
}

TEST_CASE("the launch-bounds log line is explained as a block over the kernel's compiled bound") {
    const char* llama =
        "Launch params (1024, 1, 1) are larger than launch bounds (256) for kernel "
        "_ZL12rms_norm_f32ILi1024EEvPKfPfif please add __launch_bounds__ to kernel define or use "
        "--gpu-max-threads-per-block recompile program !";
    const error_explanation* e = find_explanation(llama);
    REQUIRE(e != nullptr);
    CHECK(e->kind == explanation_kind::log_line);
    CHECK(e->code == analysis::no_error_code);
    CHECK(contains(e->name, "are larger than launch bounds"));
    CHECK(contains(e->on_amd, "hipErrorLaunchFailure"));
    CHECK(contains(e->meaning, "AMD_LOG_LEVEL"));

    SECTION("it wins over the error name that follows it in a trace") {
        const char* trace =
            ":1:hip_module.cpp:311 : Launch params (64, 4, 1) are larger than launch bounds (128) for kernel "
            "_Z17topkGatingSoftmax\n:3:hip_module.cpp:791 : hipLaunchKernel: Returned hipErrorLaunchFailure";
        CHECK(find_explanation(trace) == e);
    }
    SECTION("its own name and its printf format resolve to it") {
        CHECK(find_explanation(e->name) == e);
        CHECK(find_explanation(e->message) == e);
        CHECK(find_explanation("LAUNCH PARAMS (512, 1, 1) ARE LARGER THAN LAUNCH BOUNDS (256)") == e);
    }
    SECTION("the fixes name wavefit's tools") {
        CHECK(some_fix_contains(*e, "wavefit::launch"));
        CHECK(some_fix_contains(*e, "wavefit check"));
    }
}

TEST_CASE("HSA_STATUS_ERROR_INVALID_ISA is explained as a register or ISA problem") {
    const error_explanation* e =
        find_explanation("HSA_STATUS_ERROR_INVALID_ISA: The instruction set architecture is invalid. code: 0x100f");
    REQUIRE(e != nullptr);
    CHECK(e->name == "HSA_STATUS_ERROR_INVALID_ISA");
    CHECK(e->kind == explanation_kind::log_line);
    CHECK(e->code == analysis::no_error_code);
    CHECK(find_explanation("hsa_status_error_invalid_isa") == e);
    CHECK(find_explanation("Queue error state in GPU agent: AMD gfx906 (Out of VGPRs;)") == e);
    CHECK(some_cause_contains(*e, "kokkos/kokkos#9402"));
}

TEST_CASE("every one of the thirteen diagnostic codes has an entry") {
    std::size_t diagnostics = 0;
    for (const error_explanation& e : analysis::all_error_explanations())
        if (e.kind == explanation_kind::diagnostic) ++diagnostics;
    CHECK(diagnostics == wavefit::detail::diagnostic_code_count);
    CHECK(diagnostics == 13);

    for (const char* code : contract_diagnostic_codes) {
        INFO(code);
        const error_explanation* e = find_explanation(code);
        REQUIRE(e != nullptr);
        CHECK(e->name == code);
        CHECK(e->kind == explanation_kind::diagnostic);
        CHECK(e->code == analysis::no_error_code);
        CHECK(e->cuda_name.empty());
        CHECK(e->message.empty());
        CHECK_FALSE(e->on_amd.empty());     // the runtime error it would become on AMD
        CHECK_FALSE(e->on_nvidia.empty());  // and on NVIDIA
        CHECK(some_fix_contains(*e, "wavefit"));
    }

    SECTION("and they are exactly the codes diagnostic.hpp can produce") {
        for (std::size_t i = 0; i < wavefit::detail::diagnostic_code_count; ++i) {
            const auto code = static_cast<wavefit::diagnostic_code>(i);
            INFO(std::string(wavefit::to_string(code)));
            const error_explanation* e = find_explanation(wavefit::to_string(code));
            REQUIRE(e != nullptr);
            CHECK(e->kind == explanation_kind::diagnostic);
        }
    }
    SECTION("a pasted check message finds its code") {
        CHECK(name_of(find_explanation("error: work_items_exceed_dispatch_limit: grid.x * block.x = 8589934592")) ==
              "work_items_exceed_dispatch_limit");
    }
}

TEST_CASE("diagnostics name the runtime error they would otherwise become") {
    CHECK(contains(find_explanation("block_exceeds_kernel_max_threads")->on_amd, "hipErrorLaunchFailure"));
    CHECK(contains(find_explanation("work_items_exceed_dispatch_limit")->on_amd, "hipErrorInvalidConfiguration"));
    CHECK(contains(find_explanation("registers_exceed_limit")->on_nvidia, "cudaErrorLaunchOutOfResources"));
    CHECK(contains(find_explanation("registers_exceed_limit")->on_amd, "HSA_STATUS_ERROR_INVALID_ISA"));
    CHECK(contains(find_explanation("shared_memory_exceeds_limit")->on_amd, "hipErrorInvalidValue"));
    CHECK(contains(find_explanation("zero_dimension")->on_nvidia, "cudaErrorInvalidValue"));
}

TEST_CASE("every entry is complete: meaning, and as many fixes as causes") {
    const auto all = analysis::all_error_explanations();
    REQUIRE(all.size() > 0);
    for (const error_explanation& e : all) {
        INFO(std::string(e.name));
        CHECK_FALSE(e.name.empty());
        CHECK_FALSE(e.meaning.empty());
        CHECK(e.cause_count >= 1);
        CHECK(e.cause_count <= analysis::max_explanation_causes);
        for (std::size_t i = 0; i < analysis::max_explanation_causes; ++i) {
            const bool used = i < e.cause_count;
            CHECK(e.causes[i].empty() == !used);
            CHECK(e.fixes[i].empty() == !used);
            CHECK(e.cause(i) == e.causes[i]);
            CHECK(e.fix(i) == e.fixes[i]);
        }
        CHECK(e.cause(analysis::max_explanation_causes + 5).empty());
    }
}

TEST_CASE("texts are plain sentences that JSON can carry as they are") {
    for (const error_explanation& e : analysis::all_error_explanations()) {
        INFO(std::string(e.name));
        const std::string_view sentences[] = {e.meaning, e.on_amd, e.on_nvidia};
        for (std::string_view s : sentences) {
            CHECK(clean_text(s));
            if (!s.empty()) CHECK(s.back() == '.');
        }
        for (std::size_t i = 0; i < e.cause_count; ++i) {
            CHECK(clean_text(e.causes[i]));
            CHECK(clean_text(e.fixes[i]));
            CHECK(e.causes[i].back() == '.');
            CHECK(e.fixes[i].back() == '.');
        }
        CHECK(clean_text(e.name));
        CHECK(clean_text(e.message));
        CHECK(clean_text(e.cuda_message));
    }
}

TEST_CASE("names are unique, and HIP codes are unique among runtime errors") {
    std::set<std::string> names;
    std::set<int> codes;
    for (const error_explanation& e : analysis::all_error_explanations()) {
        const std::string_view spellings[] = {e.name, e.alias, e.cuda_name};
        for (std::string_view s : spellings) {
            if (s.empty()) continue;
            INFO(std::string(s));
            CHECK(names.insert(lower(s)).second);
        }
        if (e.kind == explanation_kind::runtime_error) {
            INFO(std::string(e.name));
            CHECK(e.code >= 0);
            CHECK(codes.insert(e.code).second);
        } else {
            CHECK(e.code == analysis::no_error_code);
            CHECK(e.cuda_code == analysis::no_error_code);
        }
    }
}

TEST_CASE("every name, alias and message of an entry leads back to that entry") {
    for (const error_explanation& e : analysis::all_error_explanations()) {
        INFO(std::string(e.name));
        CHECK(find_explanation(e.name) == &e);
        CHECK(find_explanation(lower(e.name)) == &e);
        if (!e.alias.empty()) CHECK(find_explanation(e.alias) == &e);
        if (!e.cuda_name.empty()) CHECK(find_explanation(e.cuda_name) == &e);
        if (!e.message.empty()) CHECK(find_explanation(e.message) == &e);
        if (!e.cuda_message.empty()) CHECK(find_explanation(e.cuda_message) == &e);
        if (e.kind == explanation_kind::runtime_error) CHECK(find_explanation(std::to_string(e.code)) == &e);
    }
}

TEST_CASE("entries come in a stable order: runtime errors by number, then log lines, then diagnostics") {
    int last_code = -1;
    int stage = 0;
    for (const error_explanation& e : analysis::all_error_explanations()) {
        const int s = e.kind == explanation_kind::runtime_error ? 0 : e.kind == explanation_kind::log_line ? 1 : 2;
        CHECK(s >= stage);
        stage = s;
        if (s == 0) {
            CHECK(e.code > last_code);
            last_code = e.code;
        }
    }
    CHECK(stage == 2);
}

TEST_CASE("0 is hipSuccess: explained as not an error, pointing at the call before or an asynchronous error") {
    for (const char* q : {"0", "0x0", "hipSuccess", "cudaSuccess", "no error"}) {
        INFO(q);
        const error_explanation* e = find_explanation(q);
        REQUIRE(e != nullptr);
        CHECK(e->name == "hipSuccess");
        CHECK(e->code == 0);
        CHECK(e->cuda_name == "cudaSuccess");
        CHECK(contains(e->meaning, "Not an error"));
    }
    CHECK(some_cause_contains(*find_explanation("0"), "asynchronous"));
}

TEST_CASE("unknown input returns nullptr") {
    const char* unknown[] = {
        "",
        "   \t\n",
        "hello world",
        "hipErrorNotARealName",
        "cudaErrorSomethingElse",
        "12345",  // not a HIP code
        "4111",   // 0x100f, an HSA status, not a HIP code
        "-1",
        "-209",
        "+209",
        "99999999999999999999",
        "18446744073709551617",
        "0x",
        "0xZZ",
        "0xFFFFFFFFFFFFFFFFFFFFFFFF",
        "209abc",
        "error code 12345",
        "error 99999999999999999999",
        "foo.cu:209",  // a line number is not an error code
        "zero dimension",
    };
    for (const char* q : unknown) {
        INFO(q);
        CHECK(find_explanation(q) == nullptr);
    }
}

TEST_CASE("hostile input never crashes and gives nullptr or an entry of the table") {
    SECTION("embedded NULs") {
        const std::string a("invalid\0argument", 16);
        CHECK(find_explanation(a) == nullptr);
        const std::string b("hipErrorInvalidValue\0\0garbage", 29);
        CHECK(name_of(find_explanation(b)) == "hipErrorInvalidValue");
        const std::string c = std::string(2, '\0') + "209";
        CHECK(find_explanation(c) == nullptr);
        const std::string d(64, '\0');
        CHECK(find_explanation(d) == nullptr);
    }
    SECTION("a null view and views that end mid-word") {
        CHECK(find_explanation(std::string_view()) == nullptr);
        const std::string_view name = "hipErrorInvalidValue";
        for (std::size_t n = 0; n <= name.size(); ++n) {
            const error_explanation* e = find_explanation(name.substr(0, n));
            CHECK((e == nullptr || is_in_table(e)));
        }
        const std::string_view line = "Launch params (1024, 1, 1) are larger than launch bounds (256)";
        for (std::size_t n = 0; n <= line.size(); ++n) {
            const error_explanation* e = find_explanation(line.substr(0, n));
            CHECK((e == nullptr || is_in_table(e)));
        }
    }
    SECTION("1 MB of random bytes") {
        lcg rng{12345};
        std::string garbage(std::size_t{1} << 20, '\0');
        for (char& c : garbage) c = static_cast<char>(rng.next());
        const error_explanation* e = find_explanation(garbage);
        CHECK((e == nullptr || is_in_table(e)));
    }
    SECTION("1 MB of repeated near-misses") {
        std::string s;
        while (s.size() < (std::size_t{1} << 20)) s += "error code launch params larger than launc hipError cudaErr 0x ";
        const error_explanation* e = find_explanation(s);
        CHECK((e == nullptr || is_in_table(e)));
        CHECK(find_explanation(std::string(std::size_t{1} << 20, 'a')) == nullptr);
        CHECK(find_explanation(std::string(std::size_t{1} << 20, '9')) == nullptr);  // a huge number
    }
    SECTION("a real message near the start of a huge log is still found") {
        std::string log = "CUDA error: invalid configuration argument\n";
        log += std::string(std::size_t{1} << 20, 'x');
        CHECK(name_of(find_explanation(log)) == "hipErrorInvalidConfiguration");
    }
}

TEST_CASE("numbers in messages and in the ISA name are written in decimal, from 0 to 2^64-1", "[explain][text]") {
    // write_decimal serves join_pieces (every message) and backend::read_arch ("sm_90", "sm_100").
    using wavefit::detail::write_decimal;
    const std::pair<std::uint64_t, std::string_view> cases[] = {{0, "0"},
                                                                {9, "9"},
                                                                {10, "10"},
                                                                {90, "90"},
                                                                {100, "100"},
                                                                {4294967295u, "4294967295"},
                                                                {UINT64_MAX, "18446744073709551615"}};
    for (const auto& [value, text] : cases) {
        char out[20];
        const std::size_t n = write_decimal(out, value);
        CAPTURE(value);
        CHECK(std::string_view(out, n) == text);
    }
    CHECK(wavefit::detail::concat({"grid ", -3, ", block ", 0, " of ", UINT64_MAX}) ==
          "grid -3, block 0 of 18446744073709551615");
}
