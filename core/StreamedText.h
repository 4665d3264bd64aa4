#pragma once

#include <condition_variable>
#include <cstddef>
#include <memory>
#include <mutex>
#include <string_view>

namespace jobdeck {

// The bytes of one answer, read on one thread while another still receives them: the reader waits
// for more instead of failing at the end of what has arrived. The buffer has the size announced
// up front and never moves, so views of its received part stay valid while the text grows.
// The writer's members are called from one thread; the reader's may be called from any other.
class StreamedText final {
public:
    explicit StreamedText(std::size_t capacity);

    // Writer: room left, where to put it, then commit() to publish what was written there.
    std::size_t room() const;
    char* writeArea() { return m_bytes.get() + m_written; }
    void commit(std::size_t bytes);
    // No more bytes come (all arrived, or the transfer stopped): the text is what was committed.
    void finish();

    // Reader.
    const char* data() const { return m_bytes.get(); }
    std::size_t capacity() const { return m_capacity; }
    // Waits until more than `have` bytes are published or the text is finished; the published size.
    std::size_t waitBeyond(std::size_t have);
    // The whole text once finished (waits for it).
    std::string_view text();

private:
    std::unique_ptr<char[]> m_bytes;
    std::size_t m_capacity;
    std::size_t m_written = 0; // the writer's own count; m_published follows it under the lock
    mutable std::mutex m_mutex;
    std::condition_variable m_grown;
    std::size_t m_published = 0;
    bool m_finished = false;
};

} // namespace jobdeck
