/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mrc-command-line.h"

#include "ns3/global-value.h"
#include "ns3/string.h"

#include <algorithm>
#include <iostream>
#include <sstream>

namespace ns3
{

std::vector<std::string>
MrcCommandLine::KnownOptions(const CommandLine& cmd)
{
    // CommandLine keeps its options private; its help text lists each as "    --name...:".
    std::ostringstream help;
    cmd.PrintHelp(help);
    std::istringstream in(help.str());
    std::vector<std::string> names;
    std::string line;
    while (std::getline(in, line))
    {
        const std::size_t start = line.find_first_not_of(' ');
        if (start == std::string::npos || line.compare(start, 2, "--") != 0)
        {
            continue;
        }
        const std::size_t end = line.find_first_of(":=[ ", start + 2);
        names.push_back(line.substr(start + 2, end - start - 2));
    }
    for (const char* n : {"help",
                          "PrintHelp",
                          "PrintVersion",
                          "version",
                          "PrintGlobals",
                          "PrintGroups",
                          "PrintGroup",
                          "PrintTypeIds",
                          "PrintAttributes"})
    {
        if (std::find(names.begin(), names.end(), n) == names.end())
        {
            names.emplace_back(n);
        }
    }
    return names;
}

std::string
MrcCommandLine::Closest(const std::string& name, const std::vector<std::string>& known)
{
    auto lower = [](std::string s)
    {
        std::transform(s.begin(),
                       s.end(),
                       s.begin(),
                       [](unsigned char c)
                       {
                           return std::tolower(c);
                       });
        return s;
    };
    const std::string a = lower(name);
    std::string best;
    std::size_t bestDist = std::max<std::size_t>(2, a.size() / 3) + 1;
    for (const auto& k : known)
    {
        const std::string b = lower(k);
        // Levenshtein distance, two rows.
        std::vector<std::size_t> prev(b.size() + 1);
        std::vector<std::size_t> cur(b.size() + 1);
        for (std::size_t j = 0; j <= b.size(); ++j)
        {
            prev[j] = j;
        }
        for (std::size_t i = 1; i <= a.size(); ++i)
        {
            cur[0] = i;
            for (std::size_t j = 1; j <= b.size(); ++j)
            {
                cur[j] = std::min(
                    {prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)});
            }
            std::swap(prev, cur);
        }
        std::size_t d = prev[b.size()];
        if (b.rfind(a, 0) == 0 && a.size() >= 3)
        {
            d = std::min<std::size_t>(d, 1); // a prefix of a known option
        }
        if (d < bestDist)
        {
            bestDist = d;
            best = k;
        }
    }
    return best;
}

bool
MrcCommandLine::CheckSeed(uint64_t seed)
{
    if (seed >= 1 && seed <= 4294967086ULL)
    {
        return true;
    }
    std::cerr << "error: --seed must be between 1 and 4294967086" << std::endl;
    return false;
}

bool
MrcCommandLine::Parse(CommandLine& cmd, int argc, char* argv[])
{
    const std::vector<std::string> known = KnownOptions(cmd);
    for (int i = 1; i < argc; ++i)
    {
        std::string arg = argv[i];
        if (arg.rfind("--", 0) == 0)
        {
            arg = arg.substr(2);
        }
        else if (arg.rfind('-', 0) == 0)
        {
            arg = arg.substr(1);
        }
        else
        {
            std::cerr << "error: unexpected argument '" << argv[i]
                      << "' (options are written --name=value; --help lists them)" << std::endl;
            return false;
        }
        const std::string name = arg.substr(0, arg.find('='));
        if (name.rfind("ns3::", 0) == 0
            || std::find(known.begin(), known.end(), name) != known.end())
        {
            continue; // attributes are checked by ns-3 itself
        }
        bool global = false;
        for (auto g = GlobalValue::Begin(); g != GlobalValue::End(); ++g)
        {
            global = global || (*g)->GetName() == name;
        }
        if (global)
        {
            continue;
        }
        const std::string hint = Closest(name, known);
        std::cerr << "error: unknown option '--" << name << "' ("
                  << (hint.empty() ? std::string() : "did you mean '--" + hint + "'? ")
                  << "--help lists every option)" << std::endl;
        return false;
    }
    // The fabric's scheduler by default (the same event order as ns-3's, faster);
    // --SchedulerType on the command line still chooses another.
    GlobalValue::Bind("SchedulerType", StringValue("ns3::MrcHeapScheduler"));
    cmd.Parse(argc, argv);
    return true;
}

} // namespace ns3
