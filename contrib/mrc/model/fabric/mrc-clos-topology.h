/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_CLOS_TOPOLOGY_H
#define MRC_CLOS_TOPOLOGY_H

#include "ns3/mrc-channel.h"
#include "ns3/mrc-ecmp-control-plane.h"
#include "ns3/mrc-fault-targets.h"
#include "ns3/mrc-net-device.h"
#include "ns3/mrc-path-provider.h"
#include "ns3/mrc-switch-net-device.h"
#include "ns3/mrc-usid-carrier.h"

#include "ns3/data-rate.h"
#include "ns3/node-container.h"
#include "ns3/nstime.h"

#include <map>
#include <string>
#include <vector>

namespace ns3
{

class MrcClosHelper;

/**
 * @ingroup mrc
 * @brief One path between two hosts of a multi-plane Clos fabric.
 */
struct MrcPath
{
    uint32_t plane;         //!< the plane (= the NIC port used at both ends)
    int32_t t1;             //!< the T1 switch crossed, or -1 for a T0-local path
    MrcUsidCarrier carrier; //!< the destination address that steers the packet along it
};

/**
 * @ingroup mrc
 * @brief The shape of a multi-plane Clos fabric, as MrcClosTopology describes it.
 */
struct MrcClosShape
{
    uint32_t planes{1};                 //!< independent planes (= NIC ports per host)
    uint32_t hostsPerT0{4};             //!< host-facing ports per T0
    uint32_t t0sPerPod{2};              //!< T0s per pod (per plane with two tiers)
    uint32_t t1sPerPod{2};              //!< T1s per pod (per plane with two tiers)
    uint32_t tiers{2};                  //!< 2 or 3
    uint32_t pods{1};                   //!< pods (1 with two tiers)
    uint32_t t2s{0};                    //!< T2s per plane (0 with two tiers)
    bool ecmp{false};                   //!< destination-routed ECMP (else SRv6 uSID routing)
    Ipv6Address block;                  //!< SRv6 locator block
    uint32_t blockBits{32};             //!< its length in bits
    DataRate linkRate{"100Gbps"};       //!< the host links' rate (and every link's by default)
    DataRate uplinkRate{"0bps"};        //!< the switch-to-switch links' rate (0: linkRate)
    Time linkDelay{MicroSeconds(1)};    //!< every link's delay
    Time switchLatency{NanoSeconds(0)}; //!< switch forwarding latency
    uint32_t cutThroughBytes{0};        //!< switches' cut-through bytes (0: store and forward)
    Time nicTxLatency{0};               //!< host ports' TxLatency (a NIC's send pipeline)
    Time nicRxLatency{0};               //!< host ports' RxLatency (its receive pipeline)
};

/**
 * @ingroup mrc
 * @brief A built multi-plane Clos fabric: its nodes, ports, switches and cables by position,
 * its address plan, and the paths between its hosts.
 *
 * MrcClosHelper builds it and steps out; this object is what the run keeps. It is the
 * MrcPathProvider every host's transport asks for paths and addresses, and the
 * MrcFaultTargets the fault processes act on, as ns-3's global routing keeps its route
 * computation in GlobalRouteManagerImpl beside its helper.
 *
 * Planes are independent networks. In each plane, T0s (leaves) have HostsPerT0 host-facing
 * ports and one uplink to every T1 (spine) of their pod. Every host has one NIC port per
 * plane, port p cabled to plane p. Node order: hosts, then for each plane its T0s, T1s and
 * T2s. With three tiers, pods share the plane's T2 (core) switches and every T1 has one uplink
 * to every T2; T0 and T1 indices are global in the plane (pod-major).
 *
 * SRv6 fabric (MRC). uSIDs, per plane: T0 i = 0x1000 + i, T1 j = 0x2000 + j, host port k of a
 * T0 = 0x0100 + k (local to that T0). Port layout: T0 ports 0..HostsPerT0-1 face hosts, then
 * one per T1; T1 port i faces T0 i. Paths: `block:T0src:T1:T0dst:host::`, or
 * `block:T0:host::` between hosts under the same T0. A host port's own address is
 * `block:T0:host::<plane>`.
 *
 * ECMP fabric (the routed baseline): a host port's address is `fd00:0:0:<plane>::<host>`, every
 * path to a host has that address (the switches choose by hash), and GetControlPlane() is the
 * MrcEcmpControlPlane that computes the routes and reacts to cable changes.
 */
class MrcClosTopology
    : public MrcPathProvider
    , public MrcFaultTargets
{
public:
    /** @return the TypeId */
    static TypeId GetTypeId();
    MrcClosTopology();
    ~MrcClosTopology() override;

    /** @return the uSID of T0 i */
    static uint16_t T0Usid(uint32_t i);
    /** @return the uSID of T1 j */
    static uint16_t T1Usid(uint32_t j);
    /** @return the uSID of T2 k (three tiers) */
    static uint16_t T2Usid(uint32_t k);
    /** @return the uSID of a T0's host port k */
    static uint16_t HostUsid(uint32_t k);

    /** @return the fabric's shape */
    const MrcClosShape& GetShape() const;

    uint32_t GetNHosts() const override;
    uint32_t GetNPlanes() const override;
    MrcPathSet GetPathSet(uint32_t src, uint32_t dst, uint32_t plane) const override;
    Ipv6Address GetHostAddress(uint32_t h, uint32_t plane) const override;

    /**
     * @return the routed baseline's control plane (an ECMP fabric), or null: it computes the
     *         switches' ECMP routes and reacts to cable changes during the run
     */
    Ptr<MrcEcmpControlPlane> GetControlPlane() const;

    /**
     * Send one raw data packet (no transport state: a well-formed MRC header addressed to no
     * QP) from a host along a path, for tests, demos and benchmarks of the fabric alone.
     * @param src source host
     * @param path the path (its plane and carrier)
     * @param bytes IPv6 payload size
     * @param ecn ECN codepoint
     * @return the packet (its uid identifies it at the receiver)
     */
    Ptr<Packet> SendRawPacket(uint32_t src, const MrcPath& path, uint32_t bytes, uint8_t ecn) const;

    /**
     * @param packetBytes IPv6 packet size of a data packet
     * @return the unloaded round-trip time between hosts under different T0s (different pods
     * with three tiers): a data packet out over every link and switch, a control packet back
     */
    Time GetBaseRtt(uint32_t packetBytes) const;
    /**
     * @param packetBytes IPv6 packet size of a data packet
     * @param src a host
     * @param dst another host
     * @return the unloaded round-trip time between the two: a data packet out over the links
     * and switches of a path between them (one T0 when they share it), a control packet back
     */
    Time GetBaseRtt(uint32_t packetBytes, uint32_t src, uint32_t dst) const;
    /**
     * The same round trip for a fabric of the given shape, built or not (MrcClosHelper::
     * GetShape gives the shape a helper would build): the one definition of a path's base RTT
     * that the packet-level transport, the flow-level model's ideal and the programs' ideal
     * completion times share.
     * @param shape the fabric's shape
     * @param packetBytes IPv6 packet size of a data packet
     * @param src a host
     * @param dst another host
     * @return the unloaded round trip between the two, as the member function
     */
    static Time GetBaseRtt(const MrcClosShape& shape,
                           uint32_t packetBytes,
                           uint32_t src,
                           uint32_t dst);
    /** @return packets trimmed so far by every switch queue of the fabric */
    uint64_t GetTrimmedTotal() const;
    /**
     * Every packet the fabric has lost so far, by where and why. Keys are "<where>/<reason>":
     * where is nic (a host port's receive loss, MrcNetDevice::DropReasonName), nic-queue (a
     * host port's egress queue), switch (forwarding, MrcSwitchNetDevice::DropReasonName),
     * switch-queue (a switch port's egress queue, MrcTrimmingQueue::DropReasonName) or link
     * (RandomLoss: the channel's LossRate; InFlight: on the wire when the link went down).
     * Reasons with no drop are left out; trims are not drops (GetTrimmedTotal).
     * @return the counts
     */
    std::map<std::string, uint64_t> GetDropsByReason() const;
    /** @return a host's NIC rate: the link rate times the number of planes */
    uint64_t GetNicRate() const;
    /** @return the link rate */
    DataRate GetLinkRate() const;
    /** @return the rate of the switch-to-switch links (T0-T1, T1-T2) */
    DataRate GetUplinkRate() const;
    /** @return true when the fabric is the routed (ECMP) baseline */
    bool IsEcmp() const;
    /** @return number of tiers (2 or 3) */
    uint32_t GetNTiers() const;
    uint32_t GetNT2() const override;
    /**
     * @param plane plane
     * @param k T2 index
     * @return the T2 switch
     */
    Ptr<MrcSwitchNetDevice> GetT2(uint32_t plane, uint32_t k) const;
    Ptr<MrcChannel> GetSpineLink(uint32_t plane, uint32_t t1, uint32_t k) const override;
    /**
     * @param h host
     * @return its pod (0 with two tiers)
     */
    uint32_t GetPodOf(uint32_t h) const;
    uint32_t GetNT0() const override;
    uint32_t GetNT1() const override;
    uint32_t GetHostsPerT0() const override;
    /** @return the host nodes (a copy: use GetHost for one) */
    NodeContainer GetHosts() const;
    /**
     * @param h host index
     * @return its node (constant time, unlike GetHosts().Get(h), which copies the container)
     */
    Ptr<Node> GetHost(uint32_t h) const;
    /** @return every switch node */
    NodeContainer GetSwitches() const;
    /**
     * @param h host index
     * @param plane plane
     * @return the host's NIC port on that plane
     */
    Ptr<MrcNetDevice> GetHostPort(uint32_t h, uint32_t plane) const override;
    /**
     * @param plane plane
     * @param i T0 index
     * @return the T0 switch
     */
    Ptr<MrcSwitchNetDevice> GetT0(uint32_t plane, uint32_t i) const;
    /**
     * @param plane plane
     * @param j T1 index
     * @return the T1 switch
     */
    Ptr<MrcSwitchNetDevice> GetT1(uint32_t plane, uint32_t j) const;
    Ptr<MrcChannel> GetHostLink(uint32_t h, uint32_t plane) const override;
    Ptr<MrcChannel> GetUplink(uint32_t plane, uint32_t i, uint32_t j) const override;
    uint32_t GetNUplinks(uint32_t plane, uint32_t t0) const override;
    std::vector<Ptr<MrcChannel>> GetSwitchLinks(uint32_t plane,
                                                uint32_t tier,
                                                uint32_t i) const override;
    Ptr<MrcSwitchNetDevice> GetSwitchDevice(uint32_t plane,
                                            uint32_t tier,
                                            uint32_t i) const override;
    /**
     * @param h host
     * @return the T0 index the host hangs off (in every plane)
     */
    uint32_t GetT0Of(uint32_t h) const;

    /**
     * @param src source host
     * @param dst destination host
     * @return every path from src to dst, grouped by plane (on an ECMP fabric: one entry per
     * plane, addressed to the destination host, since the switches choose the path)
     */
    std::vector<MrcPath> GetPaths(uint32_t src, uint32_t dst) const;
    /**
     * @param src source host
     * @param dst destination host
     * @param t1 T1 index (ignored when both hosts share a T0)
     * @return the uSID carrier for that path (the same in every plane)
     */
    MrcUsidCarrier MakeCarrier(uint32_t src, uint32_t dst, uint32_t t1) const;
    /**
     * @param src source host
     * @param dst destination host
     * @param path a path from GetPaths(src, dst)
     * @return node ids of the switches the path crosses, in order (SRv6 fabrics: on an ECMP
     * fabric the switches choose, and only the first T0 is known)
     */
    std::vector<uint32_t> GetSwitchNodeIds(uint32_t src, uint32_t dst, const MrcPath& path) const;

    /**
     * Assign random streams to every queue's ECN marking and every cable's loss model (the NIC
     * ports' receive loss: AssignNicStreams).
     * @param stream first stream
     * @return streams used
     */
    int64_t AssignStreams(int64_t stream);
    /**
     * Assign random streams to every host NIC port's receive loss (MrcNetDevice RxLossRate),
     * host by host, plane by plane. Separate from AssignStreams so that the streams counted
     * after the fabric's (the stack's) stay where they were; MrcSchemeHelper::AssignStreams
     * calls it after the stack's.
     * @param stream first stream
     * @return streams used (hosts x planes)
     */
    int64_t AssignNicStreams(int64_t stream);

private:
    /**
     * @param shape the fabric's shape
     * @param packetBytes IPv6 packet size of a data packet
     * @param links links one way (2: under one T0, 4: across a T1, 6: across a T2)
     * @return the unloaded round trip over that many links: the data packet out, a control
     * packet back
     */
    static Time BaseRtt(const MrcClosShape& shape, uint32_t packetBytes, int64_t links);

    friend class MrcClosHelper; // the builder fills the tables below, once

    void DoDispose() override;

    MrcClosShape m_shape;                                    //!< the fabric's shape
    NodeContainer m_hosts;                                   //!< hosts
    NodeContainer m_switchNodes;                             //!< all switches
    std::vector<std::vector<Ptr<MrcNetDevice>>> m_hostPorts; //!< [host][plane]
    std::vector<std::vector<Ptr<MrcChannel>>> m_hostLinks;   //!< [host][plane]
    std::vector<std::vector<Ptr<MrcSwitchNetDevice>>> m_t0;  //!< [plane][i]
    std::vector<std::vector<Ptr<MrcSwitchNetDevice>>> m_t1;  //!< [plane][j]
    std::vector<std::vector<Ptr<MrcChannel>>> m_uplinks;     //!< [plane][i * t1sPerPod + j]
    std::vector<std::vector<Ptr<MrcSwitchNetDevice>>> m_t2;  //!< [plane][k]
    std::vector<std::vector<Ptr<MrcChannel>>> m_spines;      //!< [plane][t1 * t2s + k]
    Ptr<MrcEcmpControlPlane> m_ecmp;                         //!< routing (ecmp fabrics)
};

} // namespace ns3

#endif /* MRC_CLOS_TOPOLOGY_H */
