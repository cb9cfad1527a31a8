/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_FAULT_EVENT_H
#define MRC_FAULT_EVENT_H

#include "ns3/mrc-name-table.h"

#include "ns3/nstime.h"

#include <cstdint>
#include <string>

namespace ns3
{

/**
 * @ingroup mrc
 * @brief One fault event, as MrcFaultInjector traces it (Fault) and MrcRecorder writes it to
 * events.csv (kind and state by their names).
 */
struct MrcFaultEvent
{
    /** What changed. */
    enum class Kind : uint8_t
    {
        LINK,          //!< "link": a cable between switches, or a NIC port's by link_* actions
        NIC_PORT,      //!< "nic_port": a NIC port's cable (nic_port_down, link_* on a port)
        SWITCH_REBOOT, //!< "switch_reboot": every cable of a switch
        BLACKHOLE,     //!< "blackhole": a switch dropping everything
        NIC_RX_LOSS,   //!< "nic_rx_loss": NIC ports dropping arriving frames
    };

    /** How it changed. */
    enum class State : uint8_t
    {
        DOWN,  //!< "down": a link or port went down
        UP,    //!< "up": it came up
        START, //!< "start": a reboot, blackhole or receive loss began
        END,   //!< "end": it ended
    };

    Time time;          //!< when
    Kind kind;          //!< what changed
    std::string target; //!< the target's name, e.g. plane0/t0-3/t1-1, host5/plane2, plane0/t1-2
    State state;        //!< how

    /** @return the one name table of Kind: link, nic_port, switch_reboot, blackhole, nic_rx_loss */
    static const MrcNameTable<Kind>& KindNames();
    /** @return the one name table of State: down, up, start, end */
    static const MrcNameTable<State>& StateNames();
};

} // namespace ns3

#endif /* MRC_FAULT_EVENT_H */
