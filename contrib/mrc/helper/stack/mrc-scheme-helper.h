/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_SCHEME_HELPER_H
#define MRC_SCHEME_HELPER_H

#include "ns3/mrc-clos-helper.h"
#include "ns3/mrc-clos-topology.h"
#include "ns3/mrc-fluid-network.h"
#include "ns3/mrc-stack-helper.h"

#include "ns3/data-rate.h"
#include "ns3/nstime.h"
#include "ns3/object.h"

#include <string>
#include <vector>

namespace ns3
{

/**
 * @ingroup mrc
 * @brief Builds one scheme's fabric and transport, with its matching defaults, from one
 * description: the hosts, the NIC's planes and their rate.
 *
 * The schemes compared in every experiment:
 * - `mrc`: MRC on `Planes` planes of `PlaneRate` links (SRv6 uSID switches with static
 *   tables, trimming, ECN off on the last hop; adaptive spray, NSCC, selective recovery);
 * - `roce`: RoCE as deployed on the fabric it runs on, one plane of Planes x PlaneRate links
 *   (a NIC of the same bandwidth): destination-based ECMP switches whose routes follow the
 *   control plane's deployed BFD-like and BGP-like delays, PFC, one path per queue pair,
 *   go-back-N, DCQCN, InfiniBand's 4.096 us x 2^20 local ACK timeout and 7 retries;
 * - `roce-multiplane`: the same RoCE on MRC's planes, one single-path queue pair per NIC port
 *   (a multi-rail NIC without multipath).
 *
 * Buffers follow the port speed: the routed fabric's switch queues get the MrcTrimmingQueue
 * DataLimit default (in force when Build is called) times its link rate over PlaneRate. Their
 * ECN marking is the RoCE class's as deployed: SONiC's lossless WRED profile of a 400G
 * Tomahawk-5 switch (Kmin 128 KiB, Kmax 256 KiB, Pmax 5 %), scaled with the port rate; DCQCN's
 * parameters are NVIDIA ConnectX's defaults (DcqcnProfile for others). Timers keep deployed values
 * on both sides. Build() makes the packet-level fabric and installs the stack; BuildFluid() the
 * same description at flow level (MrcFluidNetwork), with the same control-plane delays and RoCE
 * timers.
 *
 * @code
 * Ptr<MrcSchemeHelper> scheme = CreateObject<MrcSchemeHelper>();
 * scheme->SetAttribute("Scheme", StringValue("roce"));
 * scheme->SetAttribute("Hosts", UintegerValue(64));
 * Ptr<MrcClosTopology> fabric = scheme->Build();
 * int64_t stream = 1 + scheme->AssignStreams(1);   // before any queue pair is connected
 * auto [a, b] = scheme->GetStack().Connect(0, 9);
 * @endcode
 *
 * Anything else is set through the helpers it drives, before Build: SetFabricAttribute
 * (MrcClosHelper), SetQueueAttribute, SetSwitchAttribute, SetControlPlaneAttribute, and
 * GetStack() (path selector, congestion control, queue-pair attributes); those settings win
 * over the scheme's defaults. Each timer has one home, shared by both levels: the routed
 * fabric's detection and reconvergence delays are MrcEcmpControlPlane's attributes (deployed
 * defaults, or SetControlPlaneAttribute), RoCE's local ACK timeout and retry count the queue
 * pair's (MrcStackHelper::SetRoceBaseline); BuildFluid reads them from there.
 */
class MrcSchemeHelper : public Object
{
public:
    /** @return the TypeId */
    static TypeId GetTypeId();
    MrcSchemeHelper();
    ~MrcSchemeHelper() override;

    /** @return the scheme names: mrc, roce, roce-multiplane */
    static const std::vector<std::string>& GetSchemeNames();
    /**
     * @param name a scheme name
     * @return whether it is one of GetSchemeNames
     */
    static bool IsScheme(const std::string& name);

    /**
     * @return "" if the description can be built, else a one-line message naming the
     *         attribute and the accepted values
     */
    std::string Validate() const;
    /**
     * @return "" if the description can be built at flow level (BuildFluid), else a one-line
     *         message
     */
    std::string ValidateFluid() const;

    /**
     * Set an attribute of the MrcClosHelper that builds the fabric (wins over the scheme's).
     * @param name attribute
     * @param value value
     */
    void SetFabricAttribute(const std::string& name, const AttributeValue& value);
    /**
     * Set an attribute of every switch port queue (wins over the scheme's scaled defaults).
     * @param name attribute
     * @param value value
     */
    void SetQueueAttribute(const std::string& name, const AttributeValue& value);
    /**
     * Set an attribute of every switch.
     * @param name attribute
     * @param value value
     */
    void SetSwitchAttribute(const std::string& name, const AttributeValue& value);
    /**
     * Set an attribute of the routed fabric's control plane (roce schemes).
     * @param name attribute
     * @param value value
     */
    void SetControlPlaneAttribute(const std::string& name, const AttributeValue& value);
    /**
     * Set an attribute of the flow-level network BuildFluid makes (wins over the scheme's).
     * @param name attribute
     * @param value value
     */
    void SetFluidAttribute(const std::string& name, const AttributeValue& value);
    /** @return the stack helper (configure it before Build; the scheme's choices are set) */
    MrcStackHelper& GetStack();

