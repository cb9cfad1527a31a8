/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "ns3/mrc-mutant.h"

#include <algorithm>
#include <sstream>

namespace ns3
{

const std::vector<MrcMutant::Entry>&
MrcMutant::GetAll()
{
    static const std::vector<Entry> all = {
        {"rto-only",
         "MRC's out-of-order (SACK) loss detection: only the retransmission timer finds losses",
         false,
         {{RECOVERY, "ReorderThreshold", "1000000"}, {RECOVERY, "ReorderWindow", "10s"}}},
        {"slow-rto",
         "MRC's retransmission timer: 1.024 us x 2^20 (1.07 s) instead of microseconds",
         false,
         {{QUEUE_PAIR, "AckTimeoutExponent", "20"}}},
        {"no-trim",
         "trimming: switches drop a packet that does not fit",
         false,
         {{SCHEME, "Trim", "false"}}},
        {"no-spray",
         "packet spray: one path per queue pair (MrcSinglePath)",
         false,
         {{SELECTOR_TYPE, "", "ns3::MrcSinglePath"}}},
        {"no-probe",
         "probing: a retired EV never returns (probes every hour)",
         false,
         {{QUEUE_PAIR, "ProbeInterval", "3600s"}, {QUEUE_PAIR, "ProbeMaxInterval", "3600s"}}},
        {"no-port-bitmap",
         "the peer's port-status bitmap: a sender never learns that a peer's NIC port is down "
         "or back",
         false,
         {{QUEUE_PAIR, "PeerPortStatus", "false"}}},
        {"no-ecn-skip",
         "ECN-driven load balancing: an ECN mark does not skip its EV",
         false,
         {{SELECTOR, "EcnSkip", "false"}}},
        {"no-nscc",
         "MRC's congestion control: a fixed window (MrcFixedWindow) instead of NSCC",
         false,
         {{CC_TYPE, "", "ns3::MrcFixedWindow"}}},
        {"no-loss-guard",
         "IncastLossGuard (this model's addition, not the spec's): out-of-order losses during an "
         "incast retire their EV",
         false,
         {{RECOVERY, "IncastLossGuard", "false"}}},
        {"no-time-rule",
         "the out-of-order time rule and its hold-until-verdict (this model's addition, not the "
         "spec's): only the count rule and the timer find losses",
         false,
         {{RECOVERY, "ReorderWindow", "10s"}}},
        {"ecmp-instant",
         "the routed baseline's control plane: failures detected and routed around at once",
         true,
         {{CONTROL_PLANE, "DetectionDelay", "0s"}, {CONTROL_PLANE, "ReconvergenceDelay", "0s"}}},
        {"no-pfc",
         "the baseline's lossless data class (PFC off)",
         true,
         {{SCHEME, "Pfc", "false"}}},
        {"no-dcqcn",
         "the baseline's congestion control: none (PFC only, MrcFixedWindow)",
         true,
         {{CC_TYPE, "", "ns3::MrcFixedWindow"}}},
    };
    return all;
}

const MrcMutant::Entry*
MrcMutant::Find(const std::string& name)
{
    for (const auto& e : GetAll())
    {
        if (e.name == name)
        {
            return &e;
        }
    }
    return nullptr;
}

std::string
MrcMutant::GetNames()
{
    std::string s;
    for (const auto& e : GetAll())
    {
        s += (s.empty() ? "" : ", ") + e.name;
    }
    return s;
}

bool
MrcMutant::Parse(const std::string& list, std::vector<const Entry*>& out, std::string& error)
{
    out.clear();
    if (list.empty() || list == "none")
    {
        return true;
    }
    std::istringstream is(list);
    std::string name;
    while (std::getline(is, name, ','))
    {
        const Entry* e = Find(name);
        if (e == nullptr)
        {
            error = "unknown mutant '" + name + "' (accepted: none, " + GetNames() + ")";
            return false;
        }
        if (std::find(out.begin(), out.end(), e) != out.end())
        {
            error = "mutant '" + name + "' is named twice";
            return false;
        }
        out.push_back(e);
    }
    if (out.empty())
    {
        error = "no mutant named (accepted: none, " + GetNames() + ")";
        return false;
    }
    return true;
}

} // namespace ns3
