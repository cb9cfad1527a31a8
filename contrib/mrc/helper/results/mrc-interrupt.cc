/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "ns3/mrc-interrupt.h"

#include "ns3/simulator.h"

#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstdio>
#include <iomanip>
#include <sstream>

namespace ns3
{

namespace
{

volatile sig_atomic_t g_signal = 0;           //!< the signal caught, or 0
constexpr int MAX_CHILDREN = 32;              //!< children a signal is forwarded to
volatile pid_t g_children[MAX_CHILDREN] = {}; //!< their pids (0: free slot)
bool g_installed = false;                     //!< Install() ran
bool g_stopped = false;                       //!< the watch stopped a simulation
Time g_stoppedAt;                             //!< when (simulated)

/**
 * The handler: note the signal, forward it to the children, and let a second one end the
 * process (async-signal-safe calls only).
 * @param sig the signal
 */
extern "C" void
OnSignal(int sig)
{
    if (g_signal == 0)
    {
        g_signal = sig;
    }
    for (int i = 0; i < MAX_CHILDREN; ++i)
    {
        const pid_t pid = g_children[i];
        if (pid > 0)
        {
            kill(pid, SIGTERM);
        }
    }
    struct sigaction dfl = {};
    dfl.sa_handler = SIG_DFL;
    sigemptyset(&dfl.sa_mask);
    sigaction(SIGINT, &dfl, nullptr);
    sigaction(SIGTERM, &dfl, nullptr);
}

/** The periodic look at the flag. */
void WatchCheck(Time interval);

void
WatchCheck(Time interval)
{
    if (g_signal != 0)
    {
        g_stopped = true;
        g_stoppedAt = Simulator::Now();
        Simulator::Stop();
        return;
    }
    // The only event left is this one: the simulation is over, let it end.
    if (!Simulator::IsFinished())
    {
        Simulator::Schedule(interval, &WatchCheck, interval);
    }
}

} // namespace

void
MrcInterrupt::Install()
{
    if (g_installed)
    {
        return;
    }
    g_installed = true;
    struct sigaction sa = {};
    sa.sa_handler = &OnSignal;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = SA_RESTART;
    sigaction(SIGINT, &sa, nullptr);
    sigaction(SIGTERM, &sa, nullptr);
}

int
MrcInterrupt::GetSignal()
{
    return g_signal;
}

bool
MrcInterrupt::Requested()
{
    return g_signal != 0;
}

std::string
MrcInterrupt::GetSignalName()
{
    switch (g_signal)
    {
        case SIGINT:
            return "SIGINT";
        case SIGTERM:
            return "SIGTERM";
        case 0:
            return "";
        default:
            return "signal " + std::to_string(int(g_signal));
    }
}

int
MrcInterrupt::ExitStatus()
{
    return g_signal == 0 ? 0 : 128 + g_signal;
}

void
MrcInterrupt::Watch(Time interval)
{
    Simulator::Schedule(interval, &WatchCheck, interval);
}

void
MrcInterrupt::Check(const std::string& where)
{
    if (g_signal != 0)
    {
        throw MrcInterrupted(Reason(where));
    }
}

std::string
MrcInterrupt::Reason(const std::string& where)
{
    std::ostringstream os;
    os << "interrupted by " << GetSignalName();
    if (g_stopped)
    {
        os << " at simulated " << std::fixed << std::setprecision(3)
           << g_stoppedAt.GetNanoSeconds() / 1e6 << " ms";
    }
    if (!where.empty())
    {
        os << " (" << where << ")";
    }
    return os.str();
}

void
MrcInterrupt::AddChild(pid_t pid)
{
    for (int i = 0; i < MAX_CHILDREN; ++i)
    {
        if (g_children[i] == 0)
        {
            g_children[i] = pid;
            break;
        }
    }
    // A signal caught just before the child was registered reaches it here.
    if (g_signal != 0)
    {
        kill(pid, SIGTERM);
    }
}

void
MrcInterrupt::RemoveChild(pid_t pid)
{
    for (int i = 0; i < MAX_CHILDREN; ++i)
    {
        if (g_children[i] == pid)
        {
            g_children[i] = 0;
        }
    }
}

void
MrcInterrupt::ResetInChild()
{
    struct sigaction dfl = {};
    dfl.sa_handler = SIG_DFL;
    sigemptyset(&dfl.sa_mask);
    sigaction(SIGINT, &dfl, nullptr);
    sigaction(SIGTERM, &dfl, nullptr);
    for (int i = 0; i < MAX_CHILDREN; ++i)
    {
        g_children[i] = 0;
    }
}

int
MrcInterrupt::RunChild(const std::vector<std::string>& argv)
{
    if (argv.empty())
    {
        return 127;
    }
    std::vector<char*> args;
    for (const auto& a : argv)
    {
        args.push_back(const_cast<char*>(a.c_str()));
    }
    args.push_back(nullptr);
    std::fflush(nullptr);
    const pid_t pid = fork();
    if (pid < 0)
    {
        return 127;
    }
    if (pid == 0)
    {
        ResetInChild();
        execvp(args[0], args.data());
        _exit(127);
    }
    AddChild(pid);
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
    {
    }
    RemoveChild(pid);
    if (WIFEXITED(status))
    {
        return WEXITSTATUS(status);
    }
    return WIFSIGNALED(status) ? 128 + WTERMSIG(status) : 127;
}

MrcInterrupted::MrcInterrupted(const std::string& reason)
    : std::runtime_error(reason)
{
}

} // namespace ns3
