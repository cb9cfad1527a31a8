/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mrc-path-provider.h"

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(MrcPathProvider);

TypeId
MrcPathProvider::GetTypeId()
{
    static TypeId tid = TypeId("ns3::MrcPathProvider").SetParent<Object>().SetGroupName("Mrc");
    return tid;
}

} // namespace ns3
