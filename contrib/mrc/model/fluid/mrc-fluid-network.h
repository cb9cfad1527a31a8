/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_FLUID_NETWORK_H
#define MRC_FLUID_NETWORK_H

#include "ns3/mrc-channel.h"
#include "ns3/mrc-fault-targets.h"

#include "ns3/callback.h"
#include "ns3/data-rate.h"
#include "ns3/event-id.h"
#include "ns3/nstime.h"
#include "ns3/object.h"

#include <string>
#include <unordered_map>
#include <vector>

namespace ns3
{

/**
 * @ingroup mrc
 * @brief The flow-level (fluid) model of a multi-plane two-tier Clos fabric: max-min fair rates
 * over the same links, paths and faults as the packet-level fabric (MrcClosTopology), with events
 * only when the set of flows or the fabric changes.
 *
 * **Topology.** Planes x (T0sPerPlane T0s of HostsPerT0 hosts, T1sPerPlane T1s), every T0
 * linked to every T1 of its plane, one NIC port per host and plane, every link at LinkRate:
 * MrcClosTopology's two-tier fabric and its target names, so MrcFaultHelper drives both. Every
 * cable is an MrcChannel without devices; the network observes its state.
 *
 * **Flow groups.** The unit of the model is a *group*: edges (source host, destination host)
 * that progress at one common rate, each carrying the same bytes. A single transfer is a group
 * of one edge; a ring collective is one group of all its edges (a ring runs at the pace of its
 * slowest edge, since every round waits for the previous one). A group ends when its bytes are
 * through, plus its latency (the per-round latencies of a ring).
 *
 * **Rates.** Max-min fair shares by progressive filling over the directed links, with every
 * edge's traffic split over its paths the way the scheme sends it:
 * - Scheme "mrc": an edge's traffic is split evenly over the planes that have a working path
 *   (a retired EV is replaced in its own plane, so planes stay even) and, within a plane,
 *   evenly over the T1s in service: adaptive spray moves EVs off paths that ECN marks, so the
 *   load stays even. A T0's uplinks of a plane are therefore one pooled constraint of
 *   (uplinks not retired) x capacity, and so are the T1s' downlinks into a T0.
 * - Scheme "baseline": one path per connection, a T1 picked by a hash of the connection (ECMP).
 * The incidence of groups on links is an Eigen sparse matrix (rows: groups, columns: the links
 * they use); each filling round is two sparse matrix-vector products. Capacities are in
 * payload bytes per second: LinkRate x PayloadSize / (PayloadSize + headers).
 *
 * **Faults.** A cable that goes down takes both directions.
 * - mrc: paths that cross it keep their share for BypassTime (the packets sent on them are
 *   lost: the group's goodput drops by that share and it cannot end before the bypass is over,
 *   when the lost packets have been resent), then they leave service and the others take their
 *   traffic. Once the cable is back, its paths return after ProbeTime.
 * - baseline: an edge whose path crosses a dead cable stalls its group. The source T0 moves the
 *   flow to another T1 DetectionDelay after its own uplink died; a dead T1-to-destination cable
 *   is routed around only after DetectionDelay + ReconvergenceDelay. When the path works again
 *   the flow resumes at once (go-back-N on the next NAK) unless it had sent all its remaining
 *   bytes into the outage (a tail loss: no later packet draws a NAK), in which case it resumes
 *   at the next expiry of its AckTimeout; a group whose stall outlasts RetryLimit + 1 timeouts
 *   fails, as the queue pair would.
 *
 * BypassTime and ProbeTime are measured at packet level (mrc-link-flap's bypass-us; the queue
 * pair's ProbeInterval x ProbeSuccesses), not guessed; see doc/mrc-fluid.rst.
 */
class MrcFluidNetwork
    : public Object
    , public MrcFaultTargets
    , public MrcLinkStateObserver
{
public:
    /** A directed host-to-host edge of a group. */
    struct Edge
    {
        uint32_t src; //!< source host
        uint32_t dst; //!< destination host
    };

    /**
     * Called when a group ends.
     * @param group the group
     * @param ok false when it failed (baseline: retries exhausted)
     */
    typedef Callback<void, uint32_t, bool> DoneCallback;

    /** @return the TypeId */
    static TypeId GetTypeId();
    MrcFluidNetwork();
    ~MrcFluidNetwork() override;

    /**
     * Check the attributes.
     * @return an empty string if they describe a buildable fabric, else a one-line message
     * naming the attribute and the accepted values
     */
    std::string Validate() const;
    /** Build the fabric (aborts with Validate()'s message if the attributes are invalid). */
    void Build();

    /**
     * Start a group now.
     * @param edges its edges (hosts < GetNHosts(), src != dst)
     * @param bytesPerEdge payload bytes every edge carries (> 0)
     * @param latency added after the last byte (per-round latencies)
     * @param done called when the group ends
     * @param roundBytes rounds (a ring): bytes per edge and round (0: no rounds)
     * @param roundLatency rounds: the latency each round adds after its bytes, so that the
     * group progresses at rate x S / (S + rate x L) on average: a latency-bound ring keeps
     * running (and exposed to faults) for its whole duration
     * @return the group's id
     */
    uint32_t AddGroup(const std::vector<Edge>& edges,
                      double bytesPerEdge,
                      Time latency,
                      DoneCallback done,
                      double roundBytes = 0,
                      Time roundLatency = Time(0));
    /**
     * @param group a group
     * @return its current rate per edge, payload bytes per second (0 once ended)
     */
    double GetRate(uint32_t group) const;
    /**
     * Keep, per plane and tier, the bytes the links carried (for MrcRecorder's links.csv): after
     * this, every rate computation also sums the groups' rates per tier. Tiers are numbered as
     * MrcLinkTier's first four values: 0 host-t0, 1 t0-host, 2 t0-t1, 3 t1-t0.
     */
    void EnableTierAccounting();
    /**
     * @return per (plane x 4 + tier), the wire bytes (headers included) its links have carried
     * so far (empty unless EnableTierAccounting)
     */
    std::vector<double> GetTierBytes() const;
    /**
     * @param tier 0 host-t0, 1 t0-host, 2 t0-t1, 3 t1-t0 (MrcLinkTier's numbers)
     * @return links of that tier in one plane
     */
    uint32_t GetTierLinks(uint32_t tier) const;
    /** @return groups still transferring */
    uint32_t GetNActiveGroups() const;
    /** @return rate computations so far */
    uint64_t GetRecomputations() const;
    /** @return payload bytes per second of one link */
    double GetLinkCapacity() const;
    /**
     * @param src a host
     * @param dst another host
     * @return what a transfer between them takes beyond its bytes at its rate: every link's
     * delay, and per switch the store-and-forward of the last frame and the forwarding latency
     */
    Time GetOneWayLatency(uint32_t src, uint32_t dst) const;
    /** @return true for the baseline scheme */
    bool IsBaseline() const;
    /**
     * @param h host
     * @return its T0 (in every plane)
     */
    uint32_t GetT0Of(uint32_t h) const;

    /**
     * The model draws nothing at random (paths are hashed or spread evenly); for the helpers'
     * habit.
     * @param stream the first stream
     * @return streams used (0)
     */
    int64_t AssignStreams(int64_t stream);

    // MrcFaultTargets
    uint32_t GetNHosts() const override;
    uint32_t GetNPlanes() const override;
    uint32_t GetNT0() const override;
    uint32_t GetNT1() const override;
    uint32_t GetNT2() const override;
    uint32_t GetHostsPerT0() const override;
    uint32_t GetNUplinks(uint32_t plane, uint32_t t0) const override;
    Ptr<MrcChannel> GetHostLink(uint32_t h, uint32_t plane) const override;
    Ptr<MrcChannel> GetUplink(uint32_t plane, uint32_t i, uint32_t j) const override;
    Ptr<MrcChannel> GetSpineLink(uint32_t plane, uint32_t t1, uint32_t k) const override;
    std::vector<Ptr<MrcChannel>> GetSwitchLinks(uint32_t plane,
                                                uint32_t tier,
                                                uint32_t i) const override;
    Ptr<MrcSwitchNetDevice> GetSwitchDevice(uint32_t plane,
                                            uint32_t tier,
                                            uint32_t i) const override;

    // MrcLinkStateObserver
    void NotifyLinkState(uint32_t id, bool up) override;

private:
    void DoDispose() override;

    /** A connection: the paths between two hosts (persist, like queue pairs). */
    struct Conn
    {
        uint32_t src; //!< source host
        uint32_t dst; //!< destination host
        uint32_t t1;  //!< baseline: the hashed T1
    };

    /** A flow group. */
    struct Group
    {
        std::vector<uint32_t> conns; //!< connection of every edge
        double remaining;            //!< bytes per edge still to deliver
        double bytes;                //!< bytes per edge in all
        double rate;                 //!< bytes per second per edge
        double good;                 //!< fraction of the rate that is not lost
        Time latency;                //!< added after the last byte
        double roundBytes;           //!< bytes per round (0: no rounds)
        double roundLatency;         //!< seconds each round adds
        Time notBefore;              //!< mrc: lost packets resent by then
        Time holdUntil;              //!< baseline: waits for its retransmission timeout
        bool blocked;                //!< baseline: a path is dead
        Time stallStart;             //!< when it stalled
        double stallRate;            //!< its progress rate then
        double stallRemaining;       //!< its remaining bytes then
        bool active;                 //!< still transferring
        DoneCallback done;           //!< told at the end
    };

    /**
     * @param src source host
     * @param dst destination host
     * @return the connection's index (created on first use)
     */
    uint32_t ConnOf(uint32_t src, uint32_t dst);
    /**
     * @param g a group
     * @return its progress in bytes per second per edge: the rate that gets through, slowed
     * by its rounds' latencies
     */
    static double Progress(const Group& g);
    /** Ask for a rate computation now (once per instant). */
    void Touch();
    /** Advance the groups to now, end the finished ones, recompute the rates. */
    void Update();
    /**
     * Add an edge's link shares to the accumulator.
     * @param c the connection
     * @param g the group (blocked, good are updated)
     * @param lostShare set to the edge's traffic share on lossy paths
     * @return false when the edge has no working path (the group stalls)
     */
    bool AddEdgeShares(Conn& c, Group& g, double& lostShare);
    /**
     * @param cable a cable
     * @return 0: up and in service; 1: down, within the bypass (traffic lost); 2: out of
     * service (down past the bypass, or back but still being probed)
     */
    uint8_t CableState(uint32_t cable) const;
    /**
     * Baseline: move a connection off a dead path once routing has reacted.
     * @param c the connection
     */
    void Reroute(Conn& c);
    /**
     * @param plane plane
     * @param h host
     * @return the cable of the host's NIC port on the plane
     */
    uint32_t HostCable(uint32_t plane, uint32_t h) const;
    /**
     * @param plane plane
     * @param t0 T0
     * @param t1 T1
     * @return the cable between them
     */
    uint32_t UpCable(uint32_t plane, uint32_t t0, uint32_t t1) const;
    /**
     * Add a share of an edge's traffic on a directed link.
     * @param link column key: directed link (2 x cable, + 1 for the direction towards the
     * host / T0), or a pooled constraint (after the links: 2 x (plane x T0s + T0), + 1 for
     * the downlinks into the T0)
     * @param share the share
     * @param capacity the constraint's capacity (used when the column is new)
     */
    void Accumulate(uint32_t link, double share, double capacity);
    /**
     * mrc: count a T0's uplinks of a plane out of service (and prune its list).
     * @param plane plane
     * @param t0 T0
     * @param retired set to uplinks out of service
     * @param lossy set to uplinks down within the bypass
     */
    void Uplinks(uint32_t plane, uint32_t t0, uint32_t& retired, uint32_t& lossy);
    /** Solve max-min fair rates for the active groups (m_rows built). */
    void Solve();
    /** Forget the columns of the last computation. */
    void ResetColumns();
    /**
     * End a group.
     * @param id the group
     * @param ok success
     */
    void Finish(uint32_t id, bool ok);
    /**
     * Baseline: fail a group still stalled after its retry budget.
     * @param id the group
     * @param since the stall it was scheduled for
     */
    void CheckStall(uint32_t id, Time since);

    // Attributes
    uint32_t m_planes;     //!< planes
    uint32_t m_hostsPerT0; //!< hosts per T0
    uint32_t m_nT0;        //!< T0s per plane
    uint32_t m_nT1;        //!< T1s per plane
    DataRate m_linkRate;   //!< link rate
    Time m_linkDelay;      //!< propagation delay
    Time m_switchLatency;  //!< forwarding latency
    uint32_t m_payload;    //!< payload bytes per packet
    std::string m_scheme;  //!< mrc or baseline
    Time m_bypass;         //!< mrc: failure to recovery
    Time m_probeTime;      //!< mrc: a returned path back in service
    Time m_detection;      //!< baseline: BFD-like
    Time m_reconvergence;  //!< baseline: BGP-like
    Time m_ackTimeout;     //!< baseline: local ACK timeout
    uint32_t m_retryLimit; //!< baseline: retries

    // Fabric
    bool m_built;                          //!< Build() done
    bool m_baseline;                       //!< scheme is baseline
    uint32_t m_cablesPerPlane;             //!< host cables + T0-T1 cables
    std::vector<Ptr<MrcChannel>> m_cables; //!< every cable
    std::vector<int64_t> m_downAt;         //!< per cable: when it went down (ns), -1 if up
    std::vector<int64_t> m_upAt;           //!< per cable: when it came back (ns)
    std::vector<uint8_t> m_wasRetired;     //!< per cable: its last outage outlasted the bypass
    std::vector<std::vector<uint16_t>> m_abnormal; //!< per (plane, T0): T1s of its cables that
                                                   //!< went down (pruned when back in service)
    double m_capacity;                             //!< payload bytes per second per link

    // Flows
    std::vector<Conn> m_conns;                       //!< connections
    std::unordered_map<uint64_t, uint32_t> m_connOf; //!< (src, dst) -> connection
    std::vector<Group> m_groups;                     //!< every group ever added
    std::vector<uint32_t> m_active;                  //!< ids of the active groups
    Time m_last;                                     //!< progress computed up to here
    EventId m_next;                                  //!< the next group end
    bool m_touched;                                  //!< an Update is scheduled for now
    uint64_t m_recomputations;                       //!< Update() calls that solved

    // Scratch of the solver (kept between calls)
    std::vector<int32_t> m_colOf;       //!< per directed link: its column, or -1
    std::vector<uint32_t> m_colLink;    //!< per column: its link
    std::vector<double> m_acc;          //!< per column: the current group's share
    std::vector<double> m_colCap;       //!< per column: its capacity
    std::vector<int32_t> m_touchedCols; //!< columns the current group touched
    std::vector<int32_t> m_outer;       //!< CSR row starts
    std::vector<int32_t> m_inner;       //!< CSR columns
    std::vector<double> m_values;       //!< CSR shares
    std::vector<uint32_t> m_rowGroup;   //!< per row: its group
    std::vector<double> m_tierRate;     //!< per (plane, tier): wire bytes per second now
    std::vector<double> m_tierBytes;    //!< per (plane, tier): wire bytes up to m_last
};

} // namespace ns3

#endif /* MRC_FLUID_NETWORK_H */
