/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_LAZY_TRACE_SOURCE_ACCESSOR_H
#define MRC_LAZY_TRACE_SOURCE_ACCESSOR_H

#include "ns3/mrc-lazy.h"

#include "ns3/callback.h"
#include "ns3/object-base.h"
#include "ns3/ptr.h"
#include "ns3/trace-source-accessor.h"

#include <functional>
#include <string>

namespace ns3
{

/**
 * @ingroup mrc
 * @brief The TraceSourceAccessor of a trace source kept in an MrcLazy member: connecting
 * makes the state that holds it, disconnecting does not.
 *
 * ns-3's MakeTraceSourceAccessor takes a pointer to a TracedCallback member. An object that
 * exists by the million keeps its trace sources in an MrcLazy instead (an empty TracedCallback
 * is a 24-byte list): MrcMakeLazyTraceSourceAccessor gives the same Connect and
 * TraceConnectWithoutContext behaviour for them.
 *
 * @tparam SOURCE the TracedCallback type
 */
template<typename SOURCE>
class MrcLazyTraceSourceAccessor : public TraceSourceAccessor
{
public:
    /**
     * Finds the source in an object: null if the object is not of the right type, or (when
     * the second argument is false) if its state was not made.
     */
    using Resolver = std::function<SOURCE*(ObjectBase*, bool)>;

    /** @param resolve finds the source */
    explicit MrcLazyTraceSourceAccessor(Resolver resolve)
        : m_resolve(std::move(resolve))
    {
    }

    bool ConnectWithoutContext(ObjectBase* obj, const CallbackBase& cb) const override
    {
        SOURCE* s = m_resolve(obj, true);
        if (s == nullptr)
        {
            return false;
        }
        s->ConnectWithoutContext(cb);
        return true;
    }

    bool Connect(ObjectBase* obj, std::string context, const CallbackBase& cb) const override
    {
        SOURCE* s = m_resolve(obj, true);
        if (s == nullptr)
        {
            return false;
        }
        s->Connect(cb, context);
        return true;
    }

    bool DisconnectWithoutContext(ObjectBase* obj, const CallbackBase& cb) const override
    {
        SOURCE* s = m_resolve(obj, false);
        if (s != nullptr)
        {
            s->DisconnectWithoutContext(cb);
        }
        return true;
    }

    bool Disconnect(ObjectBase* obj, std::string context, const CallbackBase& cb) const override
    {
        SOURCE* s = m_resolve(obj, false);
        if (s != nullptr)
        {
            s->Disconnect(cb, context);
        }
        return true;
    }

private:
    Resolver m_resolve; //!< finds the source
};

/**
 * @ingroup mrc
 * The accessor of a trace source that is a member of an object's lazily made state.
 * @tparam T the object's class
 * @tparam B the state's type
 * @tparam SOURCE the TracedCallback type
 * @param block the object's MrcLazy member
 * @param member the source within the state
 * @return the accessor, for TypeId::AddTraceSource
 */
template<typename T, typename B, typename SOURCE>
Ptr<const TraceSourceAccessor>
MrcMakeLazyTraceSourceAccessor(MrcLazy<B> T::*block, SOURCE B::*member)
{
    auto resolve = [block, member](ObjectBase* obj, bool make) -> SOURCE*
    {
        T* p = dynamic_cast<T*>(obj);
        if (p == nullptr)
        {
            return nullptr;
        }
        B* b = make ? &(p->*block).Get() : (p->*block).Peek();
        return b == nullptr ? nullptr : &(b->*member);
    };
    return Ptr<const TraceSourceAccessor>(new MrcLazyTraceSourceAccessor<SOURCE>(resolve), false);
}

/**
 * @ingroup mrc
 * The accessor of a trace source that is itself an object's lazily made member.
 * @tparam T the object's class
 * @tparam SOURCE the TracedCallback type
 * @param source the object's MrcLazy member
 * @return the accessor, for TypeId::AddTraceSource
 */
template<typename T, typename SOURCE>
Ptr<const TraceSourceAccessor>
MrcMakeLazyTraceSourceAccessor(MrcLazy<SOURCE> T::*source)
{
    auto resolve = [source](ObjectBase* obj, bool make) -> SOURCE*
    {
        T* p = dynamic_cast<T*>(obj);
        if (p == nullptr)
        {
            return nullptr;
        }
        return make ? &(p->*source).Get() : (p->*source).Peek();
    };
    return Ptr<const TraceSourceAccessor>(new MrcLazyTraceSourceAccessor<SOURCE>(resolve), false);
}

} // namespace ns3

#endif /* MRC_LAZY_TRACE_SOURCE_ACCESSOR_H */
