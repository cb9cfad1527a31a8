/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_FORK_H
#define MRC_FORK_H

#include "ns3/object.h"
#include "ns3/ptr.h"

namespace ns3
{

/**
 * @ingroup mrc
 * The body of a `Fork()` (as ns-3's TcpCongestionOps::Fork): a copy of `obj` made by
 * CopyObject, its attributes and state as they are, when `obj`'s dynamic type is exactly `T`.
 * An object of a subclass of `T` that does not fork itself gets null, never a copy sliced to
 * `T`: the caller then makes the object from its factory.
 *
 * @tparam Base the type the copy is returned as
 * @tparam T the class whose Fork this is
 * @param obj the object
 * @return the copy, or null
 */
template<typename Base, typename T>
Ptr<Base>
MrcForkAs(const T* obj)
{
    if (obj->GetInstanceTypeId() != T::GetTypeId())
    {
        return nullptr;
    }
    return CopyObject<T>(Ptr<const T>(obj));
}

} // namespace ns3

#endif /* MRC_FORK_H */
