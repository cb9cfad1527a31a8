/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_PFC_INGRESS_H
#define MRC_PFC_INGRESS_H

#include "ns3/event-id.h"
#include "ns3/nstime.h"
#include "ns3/ptr.h"

#include <cstdint>
#include <vector>

namespace ns3
{

class MrcNetDevice;

/**
 * @ingroup mrc
 * @brief A switch's priority flow control (IEEE 802.1Qbb) for the data class: the ingress
 * accounting, its thresholds and the PAUSE frames it sends.
 *
 * Every data frame waiting in one of the switch's egress queues is charged to the port it came
 * in on (the queues call Charge and Release through MrcFrameReceiver). When a port's charge
 * reaches its XOFF threshold a PAUSE goes out of that port, refreshed every half pause time,
 * and a zero-quanta PAUSE once the charge falls to XON; the headroom above XOFF absorbs what
 * is already on the cable. A frame that would overflow the headroom is not admitted (the switch
 * drops it as PFC_HEADROOM: the thresholds are wrong).
 *
 * What a port does when a PAUSE arrives (hold its data class) is the port's own behaviour
 * (MrcNetDevice::ReceivePause): host NIC ports are paused too, and have no switch.
 */
class MrcPfcIngress
{
public:
    /** The thresholds (0: automatic, as MrcSwitchNetDevice's attributes say). */
    struct Config
    {
        uint32_t xoff;     //!< XOFF bytes (0: twice the headroom)
        uint32_t xon;      //!< XON bytes (0: XOFF less two MTUs, at least half of XOFF)
        uint32_t headroom; //!< headroom bytes (0: from the cable delay, latency and rate)
        uint16_t quanta;   //!< pause time a PAUSE asks for, 512-bit-time quanta
        Time latency;      //!< the switch's forwarding latency
    };

    /**
     * Work out each port's thresholds and start accounting (empty charges, no pause).
     * @param ports the switch's ports (they outlive this object)
     * @param config the thresholds
     */
    void Setup(const std::vector<Ptr<MrcNetDevice>>& ports, const Config& config);
    /** @return true once Setup ran (PFC on) */
    bool IsEnabled() const
    {
        return !m_ports.empty();
    }

    /**
     * @param port an ingress port
     * @param bytes a data frame's bytes
     * @return true if the port's headroom can take it
     */
    bool Admits(uint32_t port, uint32_t bytes) const
    {
        return m_ingressBytes[port] + bytes <= m_limit[port];
    }

    /**
     * A data frame that came in on a port waits in an egress queue.
     * @param port the ingress port
     * @param bytes its bytes
     */
    void Charge(uint32_t port, uint32_t bytes);
    /**
     * A data frame charged to a port left its egress queue.
     * @param port the ingress port
     * @param bytes its bytes
     */
    void Release(uint32_t port, uint32_t bytes);
    /** Cancel the refresh timers (the switch is disposed). */
    void Stop();

    /**
     * @param port a port
     * @return data bytes that arrived on it and still wait in egress queues
     */
    uint32_t GetIngressBytes(uint32_t port) const;
    /**
     * @param port a port
     * @return the largest GetIngressBytes(port) seen
     */
    uint32_t GetMaxIngressBytes(uint32_t port) const;
    /**
     * @param port a port
     * @return its XOFF threshold, bytes
     */
    uint32_t GetXoff(uint32_t port) const;
    /**
     * @param port a port
     * @return its XOFF threshold plus headroom, bytes
     */
    uint32_t GetLimit(uint32_t port) const;

private:
    /**
     * Re-send the XOFF PAUSE on a port at half the pause time while its charge stays above XON.
     * @param port the port
     */
    void ArmRefresh(uint32_t port);
    /**
     * The refresh timer of a port fired.
     * @param port the port
     */
    void OnRefresh(uint32_t port);

    std::vector<MrcNetDevice*> m_ports;      //!< the switch's ports
    uint16_t m_quanta{65535};                //!< pause quanta of an XOFF PAUSE
    std::vector<uint32_t> m_ingressBytes;    //!< charge per ingress port
    std::vector<uint32_t> m_maxIngressBytes; //!< high-water mark per port
    std::vector<uint32_t> m_xoff;            //!< XOFF per port
    std::vector<uint32_t> m_xon;             //!< XON per port
    std::vector<uint32_t> m_limit;           //!< XOFF + headroom per port
    std::vector<uint8_t> m_pauseOn;          //!< XOFF sent, XON not yet
    std::vector<EventId> m_refresh;          //!< XOFF refresh timers
};

} // namespace ns3

#endif /* MRC_PFC_INGRESS_H */
