#include "cli/child_process.h"

#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <stdexcept>

namespace gpusim {

std::string run_in_child(const std::function<std::string()>& work) {
    int fds[2];
    if (pipe(fds) != 0) throw std::runtime_error("pipe failed");
    std::fflush(stdout);
    std::fflush(stderr);
    const pid_t pid = fork();
    if (pid < 0) throw std::runtime_error("fork failed");
    if (pid == 0) {
        close(fds[0]);
        const std::string text = work();
        const bool sent = write(fds[1], text.data(), text.size()) == ssize_t(text.size());
        std::fflush(stdout);
        std::fflush(stderr);
        _exit(sent ? 0 : 1);
    }
    close(fds[1]);
    std::string text;
    char chunk[4096];
    for (ssize_t n; (n = read(fds[0], chunk, sizeof chunk)) > 0;) text.append(chunk, size_t(n));
    close(fds[0]);
    int status = 0;
    waitpid(pid, &status, 0);
    return text;
}

} // namespace gpusim
