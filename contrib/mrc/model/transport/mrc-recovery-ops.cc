/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "ns3/mrc-recovery-ops.h"

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(MrcRecoveryOps);

TypeId
MrcRecoveryOps::GetTypeId()
{
    static TypeId tid = TypeId("ns3::MrcRecoveryOps").SetParent<Object>().SetGroupName("Mrc");
    return tid;
}

MrcRecoveryOps::MrcRecoveryOps() = default;
MrcRecoveryOps::~MrcRecoveryOps() = default;

} // namespace ns3
