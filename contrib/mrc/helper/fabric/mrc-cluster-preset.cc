/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "ns3/mrc-cluster-preset.h"

#include "ns3/data-rate.h"
#include "ns3/uinteger.h"

namespace ns3
{

const std::vector<MrcClusterPreset::Cluster>&
MrcClusterPreset::GetAll()
{
    static const std::vector<Cluster> all = {
        {"B",
         32,
         8,
         "100Gbps",
         8,
         8,
         "800G NICs as 8 x 100G ports, two tiers, 8 planes",
         // P2 - P1 = 1.45 us is two more switches and two more cables: 500 ns per switch
         // (a Tomahawk-class switch's latency) leaves 215 ns per cable; the NICs carry the
         // rest of P1 = 5.09 us, split evenly between send and receive (docs/calibration.md).
         NanoSeconds(215),
         NanoSeconds(500),
         NanoSeconds(2070),
         NanoSeconds(2070)},
        {"C",
         64,
         4,
         "100Gbps",
         8,
         8,
         "64 GPUs, 400G NICs; MRC as 4 x 100G on 4 planes, RoCE on one 400G plane"},
        {"D", 16, 1, "400Gbps", 4, 4, "16 servers, 4 racks of 4, 4 spines, 400G, one plane"},
    };
    return all;
}

const MrcClusterPreset::Cluster*
MrcClusterPreset::Find(const std::string& name)
{
    for (const auto& c : GetAll())
    {
        if (c.name == name)
        {
            return &c;
        }
    }
    return nullptr;
}

bool
MrcClusterPreset::Apply(const std::string& name, Ptr<MrcSchemeHelper> scheme, std::string& error)
{
    const Cluster* c = Find(name);
    if (c == nullptr)
    {
        error = "unknown cluster '" + name + "' (accepted: B, C, D)";
        return false;
    }
    scheme->SetAttribute("Hosts", UintegerValue(c->hosts));
    scheme->SetAttribute("Planes", UintegerValue(c->planes));
    scheme->SetAttribute("PlaneRate", DataRateValue(DataRate(c->planeRate)));
    scheme->SetAttribute("HostsPerT0", UintegerValue(c->hostsPerT0));
    scheme->SetAttribute("T1sPerPlane", UintegerValue(c->t1));
    if (c->linkDelay.IsStrictlyPositive())
    {
        scheme->SetFabricAttribute("LinkDelay", TimeValue(c->linkDelay));
        scheme->SetSwitchAttribute("Latency", TimeValue(c->switchLatency));
        scheme->SetFabricAttribute("NicTxLatency", TimeValue(c->nicTxLatency));
        scheme->SetFabricAttribute("NicRxLatency", TimeValue(c->nicRxLatency));
        scheme->SetFluidAttribute("LinkDelay", TimeValue(c->linkDelay));
        scheme->SetFluidAttribute("SwitchLatency", TimeValue(c->switchLatency));
    }
    return true;
}

} // namespace ns3
