/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_COMMAND_LINE_H
#define MRC_COMMAND_LINE_H

#include "ns3/command-line.h"

#include <string>
#include <vector>

namespace ns3
{

/**
 * @ingroup mrc
 * @brief Strict command-line parsing for the module's programs.
 *
 * ns-3's CommandLine answers an unknown option by printing the whole usage text. Before handing
 * the arguments to CommandLine::Parse, MrcParseCommandLine checks every `--name[=value]` against
 * the options the program declared and ns-3's general ones (`--PrintHelp`, `--PrintAttributes`,
 * ..., and `--ns3::Type::Attribute=value` / `--GlobalName=value` for attributes and globals), and
 * rejects an unknown one with a single line that names it and the closest known option:
 *
 * @verbatim
   error: unknown option '--gpu' (did you mean '--gpus'? --help lists every option)
   @endverbatim
 */
class MrcCommandLine
{
public:
    /**
     * Check the arguments, then parse them. Before parsing, MrcHeapScheduler is made the
     * default event scheduler (SchedulerType): it runs events in exactly the order of ns-3's
     * MapScheduler, faster; `--SchedulerType=ns3::MapScheduler` still picks ns-3's.
     * @param cmd the program's CommandLine, with every AddValue done
     * @param argc argument count
     * @param argv arguments
     * @return true if parsed; false after printing the one-line error (the caller exits 1)
     */
    static bool Parse(CommandLine& cmd, int argc, char* argv[]);

    /**
     * @param cmd a CommandLine
     * @return the option names it accepts (program options, then ns-3's general ones)
     */
    static std::vector<std::string> KnownOptions(const CommandLine& cmd);

    /**
     * @param name an unknown option name
     * @param known the accepted names
     * @return the closest accepted name (edit distance), or "" if none is close
     */
    static std::string Closest(const std::string& name, const std::vector<std::string>& known);

    /**
     * ns-3's generator (MRG32k3a) takes seeds from 1 to 4294967086; a value outside (a negative
     * one wraps around when parsed) is reported in one line instead of aborting inside ns-3.
     * @param seed the --seed value
     * @return true if usable; false after printing "error: --seed must be ..."
     */
    static bool CheckSeed(uint64_t seed);
};

} // namespace ns3

#endif /* MRC_COMMAND_LINE_H */
