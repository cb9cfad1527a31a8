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
#include "ns3/mrc-path-selector.h"
#include "ns3/mrc-queue-pair.h"
#include "ns3/mrc-stack-helper.h"
#include "ns3/mrc-trimming-queue.h"

#include "ns3/simulator.h"
#include "ns3/uinteger.h"

#include <map>
#include <string>
#include <vector>

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
    Ptr<MrcClosTopology> fabric; //!< fabric
    MrcStackHelper stack;        //!< stack
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
 * @param fabricAttrs MrcClosHelper attributes (unsigned integer ones)
 * @param l4Attrs MrcL4Protocol attributes (unsigned integer ones)
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
        const std::map<std::string, uint32_t>& qpAttrs = {},
        const std::map<std::string, uint32_t>& fabricAttrs = {},
        const std::map<std::string, uint32_t>& l4Attrs = {})
{
    Net n;
    Ptr<MrcClosHelper> clos = CreateObject<MrcClosHelper>();
    clos->SetAttribute("Planes", UintegerValue(planes));
    clos->SetAttribute("HostsPerT0", UintegerValue(hostsPerT0));
    clos->SetAttribute("T0sPerPlane", UintegerValue(t0));
    clos->SetAttribute("T1sPerPlane", UintegerValue(t1));
    for (const auto& kv : fabricAttrs)
    {
        // The switch ports' queue attributes (DataLimit, ...) go to the queue factory.
        TypeId::AttributeInformation info;
        if (MrcTrimmingQueue::GetTypeId().LookupAttributeByName(kv.first, &info))
        {
            clos->SetQueueAttribute(kv.first, UintegerValue(kv.second));
        }
        else
        {
            clos->SetAttribute(kv.first, UintegerValue(kv.second));
        }
    }
    n.fabric = clos->Build();
    n.stack.SetPathSelector(selector, "EvSetSize", UintegerValue(evs));
    for (const auto& kv : qpAttrs)
    {
        n.stack.SetQueuePairAttribute(kv.first, UintegerValue(kv.second));
    }
    for (const auto& kv : l4Attrs)
    {
        n.stack.SetProtocolAttribute(kv.first, UintegerValue(kv.second));
    }
    n.stack.Install(n.fabric);
    stream += n.fabric->AssignStreams(stream);
    n.stack.AssignStreams(stream);
    return n;
}

/**
 * Run the simulation to its natural end under a watchdog: if anything is still scheduled after
 * `limit` of simulated time (a timer, probe or process that re-arms forever), stop there and
 * report it instead of hanging. Simulator::Now() is `limit` afterwards either way.
 * @param limit the watchdog's time
 * @return true if the run ended by itself before the watchdog
 */
inline bool
RunToEnd(Time limit = Seconds(100))
{
    static bool s_livelock;
    s_livelock = false;
    Simulator::Schedule(
        limit,
        +[]()
        {
            s_livelock = !Simulator::IsFinished();
            Simulator::Stop();
        });
    Simulator::Run();
    return !s_livelock;
}

/**
 * Count a queue pair's EV retirements (transitions to ASSUMED_BAD) into a counter.
 * @param qp the queue pair
 * @param retired the counter, which must outlive the simulation
 */
inline void
CountRetirements(Ptr<MrcQueuePair> qp, uint64_t* retired)
{
    qp->GetPathSelector()->TraceConnectWithoutContext(
        "EvStateChange",
        MakeBoundCallback(
            +[](uint64_t* r, uint16_t, uint8_t, uint8_t to, uint8_t)
            {
                *r += to == MrcPathSelector::ASSUMED_BAD ? 1 : 0;
            },
            retired));
}

/** EV transitions of interest, counted by CountEvStates. */
struct EvCounts
{
    uint64_t retired = 0;  //!< to ASSUMED_BAD
    uint64_t held = 0;     //!< to SKIP on a suspected loss (the EV or one naming its path)
    uint64_t released = 0; //!< back to GOOD because the late packet arrived
};

/**
 * Count a queue pair's retirements, holds and releases.
 * @param qp the queue pair
 * @param counts the counters, which must outlive the simulation
 */
inline void
CountEvStates(Ptr<MrcQueuePair> qp, EvCounts* counts)
{
    qp->GetPathSelector()->TraceConnectWithoutContext(
        "EvStateChange",
        MakeBoundCallback(
            +[](EvCounts* c, uint16_t, uint8_t, uint8_t to, uint8_t cause)
            {
                c->retired += to == MrcPathSelector::ASSUMED_BAD ? 1 : 0;
                c->held += MrcPathSelector::IsHold(to, cause) ? 1 : 0;
                c->released += cause == MrcPathSelector::CAUSE_LATE_ARRIVAL ? 1 : 0;
            },
            counts));
}

/** Records data transmissions: time, plane, EV. */
struct TxLog
{
    /** One transmission. */
    struct Tx
    {
        Time at;        //!< when
        uint32_t psn;   //!< PSN
        uint16_t ev;    //!< EV
        uint8_t cause;  //!< TxCause
        uint16_t plane; //!< plane
        uint16_t path;  //!< path
    };

    std::vector<Tx> txs;      //!< in order
    Ptr<MrcPathSelector> sel; //!< selector

    /**
     * Trace sink.
     * @param p packet
     * @param psn PSN
     * @param ev EV
     * @param cause cause
     */
    void Record(Ptr<const Packet> /* p */, uint32_t psn, uint16_t ev, uint8_t cause)
    {
        const auto& e = sel->GetEv(ev);
        txs.push_back({Simulator::Now(), psn, ev, cause, e.plane, e.path});
    }

    /**
     * Attach to a queue pair.
     * @param qp the queue pair
     */
    void Attach(Ptr<MrcQueuePair> qp)
    {
        sel = qp->GetPathSelector();
        qp->TraceConnectWithoutContext("Tx", MakeCallback(&TxLog::Record, this));
    }
};

} // namespace mrctest
} // namespace ns3

#endif /* MRC_TEST_NET_H */
