/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_LINK_MONITOR_H
#define MRC_LINK_MONITOR_H

#include "ns3/mrc-fluid-network.h"
#include "ns3/mrc-link-tier.h"
#include "ns3/mrc-net-device.h"

#include "ns3/event-id.h"
#include "ns3/nstime.h"
#include "ns3/object.h"
#include "ns3/traced-callback.h"

#include <string>
#include <vector>

namespace ns3
{

/**
 * @ingroup mrc
 * @brief Samples link utilisation and queue occupancy of groups of ports every bin, as ns-3's
 * FlowMonitor samples flows: the monitor runs in the simulation, MrcRecorder (the helper beside
 * it) builds its groups and writes what its LinkSample trace reports (links.csv).
 *
 * A group is a set of transmitting ports of one plane and tier (MrcLinkTier). Every bin
 * it reports the group's utilisation (bytes sent in the bin over what the ports could send) and
 * its mean and largest data backlog at the end of the bin. A bin in which no port of any group
 * sent anything and every queue is empty is reported only if the bin before was busy, so that
 * long idle stretches (a QP waiting seconds for a timeout) cost one row per group, not millions.
 * Nor do they cost a walk over every port per bin: the ports count the frames offered to them
 * and started (MrcNetDevice::SetActivityCounter), and after an idle bin a bin in which that
 * count stood still is idle too, so it is skipped without reading the ports.
 * For a flow-level fabric (SetFluid) the groups are the network's tiers per plane and the
 * backlogs are zero.
 */
class MrcLinkMonitor : public Object
{
public:
    /** @return the TypeId */
    static TypeId GetTypeId();
    MrcLinkMonitor();
    ~MrcLinkMonitor() override;

    /**
     * Add a group of ports (packet level).
     * @param plane the plane
     * @param tier the tier
     * @param ports the transmitting ports
     */
    void AddGroup(uint32_t plane, MrcLinkTier tier, std::vector<Ptr<MrcNetDevice>> ports);
    /**
     * Sample a flow-level fabric's tiers instead of ports.
     * @param net the fabric (its tier accounting is enabled here)
     */
    void SetFluid(Ptr<MrcFluidNetwork> net);
    /**
     * Start sampling (the first sample is one bin from now).
     * @param bin the sampling period
     * @param linkRate every link's rate, bit/s
     */
    void Start(Time bin, double linkRate);
    /** Stop sampling. */
    void Stop();

    /**
     * TracedCallback signature of LinkSample.
     * @param timeUs the end of the bin, microseconds
     * @param plane the plane
     * @param tier the tier (its name: MrcLinkTierNames())
     * @param util utilisation in the bin, in [0, 1]
     * @param queueMean mean data backlog of the group's ports, bytes
     * @param queueMax largest data backlog, bytes
     */
    typedef void (*SampleTracedCallback)(double timeUs,
                                         uint32_t plane,
                                         MrcLinkTier tier,
                                         double util,
                                         double queueMean,
                                         uint32_t queueMax);

private:
    /** Take the activity counter off every port (they may outlive the monitor). */
    void StopCounting();
    void DoDispose() override;
    /** Take one sample and schedule the next. */
    void Sample();

    /** A group of ports and what it sent so far. */
    struct Group
    {
        uint32_t plane;                       //!< plane
        MrcLinkTier tier;                     //!< tier
        std::vector<Ptr<MrcNetDevice>> ports; //!< transmitting ports
        std::vector<uint64_t> lastBytes;      //!< tx bytes at the last sample
        uint64_t bytes = 0;                   //!< bytes sent in the bin being sampled
        double qsum = 0;                      //!< sum of the data backlogs now
        uint32_t qmax = 0;                    //!< largest data backlog now
    };

    std::vector<Group> m_groups;     //!< sampled port groups
    Ptr<MrcFluidNetwork> m_fluid;    //!< the flow-level fabric sampled, or null
    std::vector<double> m_fluidLast; //!< its tier bytes at the last sample
    double m_rate;                   //!< link rate, bit/s
    Time m_bin;                      //!< sampling bin
    EventId m_sampleEvent;           //!< next sample
    bool m_sampling;                 //!< sampling active
    bool m_lastIdle;                 //!< the last bin was idle
    uint64_t m_activity;             //!< frames offered to and started on the groups' ports
    uint64_t m_activityAtSample;     //!< m_activity at the last sample that read the ports
    bool m_countsActivity;           //!< every port counts into m_activity (none was taken)
    TracedCallback<double, uint32_t, MrcLinkTier, double, double, uint32_t>
        m_sampleTrace; //!< LinkSample
};

} // namespace ns3

#endif /* MRC_LINK_MONITOR_H */
