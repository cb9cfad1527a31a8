/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "ns3/mrc-oblivious-spray.h"

#include "ns3/mrc-fork.h"

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(MrcObliviousSpray);

TypeId
MrcObliviousSpray::GetTypeId()
{
    static TypeId tid = TypeId("ns3::MrcObliviousSpray")
                            .SetParent<MrcPathSelector>()
                            .SetGroupName("Mrc")
                            .AddConstructor<MrcObliviousSpray>();
    return tid;
}

MrcObliviousSpray::MrcObliviousSpray() = default;
MrcObliviousSpray::~MrcObliviousSpray() = default;

Ptr<MrcPathSelector>
MrcObliviousSpray::Fork() const
{
    return MrcForkAs<MrcPathSelector>(this);
}

} // namespace ns3
