// HugePageAllocator: vectors small and large keep their contents through growth and shrinking; a large
// block is 2 MiB aligned and, where the kernel gives transparent huge pages, marked for them (the
// madvise took: "hg" in the mapping's VmFlags).
#include "core/HugePageAllocator.h"

#include <QTest>

#include <cstdint>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

using namespace jobdeck;

namespace {

constexpr std::size_t kMiB = std::size_t(1) << 20;
constexpr std::size_t kHugePage = 2 * kMiB;

template <class T> using HugeVector = std::vector<T, HugePageAllocator<T>>;

std::string readFile(const char* path) {
    std::ifstream in(path);
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
}

// The THP mode the kernel is in: "always", "madvise" or "never" (the bracketed word), or "" when the
// kernel has no THP at all.
std::string thpMode() {
    const std::string text = readFile("/sys/kernel/mm/transparent_hugepage/enabled");
    const auto open = text.find('[');
    const auto close = text.find(']', open);
    if (open == std::string::npos || close == std::string::npos)
        return {};
    return text.substr(open + 1, close - open - 1);
}

// The VmFlags line of the mapping in /proc/self/smaps that holds address p, or "" when none does.
std::string vmFlagsOf(const void* p) {
    const auto at = reinterpret_cast<std::uintptr_t>(p);
    std::ifstream smaps("/proc/self/smaps");
    std::string line;
    bool inside = false;
    while (std::getline(smaps, line)) {
        std::uintptr_t from = 0, to = 0;
        char dash = 0;
        std::istringstream head(line);
        if (head >> std::hex >> from >> dash >> to && dash == '-' && line.find(':') > line.find(' ')) {
            inside = from <= at && at < to;
            continue;
        }
        if (inside && line.rfind("VmFlags:", 0) == 0)
            return line;
    }
    return {};
}

// Every page (and the last byte) written, then read back.
bool usable(unsigned char* p, std::size_t bytes) {
    const auto value = [](std::size_t i) { return static_cast<unsigned char>((i >> 12) * 31 + i + 7); };
    for (std::size_t i = 0; i < bytes; i += 4096)
        p[i] = value(i);
    p[bytes - 1] = value(bytes - 1);
    for (std::size_t i = 0; i < bytes; i += 4096)
        if (p[i] != value(i))
            return false;
    return p[bytes - 1] == value(bytes - 1);
}

template <class V> bool holdsSequence(const V& v, std::uint64_t salt) {
    for (std::size_t i = 0; i < v.size(); ++i)
        if (v[i] != static_cast<typename V::value_type>(i * 2654435761u + salt))
            return false;
    return true;
}

} // namespace

class TestHugePageAllocator final : public QObject {
    Q_OBJECT
private slots:
    void isLargeBoundaries() {
        QVERIFY(!huge_pages::isLarge(0));
        QVERIFY(!huge_pages::isLarge(1));
        QVERIFY(!huge_pages::isLarge(2 * kMiB));
        QVERIFY(!huge_pages::isLarge(4 * kMiB - 1));
        QVERIFY(huge_pages::isLarge(4 * kMiB));
        QVERIFY(huge_pages::isLarge(4 * kMiB + 1));
        QVERIFY(huge_pages::isLarge(64 * kMiB));
    }

    void smallBlocksComeFromTheHeap() {
        for (std::size_t bytes : {std::size_t(1), std::size_t(64), std::size_t(4096), 4 * kMiB - 1}) {
            auto* p = static_cast<unsigned char*>(huge_pages::allocate(bytes));
            QVERIFY(p != nullptr);
            QVERIFY(usable(p, bytes));
            huge_pages::deallocate(p, bytes);
        }
    }

    void largeBlocksAreAlignedAndUsable() {
        for (std::size_t bytes : {4 * kMiB, 4 * kMiB + 1, 5 * kMiB + 123, 16 * kMiB}) {
            auto* p = static_cast<unsigned char*>(huge_pages::allocate(bytes));
            QVERIFY(p != nullptr);
            QCOMPARE(reinterpret_cast<std::uintptr_t>(p) % kHugePage, std::uintptr_t(0));
            QVERIFY(usable(p, bytes));
            QVERIFY(!vmFlagsOf(p).empty()); // mapped, listed in smaps
            huge_pages::deallocate(p, bytes);
            QVERIFY2(vmFlagsOf(p).empty() || vmFlagsOf(p).find(" hg") == std::string::npos,
                     "the block's mapping is gone after deallocate");
        }
    }

    void smallVectorGrowsAndShrinks() {
        HugeVector<std::uint32_t> v;
        for (std::size_t i = 0; i < 10000; ++i) {
            v.push_back(static_cast<std::uint32_t>(i * 2654435761u + 5));
            if (i % 1000 == 0)
                QVERIFY(holdsSequence(v, 5));
        }
        QVERIFY(v.size() * sizeof(std::uint32_t) < 4 * kMiB);
        QVERIFY(holdsSequence(v, 5));
        v.resize(100);
        v.shrink_to_fit();
        QCOMPARE(v.size(), std::size_t(100));
        QVERIFY(holdsSequence(v, 5));
        HugeVector<std::uint32_t> copy = v;
        QVERIFY(copy == v);
        v.clear();
        v.shrink_to_fit();
        QCOMPARE(v.capacity(), std::size_t(0));
    }

