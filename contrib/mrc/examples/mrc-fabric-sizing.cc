/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

/**
 * @file
 * @brief Fabric sizing calculator: multi-plane vs single-plane folded Clos.
 *
 * Each NIC of speed nicSpeed is split into P = nicSpeed / portSpeed ports,
 * each cabled to a separate, independent plane built from radix-R switches
 * running at portSpeed.  A folded Clos (fat tree) of t tiers built from
 * radix-R switches, where every switch below the top tier uses R/2 ports
 * down and R/2 up and the top tier uses all R ports down, has
 *
 *  - N = 2 * (R/2)^t endpoints,
 *  - N / (R/2) switches in each tier below the top and N / R at the top,
 *  - t levels of N links (host links plus each inter-tier level).
 *
 * The multi-plane design is P such fabrics with R-port switches at portSpeed;
 * the single-plane design is one fabric whose switches have the same total
 * bandwidth, i.e. radix R1 = R * portSpeed / nicSpeed ports at nicSpeed.
 *
 * Output: one machine-readable line of key=value pairs per design: the
 * multi-plane design at --tiers, then the single-plane design at --tiers and
 * at each further tier count up to the smallest one (at most 4) that reaches
 * at least as many NICs as the multi-plane design.  If no single-plane design
 * with at most 4 tiers reaches it, a "note: ..." line goes to stderr.
 * Invalid input prints one "error: ..." line to stderr and exits with 1.
 *
 * Usage:
 *   ./ns3 run "mrc-fabric-sizing --radix=512 --portSpeed=100 --nicSpeed=800 --tiers=2"
 */

#include "ns3/mrc-command-line.h"
#include "ns3/mrc-fabric-size.h"

#include "ns3/core-module.h"

#include <charconv>
#include <cstdint>
#include <iostream>
#include <optional>
#include <sstream>
#include <string>
#include <system_error>
#include <vector>

using namespace ns3;

NS_LOG_COMPONENT_DEFINE("MrcFabricSizing");

namespace
{

/// Largest number of switch tiers supported.
constexpr int64_t MAX_TIERS = MrcFabricSize::MAX_TIERS;

/**
 * Parse a whole string as a base-10 signed 64-bit integer.
 *
 * @param text the string to parse
 * @return the value, or std::nullopt if the string is not entirely an integer
 *         or does not fit in int64_t
 */
std::optional<int64_t>
ParseInt64(const std::string& text)
{
    int64_t value = 0;
    const char* first = text.data();
    const char* last = text.data() + text.size();
    auto [ptr, ec] = std::from_chars(first, last, value);
    if (text.empty() || ec != std::errc() || ptr != last)
    {
        return std::nullopt;
    }
    return value;
}

/**
 * Print the single-line error message to stderr.
 *
 * @param param option name without the leading dashes
 * @param requirement what the option must satisfy
 * @param got the offending value as given
 */
void
PrintError(const std::string& param, const std::string& requirement, const std::string& got)
{
    std::cerr << "error: --" << param << " must be " << requirement << " (got " << got << ")"
              << std::endl;
}

} // namespace