    /**
     * Build the packet-level fabric and install the scheme's stack on every host.
     * @return the fabric (aborts with Validate's message on a bad description)
     */
    Ptr<MrcClosTopology> Build();
    /** @return the fabric Build made (null before) */
    Ptr<MrcClosTopology> GetFabric() const;
    /**
     * The unloaded round trip between two hosts on the scheme's packet-level fabric, built or
     * not (MrcClosTopology::GetBaseRtt on the shape it has or would have): what an ideal
     * completion time adds to a transfer's bytes at the NIC's rate, at packet and at flow
     * level alike.
     * @param packetBytes IPv6 packet size of a data packet
     * @param src a host
     * @param dst another host
     * @return the round trip
     */
    Time GetBaseRtt(uint32_t packetBytes, uint32_t src, uint32_t dst) const;
    /** @return the MrcClosHelper (after Build: for EnablePcapHosts) */
    Ptr<MrcClosHelper> GetClosHelper() const;
    /**
     * Assign the random streams of the fabric and the stack (call right after Build, before
     * any queue pair is connected).
     * @param stream first stream
     * @return streams used
     */
    int64_t AssignStreams(int64_t stream);
    /**
     * Assign the random streams of the host NIC ports' receive loss (MrcNetDevice RxLossRate,
     * the nic_rx_loss fault): a block of its own (hosts x planes streams), so that programs
     * that never inject receive loss keep their other streams where they were.
     * @param stream first stream (e.g. far from those counted up from AssignStreams')
     * @return streams used
     */
    int64_t AssignNicStreams(int64_t stream);

    /**
     * Build the same description at flow level (mrc or roce).
     * @return the network, built (aborts for roce-multiplane, which has no flow-level model)
     */
    Ptr<MrcFluidNetwork> BuildFluid();

    /** @return the scheme */
    std::string GetScheme() const;
    /** @name The RoCE class's ECN marking at 400G (scaled with the port rate) */
    /// @{
    /** @return Kmin at 400G: SONiC's Tomahawk-5 lossless WRED green_min, 131072 bytes */
    static uint32_t RoceEcnMinBytes();
    /** @return Kmax at 400G: green_max, 262144 bytes */
    static uint32_t RoceEcnMaxBytes();
    /** @return Pmax: green_drop_probability 5 % */
    static double RoceEcnMaxProbability();
    /// @}
    /** @return the mutants (Mutants attribute) that concern this scheme */
    std::vector<std::string> GetMutantsApplied() const;
    /** @return whether the scheme runs RoCE (roce, roce-multiplane) */
    bool IsRoce() const;
    /** @return the planes of the scheme's fabric (1 for roce) */
    uint32_t GetFabricPlanes() const;
    /** @return the link rate of the scheme's fabric (Planes x PlaneRate for roce) */
    DataRate GetFabricLinkRate() const;
    /** @return hosts per T0 on the scheme's fabric */
    uint32_t GetFabricHostsPerT0() const;
    /** @return T1s per plane on the scheme's fabric */
    uint32_t GetFabricT1s() const;

    /**
     * Choose the scheme (the Scheme attribute's setter): the stack is reset to the scheme's
     * choices, so configure GetStack() after it.
     * @param scheme mrc, roce or roce-multiplane
     */
    void SetScheme(const std::string& scheme);

private:
    void DoDispose() override;
    /** @return "" if Hosts and HostsPerT0 fit, else why not */
    std::string CheckShape() const;
    /** Apply the mutants that concern the scheme (last, so that they win). */
    void ApplyMutants();
    /** @return a fabric builder configured for the scheme, the settings applied */
    Ptr<MrcClosHelper> MakeClos() const;
    /** @return a flow-level network configured for the scheme (not built) */
    Ptr<MrcFluidNetwork> MakeFluid() const;

    std::string m_scheme;          //!< Scheme attribute
    uint32_t m_hosts;              //!< Hosts
    uint32_t m_planes;             //!< Planes
    DataRate m_planeRate;          //!< PlaneRate
    uint32_t m_hostsPerT0;         //!< HostsPerT0
    uint32_t m_t1;                 //!< T1sPerPlane
    uint32_t m_baselineHostsPerT0; //!< BaselineHostsPerT0 (0: HostsPerT0)
    uint32_t m_baselineT1;         //!< BaselineT1sPerPlane (0: T1sPerPlane)
    bool m_trim;                   //!< Trim
    bool m_pfc;                    //!< Pfc
    std::string m_mutants;         //!< Mutants
    std::string m_dcqcnProfile;    //!< DcqcnProfile

    /** Settings given through the Set*Attribute methods, applied after the scheme's. */
    struct Setting
    {
        std::string name;          //!< attribute
        Ptr<AttributeValue> value; //!< value
    };

    std::vector<Setting> m_fabricSettings;  //!< SetFabricAttribute
    std::vector<Setting> m_queueSettings;   //!< SetQueueAttribute
    std::vector<Setting> m_switchSettings;  //!< SetSwitchAttribute
    std::vector<Setting> m_controlSettings; //!< SetControlPlaneAttribute
    std::vector<Setting> m_fluidSettings;   //!< SetFluidAttribute
    MrcStackHelper m_stack;                 //!< the stack
    Ptr<MrcClosHelper> m_clos;              //!< the fabric's builder
    Ptr<MrcClosTopology> m_fabric;          //!< what Build made
};

} // namespace ns3

#endif /* MRC_SCHEME_HELPER_H */
