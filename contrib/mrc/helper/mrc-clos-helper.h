/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_CLOS_HELPER_H
#define MRC_CLOS_HELPER_H

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
#include "ns3/object-factory.h"
#include "ns3/object.h"

#include <string>
#include <vector>

namespace ns3
{

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
 * @brief Builds a multi-plane Clos fabric: two tiers of SRv6 uSID switches (MRC), or two or
 * three tiers of destination-routed ECMP switches (the conventional baseline).
 *
 * Routing = "ecmp" builds the routed baseline: every switch forwards by destination host
 * (the low 32 bits of `fd00:0:0:<plane>::<host>`) over equal-cost next hops, hashing source,
 * destination and flow label. On a link state change the two adjacent switches stop (or
 * resume) hashing onto it after DetectionDelay (BFD); every switch's routes are recomputed
 * after a further ReconvergenceDelay (BGP). With Tiers = 3, T0sPerPlane and T1sPerPlane count
 * T0s and T1s per pod, Pods pods share T2sPerPlane T2 (core) switches, and every T1 has one
 * uplink to every T2.
 *
 * Planes are independent networks. In each plane, T0s (leaves) have HostsPerT0 host-facing
 * ports and one uplink to every T1 (spine). Every host has one NIC port per plane, port p cabled
 * to plane p. Node order: hosts, then for each plane its T0s then its T1s.
 *
 * uSIDs, per plane: T0 i = 0x1000 + i, T1 j = 0x2000 + j, host port k of a T0 = 0x0100 + k
 * (local to that T0). Port layout: T0 ports 0..HostsPerT0-1 face hosts, then one per T1;
 * T1 port i faces T0 i. Paths: `block:T0src:T1:T0dst:host::`, or `block:T0:host::` between
 * hosts under the same T0. A host port's own address is `block:T0:host::<plane>`.
 *
 * Host-facing switch ports are marked LastHop, with ECN marking off (MRC's rule: ECN means
 * mid-fabric congestion; last-hop congestion shows up as trimming).
 */
class MrcClosHelper
    : public MrcPathProvider
    , public MrcFaultTargets
{
public:
    /** @return the TypeId */
    static TypeId GetTypeId();
    MrcClosHelper();
    ~MrcClosHelper() override;

    /**
     * Check the attributes.
     * @return an empty string if they describe a buildable fabric, else a one-line message
     * naming the offending attribute and the accepted values
     */
    std::string Validate() const;

    /**
     * Set an attribute of the MrcTrimmingQueue of every switch port (ns-3's
     * PointToPointHelper::SetQueue habit). Attributes not set here keep their defaults, so
     * Config::SetDefault and --ns3::MrcTrimmingQueue::X=... apply. The helper itself sets only
     * what depends on the port: LastHop on host-facing ports, EcnEnabled = false there unless
     * LastHopEcn, DataLimit unbounded under Pfc, and the host NIC queues (HostQueueBytes, no
     * trimming, no ECN).
     * @param name attribute name (DataLimit, ControlLimit, TrimEnabled, TrimSize, EcnEnabled,
     * EcnMinBytes, EcnMaxBytes, EcnMaxProbability)
     * @param value its value
     */
    void SetQueueAttribute(const std::string& name, const AttributeValue& value);

    /** Build the fabric (aborts with Validate()'s message if the attributes are invalid). */
    void Build();

    /**
     * Configure the conventional routed fabric the RoCE-style baseline runs on: Routing=ecmp,
     * TrimEnabled=false, LastHopEcn=true (DCQCN needs last-hop marks), Pfc=true (a lossless
     * data class, as deployed RoCE fabrics run). Call before Build(); set Pfc=false after it
     * for the lossy variant.
     */
    void SetRoutedBaseline();

    /**
     * Send one raw data packet (no transport header) from a host along a path, for tests,
     * demos and benchmarks of the fabric alone.
     * @param src source host
     * @param path the path (its plane and carrier)
     * @param bytes IPv6 payload size
     * @param ecn ECN codepoint
     * @return the packet (its uid identifies it at the receiver)
     */
    Ptr<Packet> SendRawPacket(uint32_t src, const MrcPath& path, uint32_t bytes, uint8_t ecn) const;

    /** @return the uSID of T0 i */
    static uint16_t T0Usid(uint32_t i);
    /** @return the uSID of T1 j */
    static uint16_t T1Usid(uint32_t j);
    /** @return the uSID of a T0's host port k */
    static uint16_t HostUsid(uint32_t k);

    uint32_t GetNHosts() const override;
    uint32_t GetNPlanes() const override;
    MrcPathSet GetPathSet(uint32_t src, uint32_t dst, uint32_t plane) const override;
    Ipv6Address GetHostAddress(uint32_t h, uint32_t plane) const override;

    /**
     * @return the routed baseline's control plane (Routing ecmp, after Build), or null: it
     *         computes the switches' ECMP routes and reacts to cable changes during the run
     */
    Ptr<MrcEcmpControlPlane> GetControlPlane() const;

    /**
     * @param packetBytes IPv6 packet size of a data packet
     * @return the unloaded round-trip time between hosts under different T0s (data packet out
     * over four links and three switches, a control packet back)
     */
    Time GetBaseRtt(uint32_t packetBytes) const;
    /** @return packets trimmed so far by every switch queue of the fabric */
    uint64_t GetTrimmedTotal() const;
    /** @return a host's NIC rate: the link rate times the number of planes */
    uint64_t GetNicRate() const;
    /** @return the link rate */
    DataRate GetLinkRate() const;
    /** @return true when the fabric is the routed (ECMP) baseline */
    bool IsEcmp() const;
    /** @return number of tiers (2 or 3) */
    uint32_t GetNTiers() const;
    /** @return T2 switches per plane (3 tiers) */
    uint32_t GetNT2() const override;
    /**
     * @param plane plane
     * @param k T2 index
     * @return the T2 switch
     */
    Ptr<MrcSwitchNetDevice> GetT2(uint32_t plane, uint32_t k) const;
    /**
     * @param plane plane
     * @param t1 T1 index (global in the plane)
     * @param k T2 index
     * @return the cable between them (3 tiers)
     */
    Ptr<MrcChannel> GetSpineLink(uint32_t plane, uint32_t t1, uint32_t k) const override;
    /**
     * @param h host
     * @return its pod (0 with two tiers)
     */
    uint32_t GetPodOf(uint32_t h) const;
    /** @return T0s per plane (all pods) */
    uint32_t GetNT0() const override;
    /** @return T1s per plane (all pods) */
    uint32_t GetNT1() const override;
    /** @return hosts per T0 */
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
    Ptr<MrcNetDevice> GetHostPort(uint32_t h, uint32_t plane) const;
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
    /**
     * @param h host
     * @param plane plane
     * @return the cable between the host and its T0 on that plane
     */
    Ptr<MrcChannel> GetHostLink(uint32_t h, uint32_t plane) const override;
    /**
     * @param plane plane
     * @param i T0 index
     * @param j T1 index within the T0's pod
     * @return the cable between T0 i and T1 j on that plane
     */
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
     * @param plane plane
     * @param t1 T1 index (ignored when both hosts share a T0)
     * @return the uSID carrier for that path
     */
    MrcUsidCarrier MakeCarrier(uint32_t src, uint32_t dst, uint32_t plane, uint32_t t1) const;
    /**
     * @param src source host
     * @param dst destination host
     * @param path a path from GetPaths(src, dst)
     * @return node ids of the switches the path crosses, in order (SRv6 fabrics: on an ECMP
     * fabric the switches choose, and only the first T0 is known)
     */
    std::vector<uint32_t> GetSwitchNodeIds(uint32_t src, uint32_t dst, const MrcPath& path) const;

    /**
     * Write one pcap file per host NIC port (DLT_RAW: raw IPv6), named prefix-HOST-PLANE.pcap.
     * @param prefix file name prefix
     */
    void EnablePcapHosts(const std::string& prefix);

    /**
     * Assign random streams to every queue's ECN marking.
     * @param stream first stream
     * @return streams used
     */
    int64_t AssignStreams(int64_t stream);

private:
    void DoDispose() override;
    /**
     * Create a cable between two new ports.
     * @param a node at one end
     * @param b node at the other end
     * @param aLastHop whether a's queue feeds a host (LastHop, no ECN)
     * @param aHost a is a host NIC
     * @param bHost b is a host NIC
     * @param pa set to a's port
     * @param pb set to b's port
     * @return the cable
     */
    Ptr<MrcChannel> Connect(Ptr<Node> a,
                            Ptr<Node> b,
                            bool aLastHop,
                            bool aHost,
                            bool bHost,
                            Ptr<MrcNetDevice>& pa,
                            Ptr<MrcNetDevice>& pb);
    /**
     * Make a port's queue.
     * @param host host NIC queue (no trimming, no ECN)
     * @param lastHop host-facing switch port
     * @return the queue
     */
    Ptr<MrcTrimmingQueue> MakeQueue(bool host, bool lastHop) const;

    /**
     * Describe a cable to the ECMP control plane (a fabric with Routing ecmp; nothing for srv6).
     * @param plane plane
     * @param aSw switch index in the plane list (T0s, then T1s, then T2s)
     * @param aPort its port
     * @param bSw other switch or -1 for a host
     * @param bPort its port
     * @param ch the cable
     */
    void AddCable(uint32_t plane,
                  uint32_t aSw,
                  uint16_t aPort,
                  int32_t bSw,
                  uint16_t bPort,
                  Ptr<MrcChannel> ch);
    // attributes
    uint32_t m_planes;     //!< planes
    uint32_t m_hostsPerT0; //!< hosts per T0
    uint32_t m_nT0;        //!< T0s per plane
    uint32_t m_nT1;        //!< T1s per plane
    uint32_t m_radix;      //!< switch radix, 0 = unlimited
    DataRate m_linkRate;   //!< every link's rate
    Time m_linkDelay;      //!< every link's delay
    Time m_switchLatency;  //!< switch forwarding latency
    uint32_t m_hostQueue;  //!< host NIC queue, bytes
    Ipv6Address m_block;   //!< locator block
    uint32_t m_blockBits;  //!< locator block length
    bool m_lastHopEcn;     //!< mark ECN on host-facing ports
    bool m_pfc;            //!< Pfc attribute
    uint32_t m_pfcXoff;    //!< PfcXoffBytes attribute
    Time m_pfcWatchdog;    //!< PfcWatchdog attribute
    std::string m_hashing; //!< EcmpHashing attribute
    std::string m_routing; //!< "srv6" or "ecmp"
    uint32_t m_tiers;      //!< 2 or 3
    uint32_t m_pods;       //!< pods (3 tiers)
    uint32_t m_nT2;        //!< T2s per plane (3 tiers)
    Time m_detection;      //!< ECMP: local failure detection delay
    Time m_reconvergence;  //!< ECMP: further delay before remote switches reroute

    ObjectFactory m_queueFactory;                            //!< switch port queues
    bool m_built;                                            //!< Build() done
    NodeContainer m_hosts;                                   //!< hosts
    NodeContainer m_switchNodes;                             //!< all switches
    std::vector<std::vector<Ptr<MrcNetDevice>>> m_hostPorts; //!< [host][plane]
    std::vector<std::vector<Ptr<MrcChannel>>> m_hostLinks;   //!< [host][plane]
    std::vector<std::vector<Ptr<MrcSwitchNetDevice>>> m_t0;  //!< [plane][i]
    std::vector<std::vector<Ptr<MrcSwitchNetDevice>>> m_t1;  //!< [plane][j]
    std::vector<std::vector<Ptr<MrcChannel>>> m_uplinks;     //!< [plane][i * nT1 + j]
    std::vector<std::vector<Ptr<MrcSwitchNetDevice>>> m_t2;  //!< [plane][k]
    std::vector<std::vector<Ptr<MrcChannel>>> m_spines;      //!< [plane][t1 * nT2 + k]
    Ptr<MrcEcmpControlPlane> m_ecmp;                         //!< routing (ecmp fabrics)
};

} // namespace ns3

#endif /* MRC_CLOS_HELPER_H */
