/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_CLOS_HELPER_H
#define MRC_CLOS_HELPER_H

#include "ns3/mrc-clos-topology.h"

#include "ns3/data-rate.h"
#include "ns3/node-container.h"
#include "ns3/nstime.h"
#include "ns3/object-factory.h"
#include "ns3/object.h"

#include <string>
#include <utility>
#include <vector>

namespace ns3
{

/**
 * @ingroup mrc
 * @brief Builds a multi-plane Clos fabric: two tiers of SRv6 uSID switches (MRC), or two or
 * three tiers of destination-routed ECMP switches (the conventional baseline).
 *
 * Routing = "ecmp" builds the routed baseline: every switch forwards by destination host over
 * equal-cost next hops, hashing source, destination and flow label, with routes computed and
 * updated by an MrcEcmpControlPlane (BFD-like detection, BGP-like reconvergence; its
 * attributes are set with SetControlPlaneAttribute or Config defaults). With Tiers = 3,
 * T0sPerPlane and T1sPerPlane count T0s and T1s per pod, Pods pods share T2sPerPlane T2 (core)
 * switches, and every T1 has one uplink to every T2.
 *
 * Build() returns the MrcClosTopology that describes what was built (positions, addresses,
 * paths; the transport's MrcPathProvider); the helper itself runs nothing during the
 * simulation. Host-facing switch ports are marked LastHop, with ECN marking off (MRC's rule:
 * ECN means mid-fabric congestion; last-hop congestion shows up as trimming).
 */
class MrcClosHelper : public Object
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

    /**
     * Build the fabric (aborts with Validate()'s message if the attributes are invalid).
     * @return what was built
     */
    Ptr<MrcClosTopology> Build();
    /**
     * @return the shape Build() would give the fabric, from the attributes as they are now
     * (MrcClosTopology::GetBaseRtt computes its paths' round trips without building it)
     */
    MrcClosShape GetShape() const;

    /**
     * Configure the conventional routed fabric the RoCE-style baseline runs on: Routing=ecmp,
     * TrimEnabled=false, LastHopEcn=true (DCQCN needs last-hop marks), Pfc=true (a lossless
     * data class, as deployed RoCE fabrics run). Call before Build(); set Pfc=false after it
     * for the lossy variant.
     */
    void SetRoutedBaseline();

    /**
     * Set an attribute of every switch (MrcSwitchNetDevice: Latency, EcmpHashing,
     * PfcXoffBytes, PfcXonBytes, ...); attributes not set here keep their defaults
     * (Config::SetDefault and --ns3::MrcSwitchNetDevice::X=... apply). The helper itself sets
     * only what the fabric decides: each switch's uSID and locator block, ECMP mode (Routing)
     * and PfcEnabled (Pfc).
     * @param name attribute name
     * @param value its value
     */
    void SetSwitchAttribute(const std::string& name, const AttributeValue& value);

    /**
     * The component attributes the helper sets itself on every object it builds, so that a
     * default given for them would do nothing under it (MrcCommandLine refuses them, naming
     * the helper attribute to use instead).
     * @return pairs (component attribute, "use --<helper attribute>" or how the helper sets it)
     */
    static const std::vector<std::pair<std::string, std::string>>& GetAttributesItSets();

    /**
     * Set an attribute of the MrcEcmpControlPlane a Routing=ecmp fabric gets (DetectionDelay,
     * ReconvergenceDelay); attributes not set here keep their defaults (Config::SetDefault and
     * --ns3::MrcEcmpControlPlane::X=... apply).
     * @param name attribute name
     * @param value its value
     */
    void SetControlPlaneAttribute(const std::string& name, const AttributeValue& value);

    /** @return the fabric Build() made (null before) */
    Ptr<MrcClosTopology> GetTopology() const;

    /**
     * Write one pcap file per host NIC port (DLT_RAW: raw IPv6), named prefix-HOST-PLANE.pcap.
     * @param prefix file name prefix
     */
    void EnablePcapHosts(const std::string& prefix);

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
    Ptr<MrcTrimmingQueue> MakeQueue(bool host, bool lastHop);
    /**
     * Make a port: the first with CreateObject, the others as copies of it as it was made
     * (CopyObject, with a MAC address of their own in the order CreateObject would have
     * given). On the paper's fabric ns-3's attribute construction of 4 million ports and
     * queues was a third of the time to build it.
     * @return the port
     */
    Ptr<MrcNetDevice> MakePort();

    /**
     * Describe a cable to the ECMP control plane (a fabric with Routing ecmp; nothing for srv6).
     * @param topo the fabric being built
     * @param plane plane
     * @param aSw switch index in the plane list (T0s, then T1s, then T2s)
     * @param aPort its port
     * @param bSw other switch or -1 for a host
     * @param bPort its port
     * @param ch the cable
     */
    static void AddCable(MrcClosTopology& topo,
                         uint32_t plane,
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
    DataRate m_uplinkRate; //!< UplinkRate
    Time m_linkDelay;      //!< every link's delay
    Time m_nicTxLatency;   //!< host ports' TxLatency
    Time m_nicRxLatency;   //!< host ports' RxLatency
    uint32_t m_hostQueue;  //!< host NIC queue, bytes
    Ipv6Address m_block;   //!< locator block
    uint32_t m_blockBits;  //!< locator block length
    bool m_lastHopEcn;     //!< mark ECN on host-facing ports
    bool m_pfc;            //!< Pfc attribute
    Time m_pfcWatchdog;    //!< PfcWatchdog attribute
    std::string m_routing; //!< "srv6" or "ecmp"
    uint32_t m_tiers;      //!< 2 or 3
    uint32_t m_pods;       //!< pods (3 tiers)
    uint32_t m_nT2;        //!< T2s per plane (3 tiers)

    ObjectFactory m_queueFactory;          //!< switch port queues
    ObjectFactory m_switchFactory;         //!< switches
    ObjectFactory m_controlPlaneFactory;   //!< ECMP control plane
    Ptr<MrcClosTopology> m_topo;           //!< what Build() made
    Ptr<MrcNetDevice> m_portProto;         //!< a port as made, while Build() runs
    Ptr<MrcTrimmingQueue> m_queueProto[3]; //!< queues as made (MakeQueue), while Build() runs
};

} // namespace ns3

#endif /* MRC_CLOS_HELPER_H */
