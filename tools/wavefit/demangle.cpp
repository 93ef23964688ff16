// SPDX-License-Identifier: MIT
// Demangling in a child process with a deadline (see demangle.hpp for why).
#include "demangle.hpp"

#include <cstddef>      // std::size_t
#include <cstdint>      // the record length on the pipe
#include <string_view>  // name checks

#if __has_include(<cxxabi.h>) && __has_include(<unistd.h>) && __has_include(<poll.h>) && __has_include(<sys/wait.h>)
#define WAVEFIT_CLI_CAN_DEMANGLE 1
#include <cxxabi.h>     // abi::__cxa_demangle
#include <poll.h>       // poll: wait for the child with a deadline
#include <csignal>      // SIGKILL
#include <sys/types.h>  // kill (POSIX declares it in <signal.h>, which <csignal> includes)
#include <sys/wait.h>   // waitpid
#include <unistd.h>     // fork, pipe, read, write, _exit

#include <cerrno>    // EINTR
#include <chrono>    // the deadline
#include <cstdlib>   // std::free
#include <cstring>   // std::strlen
#include <optional>  // a name that does not demangle
#include <utility>   // std::move

#include "extended_float_names.hpp"
#else
#define WAVEFIT_CLI_CAN_DEMANGLE 0
#endif

namespace wavefit::cli {
namespace {

// Longer names stay mangled: the demangler's stack use grows with the name's length.
constexpr std::size_t max_mangled_length = 16384;
// A longer demangled name is not worth showing (and a sign of back-reference blow-up).
constexpr std::size_t max_demangled_length = 65536;

// Only Itanium-mangled names: __cxa_demangle also "demangles" type codes, so an extern "C" kernel
// called `i` would otherwise read as `int`. An embedded NUL would demangle a different name.
bool is_mangled(std::string_view name) {
    return name.size() > 2 && name.substr(0, 2) == "_Z" && name.size() <= max_mangled_length &&
           name.find('\0') == std::string_view::npos;
}

}  // namespace

#if WAVEFIT_CLI_CAN_DEMANGLE

namespace {

// All names of one file share one budget: ordinary names take microseconds each (also under
// sanitizers), so this is ample for libraries of tens of thousands of kernels, and a hostile name
// costs at most a few seconds.
std::chrono::microseconds demangle_budget(std::size_t names) {
    return std::chrono::milliseconds{2000} + std::chrono::microseconds{100} * static_cast<std::int64_t>(names);
}

bool write_all(int fd, const void* data, std::size_t size) {
    const char* p = static_cast<const char*>(data);
    while (size > 0) {
        const ssize_t n = ::write(fd, p, size);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return false;
        p += n;
        size -= static_cast<std::size_t>(n);
    }
    return true;
}

// The C++ runtime's demangling of `name`, if it succeeds within max_demangled_length.
std::optional<std::string> runtime_demangle(const std::string& name) {
    std::optional<std::string> readable;
    int status = -1;
    char* text = abi::__cxa_demangle(name.c_str(), nullptr, nullptr, &status);
    if (status == 0 && text != nullptr) {
        const std::size_t length = std::strlen(text);
        if (length <= max_demangled_length) readable.emplace(text, length);
    }
    std::free(text);
    return readable;
}

// The child: one record per name, a 32-bit length (0: keep the mangled name) and the bytes.
[[noreturn]] void demangle_in_child(int fd, const std::vector<std::string>& names) {
    for (const std::string& name : names) {
        std::string readable;
        if (is_mangled(name)) {
            // _Float16 and friends first: the runtime fails on some (DF16_) and misreads others (DF16b).
            std::optional<std::string> text = demangle_extended_floats(name, runtime_demangle);
            if (!text) text = runtime_demangle(name);
            if (text) readable = std::move(*text);
        }
        const auto length = static_cast<std::uint32_t>(readable.size());
        if (!write_all(fd, &length, sizeof length) || !write_all(fd, readable.data(), readable.size())) break;
    }
    ::_exit(0);  // not exit(): the parent's atexit handlers and stdio buffers are not the child's
}

// Reads the child's records into `names` until all arrived, the child ended, or the deadline passed.
void read_records(int fd, std::vector<std::string>& names, std::chrono::steady_clock::time_point deadline) {
    std::string pending;
    std::size_t next = 0;
    char buffer[4096];
    while (next < names.size()) {
        const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
        if (left.count() <= 0) return;
        pollfd p{fd, POLLIN, 0};
        const int ready = ::poll(&p, 1, static_cast<int>(left.count()));
        if (ready < 0 && errno == EINTR) continue;
        if (ready <= 0) return;
        const ssize_t n = ::read(fd, buffer, sizeof buffer);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return;  // the child ended (or crashed): the rest stay mangled
        pending.append(buffer, static_cast<std::size_t>(n));
        std::size_t at = 0;
        while (next < names.size() && pending.size() - at >= sizeof(std::uint32_t)) {
            std::uint32_t length = 0;
            pending.copy(reinterpret_cast<char*>(&length), sizeof length, at);
            if (pending.size() - at - sizeof length < length) break;
            if (length > 0) names[next] = pending.substr(at + sizeof length, length);
            ++next;
            at += sizeof length + length;
        }
        pending.erase(0, at);
    }
}

}  // namespace

std::vector<std::string> demangle_names(const std::vector<std::string>& mangled) {
    std::vector<std::string> names = mangled;
    bool any = false;
    for (const std::string& name : mangled) any = any || is_mangled(name);
    if (!any) return names;

    int fds[2];
    if (::pipe(fds) != 0) return names;
    const pid_t child = ::fork();
    if (child < 0) {
        ::close(fds[0]);
        ::close(fds[1]);
        return names;
    }
    if (child == 0) {
        ::close(fds[0]);
        demangle_in_child(fds[1], mangled);
    }
    ::close(fds[1]);
    read_records(fds[0], names, std::chrono::steady_clock::now() + demangle_budget(names.size()));
    ::close(fds[0]);
    ::kill(child, SIGKILL);  // harmless when it has finished; ends it when the budget ran out
    while (::waitpid(child, nullptr, 0) < 0 && errno == EINTR) {}
    return names;
}

#else

std::vector<std::string> demangle_names(const std::vector<std::string>& mangled) {
    (void)is_mangled;
    return mangled;
}

#endif

}  // namespace wavefit::cli
