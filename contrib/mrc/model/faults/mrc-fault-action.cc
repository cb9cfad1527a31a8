/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "ns3/mrc-fault-action.h"

namespace ns3
{

const MrcNameTable<MrcFaultAction>&
MrcFaultActionNames()
{
    static const MrcNameTable<MrcFaultAction> names{
        {MrcFaultAction::LINK_DOWN, "link_down"},
        {MrcFaultAction::LINK_UP, "link_up"},
        {MrcFaultAction::LINK_FLAP, "link_flap"},
        {MrcFaultAction::SWITCH_REBOOT, "switch_reboot"},
        {MrcFaultAction::BLACKHOLE, "blackhole"},
        {MrcFaultAction::NIC_PORT_DOWN, "nic_port_down"},
        {MrcFaultAction::NIC_RX_LOSS, "nic_rx_loss"}};
    return names;
}

} // namespace ns3
