// retainFreedHeap(): a block of a few hundred KiB to a few MiB comes from the heap, and once freed it stays
// with the process, so the next re-check of a long Job reuses it instead of page-faulting it back in.
#include "core/HeapRetention.h"

#include <QTest>

#include <cstring>
#include <malloc.h>
#include <memory>

using namespace jobdeck;

class TestHeapRetention final : public QObject {
    Q_OBJECT

private slots:
    void freedMemoryStaysInTheHeap() {
        retainFreedHeap();
        constexpr std::size_t kBlock = 2 * 1024 * 1024; // glibc's default would map it and unmap it on free
        const struct mallinfo2 before = mallinfo2();
        {
            const std::unique_ptr<char[]> block(new char[kBlock]);
            std::memset(block.get(), 1, kBlock); // touched, as a real result is
            const struct mallinfo2 during = mallinfo2();
            QCOMPARE(during.hblks, before.hblks); // no mapping of its own
            QVERIFY2(during.arena >= before.arena + kBlock, "the block was not taken from the heap");
        }
        const struct mallinfo2 after = mallinfo2();
        // Not trimmed: the heap keeps its size, and the block's bytes are free for reuse.
        QVERIFY2(after.arena >= before.arena + kBlock, "the freed block was handed back to the kernel");
        QVERIFY(after.fordblks >= kBlock);
        // And reused: the same allocation again does not grow the heap.
        {
            const std::unique_ptr<char[]> again(new char[kBlock]);
            std::memset(again.get(), 2, kBlock);
            QCOMPARE(mallinfo2().arena, after.arena);
        }
    }
};

QTEST_GUILESS_MAIN(TestHeapRetention)
#include "tst_heapretention.moc"
