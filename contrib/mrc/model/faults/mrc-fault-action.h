/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_FAULT_ACTION_H
#define MRC_FAULT_ACTION_H

#include "ns3/mrc-name-table.h"

#include <cstdint>

namespace ns3
{

/**
 * @ingroup mrc
 * @brief What a scheduled fault does (MrcFaultInjector::Schedule; the action column of a fault
 * file). What each does to which targets is documented in mrc-faults.rst, *Actions*.
 */
enum class MrcFaultAction : uint8_t
{
    LINK_DOWN,     //!< "link_down": a link or NIC port's cable down for good
    LINK_UP,       //!< "link_up": it comes up
    LINK_FLAP,     //!< "link_flap": down, and up again after the duration
    SWITCH_REBOOT, //!< "switch_reboot": every cable of a switch down for the duration
    BLACKHOLE,     //!< "blackhole": a switch drops everything, its ports up (packet level)
    NIC_PORT_DOWN, //!< "nic_port_down": a NIC port's cable down for the duration
    NIC_RX_LOSS,   //!< "nic_rx_loss": NIC ports drop arriving frames at a rate (packet level)
};

/**
 * @ingroup mrc
 * @return the one name table of MrcFaultAction: link_down, link_up, link_flap, switch_reboot,
 *         blackhole, nic_port_down, nic_rx_loss
 */
const MrcNameTable<MrcFaultAction>& MrcFaultActionNames();

} // namespace ns3

#endif /* MRC_FAULT_ACTION_H */