    // Growing by push_back crosses from heap blocks into mapped ones (and back when shrunk to fit):
    // every reallocation keeps the contents.
    void largeVectorGrowsAndShrinks() {
        HugeVector<std::uint64_t> v;
        const std::size_t n = 3 * 4 * kMiB / sizeof(std::uint64_t); // 12 MiB
        bool sawLarge = false;
        const std::uint64_t* last = nullptr;
        for (std::size_t i = 0; i < n; ++i) {
            v.push_back(i * 2654435761u + 9);
            if (v.data() != last) { // reallocated: everything carried over
                last = v.data();
                QVERIFY2(holdsSequence(v, 9), qPrintable(QString::number(v.capacity())));
                if (huge_pages::isLarge(v.capacity() * sizeof(std::uint64_t))) {
                    sawLarge = true;
                    QCOMPARE(reinterpret_cast<std::uintptr_t>(v.data()) % kHugePage, std::uintptr_t(0));
                }
            }
        }
        QVERIFY(sawLarge);
        QVERIFY(holdsSequence(v, 9));
        v.resize(n / 2);
        v.shrink_to_fit(); // still large: another mapping
        QVERIFY(holdsSequence(v, 9));
        QCOMPARE(reinterpret_cast<std::uintptr_t>(v.data()) % kHugePage, std::uintptr_t(0));
        v.resize(1000);
        v.shrink_to_fit(); // small: back on the heap
        QCOMPARE(v.size(), std::size_t(1000));
        QVERIFY(holdsSequence(v, 9));
        v.resize(n, 0); // and large again
        for (std::size_t i = 1000; i < n; ++i)
            v[i] = i * 2654435761u + 9;
        QVERIFY(holdsSequence(v, 9));
        HugeVector<std::uint64_t> moved = std::move(v);
        QVERIFY(holdsSequence(moved, 9));
        HugeVector<std::uint64_t> copied = moved;
        QVERIFY(holdsSequence(copied, 9));
        QCOMPARE(reinterpret_cast<std::uintptr_t>(copied.data()) % kHugePage, std::uintptr_t(0));
    }

    // Element types larger than a byte, and an odd size, in a large block.
    void largeVectorOfStructs() {
        struct Item {
            std::uint64_t a;
            std::uint32_t b;
            char c[13];
        };
        HugeVector<Item> v(5 * kMiB / sizeof(Item) + 3);
        QVERIFY(huge_pages::isLarge(v.size() * sizeof(Item)));
        QCOMPARE(reinterpret_cast<std::uintptr_t>(v.data()) % kHugePage, std::uintptr_t(0));
        for (std::size_t i = 0; i < v.size(); ++i)
            v[i] = Item{i, static_cast<std::uint32_t>(i * 3), {static_cast<char>(i)}};
        v.resize(v.size() * 2);
        for (std::size_t i = 0; i < v.size() / 2; ++i)
            QVERIFY(v[i].a == i && v[i].b == static_cast<std::uint32_t>(i * 3) &&
                    v[i].c[0] == static_cast<char>(i));
    }

    // The madvise took: with THP available (always or madvise), the block's mapping is marked for huge
    // pages ("hg" in VmFlags). With THP off ([never], or no THP in the kernel) the block is ordinary
    // memory, still usable.
    void largeBlockAsksForHugePages() {
        const std::string mode = thpMode();
        const std::size_t bytes = 8 * kMiB;
        auto* p = static_cast<unsigned char*>(huge_pages::allocate(bytes));
        QCOMPARE(reinterpret_cast<std::uintptr_t>(p) % kHugePage, std::uintptr_t(0));
        QVERIFY(usable(p, bytes));
        const std::string flags = vmFlagsOf(p);
        const std::string lastFlags = vmFlagsOf(p + bytes - 1);
        huge_pages::deallocate(p, bytes);
        qInfo("THP mode '%s'; %s", mode.c_str(), flags.c_str());
        QVERIFY2(!flags.empty(), "the block is in no mapping of /proc/self/smaps");
        if (mode == "never" || mode.empty())
            return; // no THP (off, or a kernel without it): the usable() check above is what holds then
        QVERIFY2(mode == "always" || mode == "madvise",
                 qPrintable(QString::fromStdString("unexpected THP mode: '" + mode + "'")));
        QVERIFY2((flags + " ").find(" hg ") != std::string::npos, flags.c_str());
        QVERIFY2((lastFlags + " ").find(" hg ") != std::string::npos, lastFlags.c_str()); // the whole block
    }

    // advise() on memory allocated elsewhere (a large std::string, which malloc maps on its own): the
    // whole 2 MiB pages inside it are asked for huge pages, and the memory keeps what is written to it.
    void adviseMarksTheHugePagesInsideABlock() {
        const std::string mode = thpMode();
        std::string text;
        text.reserve(16 * kMiB);
        huge_pages::advise(text.data(), text.capacity());
        text.assign(12 * kMiB, 'x');
        text[7 * kMiB] = 'y';
        QCOMPARE(text[7 * kMiB], 'y');
        QCOMPARE(text.back(), 'x');
        const auto begin = reinterpret_cast<std::uintptr_t>(text.data());
        const std::uintptr_t firstHuge = (begin + kHugePage - 1) & ~(kHugePage - 1);
        const std::string flags = vmFlagsOf(reinterpret_cast<const void*>(firstHuge));
        QVERIFY2(!flags.empty(), "the string's buffer is in no mapping of /proc/self/smaps");
        huge_pages::advise(nullptr, 0); // nothing to advise: no effect, no failure
        huge_pages::advise(text.data(), kHugePage - 1);
        if (mode == "never" || mode.empty())
            return; // no THP: the contents above are what holds then
        QVERIFY2((flags + " ").find(" hg ") != std::string::npos, flags.c_str());
    }
};

QTEST_GUILESS_MAIN(TestHugePageAllocator)
#include "tst_hugepageallocator.moc"