int
main(int argc, char* argv[])
{
    std::string radixText = "512";
    std::string portSpeedText = "100";
    std::string nicSpeedText = "800";
    std::string tiersText = "2";

    // Each option is stored verbatim by a callback, so that every value (including an empty
    // one, or one with spaces) reaches our own validation below instead of being rejected by
    // CommandLine with a usage dump (ns-3.37 parses a std::string option with operator>>,
    // which fails on an empty value and stops at the first space).  The callback is a lambda,
    // not MakeBoundCallback: ns-3.37's AddValue takes a Callback<bool, std::string> and
    // ns-3-dev's a Callback<bool, const std::string&>, and a lambda taking a
    // const std::string& converts to either.
    auto storeIn = [](std::string& target)
    {
        return [&target](const std::string& value)
        {
            target = value;
            return true;
        };
    };

    MrcCommandLine cmd(__FILE__);
    cmd.AddValue("radix",
                 "Switch radix (ports per switch) in the multi-plane design",
                 storeIn(radixText),
                 radixText);
    cmd.AddValue("portSpeed",
                 "Switch port speed in Gbps (multi-plane design)",
                 storeIn(portSpeedText),
                 portSpeedText);
    cmd.AddValue("nicSpeed",
                 "NIC speed in Gbps (multiple of portSpeed)",
                 storeIn(nicSpeedText),
                 nicSpeedText);
    cmd.AddValue("tiers", "Number of switch tiers (1..4)", storeIn(tiersText), tiersText);
    if (!MrcCommandLine::Parse(cmd, argc, argv))
    {
        return 1;
    }

    // Parse all numeric options as int64 first, so that any non-numeric
    // value is reported before range checks on the other options.
    struct Option
    {
        const char* name;
        const std::string& text;
        int64_t value;
    };

    std::vector<Option> options = {{"radix", radixText, 0},
                                   {"portSpeed", portSpeedText, 0},
                                   {"nicSpeed", nicSpeedText, 0},
                                   {"tiers", tiersText, 0}};
    for (auto& option : options)
    {
        auto parsed = ParseInt64(option.text);
        if (!parsed)
        {
            PrintError(option.name, "a 64-bit integer", "'" + option.text + "'");
            return 1;
        }
        option.value = *parsed;
    }
    const int64_t radix = options[0].value;
    const int64_t portSpeed = options[1].value;
    const int64_t nicSpeed = options[2].value;
    const int64_t tiers = options[3].value;

    if (radix < 2 || radix % 2 != 0)
    {
        PrintError("radix", "an even integer >= 2", radixText);
        return 1;
    }
    if (portSpeed <= 0)
    {
        PrintError("portSpeed", "a positive number of Gbps", portSpeedText);
        return 1;
    }
    if (nicSpeed <= 0)
    {
        PrintError("nicSpeed", "a positive number of Gbps", nicSpeedText);
        return 1;
    }
    if (nicSpeed % portSpeed != 0)
    {
        PrintError("nicSpeed",
                   "a multiple of --portSpeed (" + std::to_string(portSpeed) + ")",
                   nicSpeedText);
        return 1;
    }
    if (tiers < 1 || tiers > MAX_TIERS)
    {
        PrintError("tiers", "between 1 and " + std::to_string(MAX_TIERS), tiersText);
        return 1;
    }

    // Single-plane switches have the same total bandwidth: R1 = R * portSpeed / nicSpeed
    // = R / P ports at nicSpeed.  R1 must be an integer, even and >= 2, i.e. R must be a
    // multiple of 2 * P.
    const int64_t planes = nicSpeed / portSpeed;
    if (radix % planes != 0 || radix / planes < 2 || (radix / planes) % 2 != 0)
    {
        PrintError("radix",
                   "a multiple of 2*nicSpeed/portSpeed (2*" + std::to_string(planes)
                       + ") so that the single-plane radix radix*portSpeed/nicSpeed is an even "
                         "integer >= 2",
                   radixText);
        return 1;
    }
    const int64_t singleRadix = radix / planes;

    // Compute every design before printing, so that an overflow produces only
    // the error line and no partial output.
    const std::string overflowReq = "small enough for all counts to fit in 64-bit integers";
    std::vector<MrcFabricSize> designs;

    MrcFabricSize multi;
    if (!MrcFabricSize::Compute("multi-plane", planes, tiers, radix, portSpeed, multi))
    {
        PrintError("radix", overflowReq, radixText);
        return 1;
    }
    designs.push_back(multi);

    MrcFabricSize single;
    if (!MrcFabricSize::Compute("single-plane", 1, tiers, singleRadix, nicSpeed, single))
    {
        PrintError("radix", overflowReq, radixText);
        return 1;
    }
    designs.push_back(single);

    // Walk the single-plane design up from --tiers, one line per tier count,
    // until it reaches at least the multi-plane NIC count (or MAX_TIERS).
    // The single-plane radix is never larger, so parity is never below --tiers.
    // With radix 2 the fabric does not grow with the tier count, so stop there.
    bool matched = single.nics >= multi.nics;
    for (int64_t t = tiers + 1; !matched && singleRadix > 2 && t <= MAX_TIERS; ++t)
    {
        MrcFabricSize candidate;
        if (!MrcFabricSize::Compute("single-plane", 1, t, singleRadix, nicSpeed, candidate))
        {
            PrintError("radix", overflowReq, radixText);
            return 1;
        }
        designs.push_back(candidate);
        matched = candidate.nics >= multi.nics;
    }

    for (const auto& design : designs)
    {
        std::cout << design.Format() << std::endl;
    }
    if (!matched)
    {
        std::cerr << "note: no single-plane design with at most " << MAX_TIERS
                  << " tiers reaches nics=" << multi.nics << std::endl;
    }
    return 0;
}
