/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "ns3/mrc-packet-prefetch.h"

#include "ns3/mrc-event-prefetch.h"

#include <algorithm>

namespace ns3
{

namespace
{

// Readers of Packet's private members. Each is a friend function defined by a class template
// whose explicit instantiation names the member: access is not checked in the template
// arguments of an explicit instantiation ([temp.explicit]), and what the friend then reads
// goes through a member pointer, not a name.

const Buffer& BufferOf(const Packet& p);
const PacketMetadata& MetadataOf(const Packet& p);
const void* StorageOf(const Buffer& b);
const uint8_t* BytesOf(const Buffer& b);
uint32_t StartOf(const Buffer& b);
uint32_t ZeroStartOf(const Buffer& b);
uint32_t ZeroEndOf(const Buffer& b);
const void* StorageOf(const PacketMetadata& m);

/** Reads Packet::m_buffer. @tparam M its member pointer */
template<auto M>
struct PacketBufferReader
{
    friend const Buffer& BufferOf(const Packet& p)
    {
        return p.*M;
    }
};

/** Reads Packet::m_metadata. @tparam M its member pointer */
template<auto M>
struct PacketMetadataReader
{
    friend const PacketMetadata& MetadataOf(const Packet& p)
    {
        return p.*M;
    }
};

/** Reads Buffer::m_data (the storage, and its bytes). @tparam M its member pointer */
template<auto M>
struct BufferDataReader
{
    friend const void* StorageOf(const Buffer& b)
    {
        return b.*M;
    }

    friend const uint8_t* BytesOf(const Buffer& b)
    {
        return (b.*M)->m_data;
    }
};

/** Reads a uint32_t member of Buffer. @tparam M its member pointer @tparam K which */
template<auto M, int K>
struct BufferIndexReader;

/** Reads Buffer::m_start. @tparam M its member pointer */
template<auto M>
struct BufferIndexReader<M, 0>
{
    friend uint32_t StartOf(const Buffer& b)
    {
        return b.*M;
    }
};

/** Reads Buffer::m_zeroAreaStart. @tparam M its member pointer */
template<auto M>
struct BufferIndexReader<M, 1>
{
    friend uint32_t ZeroStartOf(const Buffer& b)
    {
        return b.*M;
    }
};

/** Reads Buffer::m_zeroAreaEnd. @tparam M its member pointer */
template<auto M>
struct BufferIndexReader<M, 2>
{
    friend uint32_t ZeroEndOf(const Buffer& b)
    {
        return b.*M;
    }
};

/** Reads PacketMetadata::m_data. @tparam M its member pointer */
template<auto M>
struct MetadataDataReader
{
    friend const void* StorageOf(const PacketMetadata& m)
    {
        return m.*M;
    }
};

template struct PacketBufferReader<&Packet::m_buffer>;
template struct PacketMetadataReader<&Packet::m_metadata>;
template struct BufferDataReader<&Buffer::m_data>;
template struct BufferIndexReader<&Buffer::m_start, 0>;
template struct BufferIndexReader<&Buffer::m_zeroAreaStart, 1>;
template struct BufferIndexReader<&Buffer::m_zeroAreaEnd, 2>;
template struct MetadataDataReader<&PacketMetadata::m_data>;

} // namespace

void
MrcPacketPrefetch::Insides(const Packet* packet, uint32_t bytes)
{
    const Buffer& b = BufferOf(*packet);
    // The storage's header (its reference count, read when the packet is freed) and the first
    // bytes, those held: a header added at the front always is.
    __builtin_prefetch(StorageOf(b));
    if (const uint32_t start = StartOf(b), zeroStart = ZeroStartOf(b); start < zeroStart)
    {
        const uint8_t* first = BytesOf(b) + start;
        MrcEventPrefetch::Lines(first, first + std::min(bytes, zeroStart - start));
    }
    __builtin_prefetch(StorageOf(MetadataOf(*packet)));
}

const uint8_t*
MrcPacketPrefetch::FirstByte(const Packet& packet)
{
    if (packet.GetSize() == 0)
    {
        return nullptr;
    }
    const Buffer& b = BufferOf(packet);
    const uint32_t start = StartOf(b);
    const uint32_t zeroStart = ZeroStartOf(b);
    const uint32_t zeroEnd = ZeroEndOf(b);
    if (start < zeroStart)
    {
        return BytesOf(b) + start;
    }
    if (start < zeroEnd)
    {
        return nullptr;
    }
    return BytesOf(b) + (start - (zeroEnd - zeroStart));
}

const void*
MrcPacketPrefetch::MetadataStorage(const Packet& packet)
{
    return StorageOf(MetadataOf(packet));
}

} // namespace ns3
