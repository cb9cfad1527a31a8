/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_CLUSTER_PRESET_H
#define MRC_CLUSTER_PRESET_H

#include "ns3/mrc-scheme-helper.h"

#include "ns3/nstime.h"

#include <string>
#include <vector>

namespace ns3
{

/**
 * @ingroup mrc
 * @brief The MRC paper's testbed clusters (its Table 1) as descriptions for MrcSchemeHelper.
 *
 * - `B`: 800G NICs as 8 x 100G ports on 8 planes, two tiers (the paper's Figs 9-15);
 * - `C`: 64 GPUs; MRC on 4 x 100G planes, RoCE on one 400G plane, two tiers (Figs 16-17);
 * - `D`: 16 servers in 4 racks of 4, 4 spines, 400G, one plane (Figs 18-22).
 * The paper gives the NIC ports, rates, planes and, for D, the racks and spines; the T0 sizes
 * of B and C are ours (8 hosts per T0, as many T1s: non-blocking). B's latencies are
 * calibrated to the paper's point-to-point anchors (a 2-byte write's one-way latency within a
 * T0 and across a T1); C and D keep MrcClosHelper's defaults (the paper gives no anchor).
 *
 * @code
 * Ptr<MrcSchemeHelper> s = CreateObject<MrcSchemeHelper>();
 * std::string err;
 * MrcClusterPreset::Apply("D", s, err);
 * s->SetAttribute("Scheme", StringValue("roce"));
 * @endcode
 */
class MrcClusterPreset
{
public:
    /** A cluster's description. */
    struct Cluster
    {
        std::string name;      //!< B, C or D
        uint32_t hosts;        //!< hosts (NICs)
        uint32_t planes;       //!< NIC ports, one plane each (MRC)
        std::string planeRate; //!< rate of a plane's links
        uint32_t hostsPerT0;   //!< hosts per T0 (a rack)
        uint32_t t1;           //!< T1s (spines) per plane
        std::string what;      //!< what the paper says of it
        /**
         * Latencies calibrated to the paper's point-to-point anchors (B only; 0: the
         * builder's defaults): cable delay, switch latency, a NIC's send and receive
         * pipelines. docs/calibration.md gives the anchors, the split and its sources.
         */
        Time linkDelay{0};
        Time switchLatency{0}; //!< see linkDelay
        Time nicTxLatency{0};  //!< see linkDelay
        Time nicRxLatency{0};  //!< see linkDelay
    };

    /** @return the clusters, B, C, D */
    static const std::vector<Cluster>& GetAll();
    /**
     * @param name B, C or D
     * @return the cluster, or null
     */
    static const Cluster* Find(const std::string& name);
    /**
     * Describe a cluster to a scheme builder (Hosts, Planes, PlaneRate, HostsPerT0,
     * T1sPerPlane).
     * @param name B, C or D
     * @param scheme the builder
     * @param error set to a one-line message naming the known clusters
     * @return false for an unknown name
     */
    static bool Apply(const std::string& name, Ptr<MrcSchemeHelper> scheme, std::string& error);
};

} // namespace ns3

#endif /* MRC_CLUSTER_PRESET_H */
