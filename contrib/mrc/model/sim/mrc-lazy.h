/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_LAZY_H
#define MRC_LAZY_H

#include <memory>
#include <utility>

namespace ns3
{

/**
 * @ingroup mrc
 * @brief A member made on first use: the rarely used state of an object that exists by the
 * million (a port's PFC state and trace sources, a queue's trace sources).
 *
 * It holds a pointer until Get() is first called, then a value-initialized T on the heap. Peek()
 * reads it without making it, so a hot path pays one pointer test for state that is absent in
 * most runs. Copying an MrcLazy copies the T if one was made (as copying the member itself
 * would), so an object holding it keeps its copy constructor.
 *
 * @tparam T the state (value-initializable and copy-constructible)
 */
template<typename T>
class MrcLazy
{
public:
    MrcLazy() = default;

    /**
     * Copy the state, if the other one made it.
     * @param o the other
     */
    MrcLazy(const MrcLazy& o)
        : m_value(o.m_value ? std::make_unique<T>(*o.m_value) : nullptr)
    {
    }

    /**
     * Copy the state, if the other one made it.
     * @param o the other
     * @return this
     */
    MrcLazy& operator=(const MrcLazy& o)
    {
        if (this != &o)
        {
            m_value = o.m_value ? std::make_unique<T>(*o.m_value) : nullptr;
        }
        return *this;
    }

    MrcLazy(MrcLazy&&) noexcept = default;            //!< move constructor
    MrcLazy& operator=(MrcLazy&&) noexcept = default; //!< move assignment @return this

    /** @return the state, made (value-initialized) if it was not yet */
    T& Get()
    {
        if (!m_value)
        {
            m_value = std::make_unique<T>();
        }
        return *m_value;
    }

    /** @return the state, or null if nothing made it yet */
    T* Peek() const
    {
        return m_value.get();
    }

    /** Destroy the state (the next Get makes a fresh one). */
    void Reset()
    {
        m_value.reset();
    }

private:
    std::unique_ptr<T> m_value; //!< the state, or null
};

} // namespace ns3

#endif /* MRC_LAZY_H */
