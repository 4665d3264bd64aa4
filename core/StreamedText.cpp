#include "core/StreamedText.h"

#include <algorithm>

namespace jobdeck {

StreamedText::StreamedText(std::size_t capacity)
    : m_bytes(new char[std::max<std::size_t>(capacity, 1)])
    , m_capacity(capacity) {}

std::size_t StreamedText::room() const {
    return m_capacity - m_written;
}

void StreamedText::commit(std::size_t bytes) {
    m_written += std::min(bytes, room());
    {
        const std::lock_guard lock(m_mutex);
        m_published = m_written;
    }
    m_grown.notify_all();
}

void StreamedText::finish() {
    {
        const std::lock_guard lock(m_mutex);
        m_finished = true;
    }
    m_grown.notify_all();
}

std::size_t StreamedText::waitBeyond(std::size_t have) {
    std::unique_lock lock(m_mutex);
    m_grown.wait(lock, [&] { return m_published > have || m_finished; });
    return m_published;
}

std::string_view StreamedText::text() {
    std::unique_lock lock(m_mutex);
    m_grown.wait(lock, [&] { return m_finished; });
    return {m_bytes.get(), m_published};
}

} // namespace jobdeck
