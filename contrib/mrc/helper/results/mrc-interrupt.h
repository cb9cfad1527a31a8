/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_INTERRUPT_H
#define MRC_INTERRUPT_H

#include "ns3/nstime.h"

#include <sys/types.h>

#include <stdexcept>
#include <string>
#include <vector>

namespace ns3
{

/**
 * @ingroup mrc
 * @brief Stopping a program cleanly on SIGINT and SIGTERM.
 *
 * Install() catches both signals. A caught signal only sets a flag (and forwards SIGTERM to the
 * child processes registered with AddChild, which RunChild does for its own); a second one of
 * either kind ends the process at once. Watch() makes the running simulation look at the flag
 * every CheckInterval of simulated time and stop (Simulator::Stop) when it is set, so that the
 * program can write what it has, marked incomplete, and exit with ExitStatus() (130 for SIGINT,
 * 143 for SIGTERM). Programs call Check() between their phases; it throws MrcInterrupted once a
 * signal was caught.
 *
 * The watch event does nothing observable: it neither changes the order of the other events
 * nor keeps a simulation alive (it is not rescheduled once it is the only event left).
 */
class MrcInterrupt
{
public:
    /** Catch SIGINT and SIGTERM (idempotent). */
    static void Install();
    /** @return the signal caught (SIGINT or SIGTERM), or 0 */
    static int GetSignal();
    /** @return whether a signal was caught */
    static bool Requested();
    /** @return "SIGINT", "SIGTERM" (or "" if none) */
    static std::string GetSignalName();
    /** @return 128 + the signal (130, 143), or 0 */
    static int ExitStatus();
    /**
     * Stop the current simulation when a signal is caught, looking every interval of simulated
     * time. Call it after the simulation's first events are scheduled (again for every run:
     * Simulator::Destroy removes it).
     * @param interval simulated time between looks
     */
    static void Watch(Time interval = MicroSeconds(20));
    /**
     * Throw MrcInterrupted if a signal was caught.
     * @param where what the program was doing ("mrc run"), for the reason text
     */
    static void Check(const std::string& where);
    /**
     * @param where what the program was doing
     * @return "interrupted by SIGTERM at simulated 2.410 ms (mrc run)" (the simulated time is
     *         the simulator's current time)
     */
    static std::string Reason(const std::string& where);
    /**
     * Forward a caught signal (as SIGTERM) to this child too.
     * @param pid the child
     */
    static void AddChild(pid_t pid);
    /** @param pid a child that has ended */
    static void RemoveChild(pid_t pid);
    /** In a forked child: the default actions again (the parent stops the child itself). */
    static void ResetInChild();
    /**
     * Run a program and wait for it; a caught signal stops it (SIGTERM).
     * @param argv the program and its arguments (argv[0] is looked up in PATH if not a path)
     * @return its exit status, 128 + its signal if a signal ended it, or 127 if it could not
     *         be started
     */
    static int RunChild(const std::vector<std::string>& argv);
};

/**
 * @ingroup mrc
 * @brief Thrown by MrcInterrupt::Check once SIGINT or SIGTERM was caught.
 */
class MrcInterrupted : public std::runtime_error
{
public:
    /** @param reason MrcInterrupt::Reason's text */
    explicit MrcInterrupted(const std::string& reason);
};

} // namespace ns3

#endif /* MRC_INTERRUPT_H */
