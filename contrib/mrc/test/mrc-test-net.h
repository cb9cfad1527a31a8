/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_TEST_NET_H
#define MRC_TEST_NET_H

/**
 * @file
 * @brief A small fabric with the MRC stack installed, shared by the test suites.
 */

#include "ns3/mrc-clos-helper.h"
#include "ns3/mrc-stack-helper.h"

#include "ns3/uinteger.h"

#include <map>
#include <string>

namespace ns3
{

/**
 * @defgroup mrc-tests MRC module tests
 * @ingroup mrc
 */
namespace mrctest
{

/** A fabric with the MRC stack on it. */
struct Net
{
    Ptr<MrcClosHelper> fabric; //!< fabric
    MrcStackHelper stack;      //!< stack
};

/**
 * Build a two-tier SRv6 fabric and install MRC, with fixed random streams.
 * @param planes planes
 * @param hostsPerT0 hosts per T0
 * @param t0 T0s per plane
 * @param t1 T1s per plane
 * @param selector path selector TypeId name
 * @param evs EV set size
 * @param stream first random stream
 * @param qpAttrs queue pair attributes (unsigned integer ones)
 * @return the network
 */
inline Net
MakeNet(uint32_t planes,
        uint32_t hostsPerT0,
        uint32_t t0,
        uint32_t t1,
        const std::string& selector = "ns3::MrcAdaptiveSpray",
        uint32_t evs = 32,
        int64_t stream = 1,
        const std::map<std::string, uint32_t>& qpAttrs = {})
{
    Net n;
    n.fabric = CreateObject<MrcClosHelper>();
    n.fabric->SetAttribute("Planes", UintegerValue(planes));
    n.fabric->SetAttribute("HostsPerT0", UintegerValue(hostsPerT0));
    n.fabric->SetAttribute("T0sPerPlane", UintegerValue(t0));
    n.fabric->SetAttribute("T1sPerPlane", UintegerValue(t1));
    n.fabric->Build();
    n.stack.SetPathSelector(selector, "EvSetSize", UintegerValue(evs));
    for (const auto& kv : qpAttrs)
    {
        n.stack.SetQueuePairAttribute(kv.first, UintegerValue(kv.second));
    }
    n.stack.Install(n.fabric);
    stream += n.fabric->AssignStreams(stream);
    n.stack.AssignStreams(stream);
    return n;
}

} // namespace mrctest
} // namespace ns3

#endif /* MRC_TEST_NET_H */
