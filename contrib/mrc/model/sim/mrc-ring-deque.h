/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MRC_RING_DEQUE_H
#define MRC_RING_DEQUE_H

#include "ns3/assert.h"

#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

namespace ns3
{

/**
 * @ingroup mrc
 * @brief A double-ended queue with random access in one ring buffer, for the per-queue-pair
 * windows and lists.
 *
 * It keeps the order and indexing of `std::deque` for the operations it has (push and pop at
 * the back, pop at the front, `[]`, resize, erase at an index), but it allocates nothing until
 * its first element and then holds one power-of-two array that grows by doubling and is
 * released only when the container is destroyed. libstdc++'s `std::deque` allocates a 512-byte
 * block and its map when it is constructed: a queue pair held seven of them, about 4 KB
 * before it sent anything, which on the paper's fabric (262,144 queue pairs) was 1 GB.
 *
 * A slot that leaves the ring is assigned a default-constructed T, so an element that owns
 * memory (a `std::vector`) releases it when it is popped, as with `std::deque`.
 *
 * @tparam T the element type (default-constructible and move-assignable)
 */
template<typename T>
class MrcRingDeque
{
public:
    /** @return true if empty */
    bool empty() const
    {
        return m_size == 0;
    }

    /** @return the number of elements */
    std::size_t size() const
    {
        return m_size;
    }

    /**
     * @param i index from the front
     * @return the element
     */
    T& operator[](std::size_t i)
    {
        NS_ASSERT(i < m_size);
        return m_slots[(m_head + i) & (m_slots.size() - 1)];
    }

    /**
     * @param i index from the front
     * @return the element
     */
    const T& operator[](std::size_t i) const
    {
        NS_ASSERT(i < m_size);
        return m_slots[(m_head + i) & (m_slots.size() - 1)];
    }

    /**
     * Start loading the slot of index i, which may lie past the back (MrcEventPrefetch). A hint:
     * nothing is read; an empty ring loads nothing.
     * @param i index from the front
     */
    void Prefetch(std::size_t i) const
    {
        if (!m_slots.empty())
        {
            __builtin_prefetch(&m_slots[(m_head + i) & (m_slots.size() - 1)]);
        }
    }

    /** @return the first element */
    T& front()
    {
        return (*this)[0];
    }

    /** @return the first element */
    const T& front() const
    {
        return (*this)[0];
    }

    /** @return the last element */
    T& back()
    {
        return (*this)[m_size - 1];
    }

    /** @return the last element */
    const T& back() const
    {
        return (*this)[m_size - 1];
    }

    /**
     * Append an element.
     * @param v the element
     */
    void push_back(T v)
    {
        if (m_size == m_slots.size())
        {
            Grow();
        }
        m_slots[(m_head + m_size) & (m_slots.size() - 1)] = std::move(v);
        ++m_size;
    }

    /** Remove the first element. */
    void pop_front()
    {
        NS_ASSERT(m_size > 0);
        m_slots[m_head] = T();
        m_head = (m_head + 1) & (m_slots.size() - 1);
        --m_size;
    }

    /** Remove the last element. */
    void pop_back()
    {
        NS_ASSERT(m_size > 0);
        --m_size;
        m_slots[(m_head + m_size) & (m_slots.size() - 1)] = T();
    }

    /**
     * Remove the element at an index, moving the later ones one place forward.
     * @param i the index
     */
    void erase_at(std::size_t i)
    {
        NS_ASSERT(i < m_size);
        for (std::size_t k = i; k + 1 < m_size; ++k)
        {
            (*this)[k] = std::move((*this)[k + 1]);
        }
        pop_back();
    }

    /**
     * Append copies of a value or remove elements at the back.
     * @param n the new size
     * @param value what is appended
     */
    void resize(std::size_t n, const T& value = T())
    {
        while (m_size > n)
        {
            pop_back();
        }
        while (m_size < n)
        {
            push_back(value);
        }
    }

    /** Remove every element (the array is kept). */
    void clear()
    {
        while (m_size > 0)
        {
            pop_back();
        }
        m_head = 0;
    }

    /**
     * Exchange the contents with another.
     * @param other the other
     */
    void swap(MrcRingDeque& other)
    {
        m_slots.swap(other.m_slots);
        std::swap(m_head, other.m_head);
        std::swap(m_size, other.m_size);
    }

private:
    /** Double the array (the first one holds 4 elements), the elements from slot 0. */
    void Grow()
    {
        std::vector<T> bigger(m_slots.empty() ? 4 : m_slots.size() * 2);
        for (std::size_t k = 0; k < m_size; ++k)
        {
            bigger[k] = std::move((*this)[k]);
        }
        m_slots.swap(bigger);
        m_head = 0;
    }

    std::vector<T> m_slots; //!< the ring, a power of two long (empty until the first element)
    std::size_t m_head = 0; //!< slot of the first element
    std::size_t m_size = 0; //!< elements held
};

} // namespace ns3

#endif /* MRC_RING_DEQUE_H */
