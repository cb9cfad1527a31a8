/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_ECMP_CONTROL_PLANE_H
#define MRC_ECMP_CONTROL_PLANE_H

#include "ns3/mrc-channel.h"
#include "ns3/mrc-switch-net-device.h"

#include "ns3/nstime.h"
#include "ns3/object.h"

#include <vector>

namespace ns3
{

/**
 * @ingroup mrc
 * @brief The routed baseline's control plane: shortest-path ECMP routes for every switch of a
 * destination-routed fabric, and what happens when a cable fails or returns.
 *
 * The route computation (a breadth-first search per destination T0 over the links routing
 * believes up) plays the part of ns-3's GlobalRouteManagerImpl; the reaction to a link change
 * is a model of its delays, not of BFD or BGP themselves:
 * - a change is detected (BFD-like) once the cable has kept its new state for DetectionDelay:
 *   BFD declares a session down after its detection time without a hello (3 x 50 ms), so an
 *   outage shorter than that goes unnoticed, and a cable that fails again within
 *   DetectionDelay of its return is never seen back up. On detection, the two switches next
 *   to the cable stop (or resume) using that port; their other ECMP members take its flows
 *   (MrcSwitchNetDevice::SetPortUsable);
 * - a further ReconvergenceDelay (BGP-like) after a detection, every switch of the plane gets
 *   routes recomputed from the new view (MrcSwitchNetDevice::SetEcmpRoutes), so that a T1
 *   that lost its link to a destination T0 is no longer used by the others for that T0.
 *
 * MrcClosHelper builds it for a fabric with Routing ecmp and describes the fabric to it
 * (AddSwitch, AddLink); Start computes the routes and watches the cables.
 */
class MrcEcmpControlPlane : public Object
{
public:
    /** @return the TypeId */
    static TypeId GetTypeId();
    MrcEcmpControlPlane();
    ~MrcEcmpControlPlane() override;

    /**
     * @param hosts hosts in the fabric
     * @param hostsPerT0 hosts under each T0 (host h hangs off T0 h / hostsPerT0, port
     *        h % hostsPerT0)
     */
    void SetHosts(uint32_t hosts, uint32_t hostsPerT0);
    /**
     * Add a switch to a plane. A plane's switches are numbered in the order added: its T0s
     * first (T0 i is switch i), then the other tiers.
     * @param plane the plane
     * @param sw the switch
     * @param isT0 whether it is a T0
     */
    void AddSwitch(uint32_t plane, Ptr<MrcSwitchNetDevice> sw, bool isT0);
    /**
     * Add a cable.
     * @param plane the plane
     * @param aSw a switch (its number in the plane)
     * @param aPort its port on the cable
     * @param bSw the switch at the other end, or -1 for a host
     * @param bPort that switch's port
     * @param ch the cable
     */
    void AddLink(uint32_t plane,
                 uint32_t aSw,
                 uint16_t aPort,
                 int32_t bSw,
                 uint16_t bPort,
                 Ptr<MrcChannel> ch);
    /** Compute every plane's routes (every cable up) and start reacting to cable changes. */
    void Start();

    /** @return route computations so far (one per plane at Start, one per reconvergence) */
    uint64_t GetRecomputations() const;
    /** @return link state changes detected so far (each schedules a reconvergence) */
    uint64_t GetDetections() const;

private:
    void DoDispose() override;

    /** One switch-side end of a cable. */
    struct LinkEnd
    {
        uint32_t sw;   //!< switch number in its plane
        uint16_t port; //!< port on that switch
    };

    /** A cable with its ends. */
    struct Link
    {
        uint32_t plane;     //!< plane
        LinkEnd a;          //!< switch end
        int32_t bSw;        //!< other switch, or -1 for a host
        uint16_t bPort;     //!< port on the other switch
        Ptr<MrcChannel> ch; //!< the cable
        bool viewUp;        //!< routing's view of it
        bool detectedUp;    //!< the state detection (BFD) last declared
        uint32_t changes;   //!< state changes so far (a detection acts only on the latest)
    };

    /**
     * Recompute every switch's ECMP routes in a plane from the routing view.
     * @param plane plane
     */
    void RecomputeRoutes(uint32_t plane);
    /**
     * A cable changed state: check DetectionDelay later whether the new state lasted.
     * @param link index in m_links
     */
    void LinkChanged(uint32_t link);
    /**
     * Apply local detection of a link state, if the cable has not changed since (and schedule
     * the reconvergence).
     * @param link index in m_links
     * @param up state
     * @param change the link's change count when it took that state
     */
    void ApplyDetection(uint32_t link, bool up, uint32_t change);
    /**
     * Apply reconvergence of a link state.
     * @param link index in m_links
     * @param up state
     */
    void ApplyReconvergence(uint32_t link, bool up);

    Time m_detection;                                             //!< DetectionDelay attribute
    Time m_reconvergence;                                         //!< ReconvergenceDelay attribute
    uint32_t m_hosts;                                             //!< hosts
    uint32_t m_hostsPerT0;                                        //!< hosts per T0
    std::vector<std::vector<Ptr<MrcSwitchNetDevice>>> m_switches; //!< [plane][sw]
    std::vector<uint32_t> m_nT0;                                  //!< [plane] T0s
    std::vector<Link> m_links;                                    //!< every cable
    std::vector<std::vector<std::vector<uint32_t>>> m_adj;        //!< [plane][sw] -> link indices
    uint64_t m_recomputations;                                    //!< route computations
    uint64_t m_detections;                                        //!< changes detected
};

} // namespace ns3

#endif /* MRC_ECMP_CONTROL_PLANE_H */
